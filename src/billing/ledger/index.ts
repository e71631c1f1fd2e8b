// Picks the ledger implementation from DATABASE_URL: `sqlite:PATH` (embedded default) or
// `postgres://…` (several instances).
import type { Ledger } from './interface.js';
import { SqliteLedger } from './sqlite.js';

export type { Ledger } from './interface.js';

export async function openLedger(databaseUrl: string): Promise<Ledger> {
  if (databaseUrl.startsWith('sqlite:')) return new SqliteLedger(databaseUrl.slice('sqlite:'.length));
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) {
    const { openPostgresLedger } = await import('./postgres.js');
    return openPostgresLedger(databaseUrl);
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${databaseUrl.split(':')[0]}:…)`);
}
