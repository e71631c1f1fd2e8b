// PostgreSQL ledger: not available yet in this version.
import type { Ledger } from './interface.js';

export async function openPostgresLedger(_url: string): Promise<Ledger> {
  throw new Error('DATABASE_URL=postgres://… is not supported yet: use sqlite:PATH');
}
