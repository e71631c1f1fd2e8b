// What only the PostgreSQL ledger can show: several instances on one database (concurrent
// migrations, two pools charging and sweeping at once, a lease taken over from a dead instance)
// and what the database itself enforces. The billing invariants themselves run on both ledgers
// in billing.test.ts.
import { afterEach, describe, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase, withClient } from '../../scripts/lib/pg.js';
import type { Ledger } from '../../src/billing/ledger/interface.js';
import { openPostgresLedger } from '../../src/billing/ledger/postgres/ledger.js';
import { startApp, type TestApp, type TestAppOptions } from '../support/app.js';
import { ITEMS_KEY } from '../support/bodies.js';

let t: TestApp | undefined;
let db: TestDatabase | undefined;
const extra: Ledger[] = [];

afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const l of extra.splice(0)) await l.close();
  await db?.drop();
  db = undefined;
});

async function pgApp(opts: TestAppOptions = {}): Promise<TestApp> {
  db = await createTestDatabase();
  const ledger = await openPostgresLedger(db.url, { poolSize: 8 });
  t = await startApp({ ...opts, ledger });
  return t;
}

async function another(): Promise<Ledger> {
  const l = await openPostgresLedger(db!.url, { poolSize: 8 });
  extra.push(l);
  return l;
}

async function _ledgerDebits(app: TestApp): Promise<number> {
  const entries = await app.ledger.entries(app.keyId, { limit: 100_000 });
  return entries.filter((e) => e.kind === 'debit').reduce((s, e) => s + e.amount, 0) / 1000;
}

function _itemCount(id: string, data: Record<string, unknown>): number {
  const items = data[ITEMS_KEY[id as keyof typeof ITEMS_KEY]] as Array<{ posts?: unknown[] }>;
  return id === 'clipnet.bulk_posts' ? items.reduce((s, u) => s + (u.posts?.length ?? 0), 0) : items.length;
}

describe('PostgreSQL Idempotency-Key', () => {
  test('a record whose lease ran out (its instance died) is taken over by a retry', async () => {
    await pgApp({ credits: 100 });
    // the retry's lease must outlive its next three calls, also on a loaded machine (at 50 ms it
    // ran out under the full suite and a third call took the record over)
    const ref = { keyId: t!.keyId, key: 'k', fingerprint: 'f', leaseMs: 500, ttlMs: 86_400_000 };
    const first = await t!.ledger.idempotencyBegin(ref);
    expect(first).toMatchObject({ state: 'new', lease: { generation: 1 } });
    expect(await t!.ledger.idempotencyBegin(ref)).toEqual({ state: 'in_progress' });
    expect(await t!.ledger.idempotencyBegin({ ...ref, fingerprint: 'g' })).toEqual({ state: 'mismatch' });
    await new Promise((r) => setTimeout(r, 600));
    const second = await t!.ledger.idempotencyBegin(ref);
    if (first.state !== 'new' || second.state !== 'new') throw new Error('not taken over');
    // the same record, one generation on
    expect(second.lease).toEqual({ ...first.lease, generation: 2 });
    // the first run's abandon no longer applies: the record stays the retry's
    await t!.ledger.idempotencyAbandon(first.lease);
    expect(await t!.ledger.idempotencyBegin(ref)).toEqual({ state: 'in_progress' });
    await t!.ledger.idempotencyAbandon(second.lease);
    expect(await t!.ledger.idempotencyBegin(ref)).toMatchObject({ state: 'new' });
  });
});

describe('PostgreSQL holds, sweeper and reconcile', () => {
  test('four instances sweeping 400 expired holds at once close each exactly once', async () => {
    await pgApp({ credits: 1000 });
    const keys = await Promise.all(Array.from({ length: 4 }, () => t!.newKey(100)));
    for (const k of keys)
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          t!.ledger.hold({
            keyId: k.id,
            requestId: `r${i}`,
            route: 'clipnet.posts',
            price: { base: 0, perItem: 1000 },
            maxItems: 1,
            minItems: 1,
            ttlMs: 1,
          }),
        ),
      );
    await new Promise((r) => setTimeout(r, 10));
    const sweepers = [t!.ledger, await another(), await another(), await another()];
    const counts = await Promise.all(sweepers.flatMap((l) => [l.expireHolds(), l.expireHolds()]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(400);
    const rec = await t!.ledger.reconcile();
    expect(rec).toMatchObject({ openHolds: 0, problems: [] });
    for (const k of keys) expect(await t!.ledger.available(k.id)).toBe(100_000);
  });

  test('two instances charging one key at once never overspend', async () => {
    await pgApp({ credits: 0 });
    const k = await t!.newKey(100);
    const b = await another();
    const price = { base: 1000, perItem: 1000 };
    const rs = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        (i % 2 ? b : t!.ledger).charge({
          keyId: k.id,
          requestId: `r${i}`,
          route: 'clipnet.posts',
          price,
          items: 3,
          minItems: 0,
        }),
      ),
    );
    const total = rs.reduce((s, r) => s + (r.ok ? r.amount : 0), 0);
    expect(total).toBe(100_000);
    // 25 full charges of 4 credits, then nothing (a base without items is still a sale of 1)
    expect(rs.filter((r) => r.ok).length).toBe(25);
    expect(await t!.ledger.available(k.id)).toBe(0);
    expect((await t!.ledger.reconcile()).problems).toEqual([]);
  });

  test('the database refuses to change the journal or overdraw, and reconcile sees tampering', async () => {
    await pgApp({ credits: 50 });
    for (let i = 0; i < 3; i++) await t!.post('/clipnet/posts', { username: 'alice', limit: 2 });
    expect((await t!.ledger.reconcile()).problems).toEqual([]);
    await withClient(db!.url, async (c) => {
      await expect(c.query('DELETE FROM ledger')).rejects.toThrow(/append-only/);
      await expect(c.query('UPDATE ledger SET amount = 1')).rejects.toThrow(/append-only/);
      await expect(c.query('TRUNCATE ledger CASCADE')).rejects.toThrow(/append-only/);
      await expect(c.query('UPDATE api_keys SET balance = -1')).rejects.toThrow(/check constraint/);
      await expect(c.query('UPDATE api_keys SET held = balance + 1')).rejects.toThrow(/check constraint/);
      await c.query('UPDATE api_keys SET balance = balance + 5 WHERE id = $1', [t!.keyId]);
    });
    const rec = await t!.ledger.reconcile();
    expect(rec.problems).toHaveLength(1);
    expect(rec.problems[0]!.keyId).toBe(t!.keyId);
  });

  test('instances starting at once apply each migration exactly once', async () => {
    db = await createTestDatabase();
    const ledgers = await Promise.all(
      Array.from({ length: 4 }, () => openPostgresLedger(db!.url, { poolSize: 2 })),
    );
    extra.push(...ledgers);
    const rows = await withClient(db.url, (c) => c.query('SELECT version FROM schema_migrations'));
    expect(rows.rows.map((r) => r.version)).toEqual([1, 2, 3, 4, 5]);
    expect(await ledgers[0]!.countKeys()).toBe(0);
  });

  test('a database a newer release has migrated is refused, not written to', async () => {
    db = await createTestDatabase();
    extra.push(await openPostgresLedger(db.url, { poolSize: 1 }));
    await withClient(db.url, (c) =>
      c.query("INSERT INTO schema_migrations (version, name) VALUES (99, 'from a newer release')"),
    );
    await expect(openPostgresLedger(db.url, { poolSize: 1 })).rejects.toThrow(
      /schema version 99, newer than this release's 5/,
    );
  });
});
