// Picks the ledger implementation from DATABASE_URL: `sqlite:PATH` (embedded default) or
// `postgres://…` (several instances).
import type { Ledger } from './interface.js';
import { SqliteLedger } from './sqlite/ledger.js';

export type { Ledger } from './interface.js';

export interface OpenLedgerOptions {
  /** PostgreSQL connections of this instance */
  poolSize?: number;
  /** PostgreSQL: apply pending migrations on open (default true) */
  migrate?: boolean;
}

export function isPostgresUrl(databaseUrl: string): boolean {
  return databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://');
}

export async function openLedger(databaseUrl: string, opts: OpenLedgerOptions = {}): Promise<Ledger> {
  if (databaseUrl.startsWith('sqlite:')) return new SqliteLedger(databaseUrl.slice('sqlite:'.length));
  if (isPostgresUrl(databaseUrl)) {
    const { openPostgresLedger } = await import('./postgres/ledger.js');
    return openPostgresLedger(databaseUrl, opts);
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${databaseUrl.split(':')[0]}:…)`);
}

/** Applies pending schema migrations and returns their versions (SQLite creates its schema on
 *  open, so there is nothing to run ahead). */
export async function migrateLedger(databaseUrl: string): Promise<number[]> {
  if (isPostgresUrl(databaseUrl)) {
    const { migratePostgres } = await import('./postgres/ledger.js');
    return migratePostgres(databaseUrl);
  }
  const ledger = await openLedger(databaseUrl);
  await ledger.close();
  return [];
}

/** Forwards every call to another ledger; decorators (key cache, metrics) override a few. */
export class LedgerDecorator implements Ledger {
  constructor(protected readonly inner: Ledger) {}
  get kind() {
    return this.inner.kind;
  }
  createKey(...a: Parameters<Ledger['createKey']>) {
    return this.inner.createKey(...a);
  }
  // the calls of every request forward their arguments as they are (no rest array)
  findKeyByHash(hash: Buffer) {
    return this.inner.findKeyByHash(hash);
  }
  listKeys() {
    return this.inner.listKeys();
  }
  getKey(...a: Parameters<Ledger['getKey']>) {
    return this.inner.getKey(...a);
  }
  revokeKey(...a: Parameters<Ledger['revokeKey']>) {
    return this.inner.revokeKey(...a);
  }
  onKeyRevoked(...a: Parameters<Ledger['onKeyRevoked']>) {
    this.inner.onKeyRevoked(...a);
  }
  grant(...a: Parameters<Ledger['grant']>) {
    return this.inner.grant(...a);
  }
  entries(...a: Parameters<Ledger['entries']>) {
    return this.inner.entries(...a);
  }
  usage(...a: Parameters<Ledger['usage']>) {
    return this.inner.usage(...a);
  }
  totals(...a: Parameters<Ledger['totals']>) {
    return this.inner.totals(...a);
  }
  usageByKey(...a: Parameters<Ledger['usageByKey']>) {
    return this.inner.usageByKey(...a);
  }
  countKeys() {
    return this.inner.countKeys();
  }
  available(keyId: string, opts?: { fresh?: boolean }) {
    return this.inner.available(keyId, opts);
  }
  charge(req: Parameters<Ledger['charge']>[0]) {
    return this.inner.charge(req);
  }
  hold(...a: Parameters<Ledger['hold']>) {
    return this.inner.hold(...a);
  }
  settle(...a: Parameters<Ledger['settle']>) {
    return this.inner.settle(...a);
  }
  release(...a: Parameters<Ledger['release']>) {
    return this.inner.release(...a);
  }
  expireHolds(...a: Parameters<Ledger['expireHolds']>) {
    return this.inner.expireHolds(...a);
  }
  idempotencyBegin(...a: Parameters<Ledger['idempotencyBegin']>) {
    return this.inner.idempotencyBegin(...a);
  }
  idempotencyAbandon(...a: Parameters<Ledger['idempotencyAbandon']>) {
    return this.inner.idempotencyAbandon(...a);
  }
  purgeIdempotency(...a: Parameters<Ledger['purgeIdempotency']>) {
    return this.inner.purgeIdempotency(...a);
  }
  reconcile() {
    return this.inner.reconcile();
  }
  ping() {
    return this.inner.ping();
  }
  close() {
    return this.inner.close();
  }
}
