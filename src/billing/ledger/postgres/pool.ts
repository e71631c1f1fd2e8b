// Connections to the PostgreSQL ledger's database.
import pg from 'pg';

const INT8 = 20;
const NUMERIC = 1700;
// Millicredit amounts and sequence numbers stay far below 2^53, so bigint columns are read as
// plain numbers.
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8 || oid === NUMERIC
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export function createPool(url: string, poolSize = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types });
  // an idle connection that breaks (database restart) must not take the process down; the next
  // query opens a new one
  pool.on('error', () => {});
  return pool;
}
