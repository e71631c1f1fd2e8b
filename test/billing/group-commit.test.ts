// Group commit on both ledgers: concurrent charges share one transaction, and a write that fails
// inside it fails alone (the transaction is rolled back and every write runs again on its own),
// so the other callers are charged exactly once and the ledger reconciles. Each ledger is made to
// fail in its own way: SQLite by a key created twice in the batch, PostgreSQL by a request id
// it cannot store (a NUL character is not valid in a text value).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../scripts/lib/pg.js';
import { hashKey } from '../../src/billing/api-keys.js';
import type { Ledger } from '../../src/billing/ledger/interface.js';
import { openPostgresLedger } from '../../src/billing/ledger/postgres/ledger.js';
import { SqliteLedger } from '../../src/billing/ledger/sqlite/ledger.js';
import { LEDGERS, type LedgerKind } from '../support/ledgers.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function open(kind: LedgerKind): Promise<Ledger> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-group-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const l = new SqliteLedger(join(dir, 'ledger.db'));
    cleanup.push(() => l.close());
    return l;
  }
  const db = await createTestDatabase();
  cleanup.push(() => db.drop());
  const l = await openPostgresLedger(db.url, { poolSize: 4 });
  cleanup.push(() => l.close());
  return l;
}

describe.each(LEDGERS)('%s ledger', (kind) => {
  test('a write that fails in a batch fails alone; the others are charged once', async () => {
    const l = await open(kind);
    const key = { id: 'key_a', name: 'a', prefix: 'gl_a', hash: hashKey('gl_a'), credits: 10_000 };
    await l.createKey(key);
    const charge = (requestId: string) =>
      l.charge({
        keyId: 'key_a',
        requestId,
        route: 'clipnet.posts',
        price: { base: 1000, perItem: 1000 },
        items: 1,
        minItems: 1,
      });
    const failing = (): Promise<unknown> =>
      kind === 'sqlite' ? l.createKey({ ...key, name: 'again' }) : charge('req_\u0000bad');
    // queued at once: on SQLite one batch (one event-loop turn); on PostgreSQL the first runs
    // at once and the others form the next batch
    const results = await Promise.allSettled([
      charge('r1'),
      charge('r2'),
      failing(),
      charge('r3'),
      charge('r4'),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => r.value)).toEqual([
      { ok: true, items: 1, amount: 2000, balance: expect.any(Number) },
      { ok: true, items: 1, amount: 2000, balance: expect.any(Number) },
      { ok: true, items: 1, amount: 2000, balance: expect.any(Number) },
      { ok: true, items: 1, amount: 2000, balance: expect.any(Number) },
    ]);
    expect(await l.available('key_a')).toBe(2000);
    const debits = (await l.entries('key_a')).filter((e) => e.kind === 'debit').map((e) => e.requestId);
    expect(debits.sort()).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(await l.reconcile()).toMatchObject({ keys: 1, openHolds: 0, problems: [] });
  });
});
