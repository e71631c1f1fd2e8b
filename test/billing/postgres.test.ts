// The billing invariants on the PostgreSQL ledger: the core cases of billing.test.ts through the
// real app, plus what only several instances on one database can show (concurrent migrations,
// two pools charging and sweeping at once) and what the database itself enforces.
import { afterEach, describe, expect, test } from 'vitest';
import type { Ledger } from '../../src/billing/ledger/interface.js';
import { openPostgresLedger } from '../../src/billing/ledger/postgres.js';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { SourceError } from '../../src/sources/interface.js';
import { startApp, type TestApp, type TestAppOptions } from '../helpers/app.js';
import { ITEMS_KEY, VALID_BODIES } from '../helpers/bodies.js';
import { fakeEnricher, fakeSources } from '../helpers/fakes.js';
import { createTestDatabase, type TestDatabase, withClient } from '../reliability/lib/pg.js';

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

async function ledgerDebits(app: TestApp): Promise<number> {
  const entries = await app.ledger.entries(app.keyId, { limit: 100_000 });
  return entries.filter((e) => e.kind === 'debit').reduce((s, e) => s + e.amount, 0) / 1000;
}

function itemCount(id: string, data: Record<string, unknown>): number {
  const items = data[ITEMS_KEY[id as keyof typeof ITEMS_KEY]] as Array<{ posts?: unknown[] }>;
  return id === 'clipnet.bulk_posts' ? items.reduce((s, u) => s + (u.posts?.length ?? 0), 0) : items.length;
}

describe.each(['sandbox', 'live'] as const)('PostgreSQL, with a %s source', (kind) => {
  test('every endpoint charges the same in the response, the headers and the ledger', async () => {
    await pgApp({ credits: 10_000, sources: fakeSources({ kind }) });
    for (const e of ENDPOINTS) {
      const enrich = e.id === 'ml.analyze' ? ['sentiment', 'keywords'] : [];
      const before = await t!.balance();
      const debitsBefore = await ledgerDebits(t!);
      const r = await t!.post(e.path, { ...VALID_BODIES[e.id], enrich });
      expect(r.statusCode, `${e.id}: ${r.body}`).toBe(200);
      const j = r.json();
      const used = j.metadata.credits_used;
      expect(used).toBeGreaterThan(0);
      expect(itemCount(e.id, j.data)).toBeGreaterThan(0);
      expect(Number(r.headers['x-credits-used'])).toBe(used);
      expect(await t!.balance()).toBe(before - used);
      expect(j.metadata.credits_remaining).toBe(before - used);
      expect((await ledgerDebits(t!)) - debitsBefore).toBe(used);
    }
    expect(await t!.ledger.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
  });

  test('200 concurrent calls against a key that affords some: never below zero, exact ledger', async () => {
    await pgApp({ credits: 40, sources: fakeSources({ kind }) });
    const rs = await Promise.all(
      Array.from({ length: 200 }, () => t!.post('/clipnet/posts', { username: 'alice', limit: 3 })),
    );
    const ok = rs.filter((r) => r.statusCode === 200);
    expect(ok.length + rs.filter((r) => r.statusCode === 402).length).toBe(200);
    expect(ok.reduce((s, r) => s + r.json().metadata.credits_used, 0)).toBe(40);
    expect(await t!.balance()).toBe(0);
    expect(await ledgerDebits(t!)).toBe(40);
    expect(await t!.ledger.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
  });

  test('a balance covering part of a result returns what it covers, with a continuing cursor', async () => {
    await pgApp({ credits: 4, sources: fakeSources({ kind }) });
    const r = await t!.post('/clipnet/posts', { username: 'alice', limit: 10 });
    const j = r.json();
    expect(j.data.posts).toHaveLength(3);
    expect(j.metadata).toMatchObject({ truncated: true, credits_used: 4 });
    expect(j.data.has_more).toBe(true);
    await t!.ledger.grant(t!.keyId, 100_000);
    const next = await t!.post('/clipnet/posts', { username: 'alice', limit: 2, cursor: j.data.cursor });
    expect(next.json().data.posts.map((p: { id: string }) => p.id)).toEqual([
      '7000000000000000003',
      '7000000000000000004',
    ]);
  });

  test('a truncated multi-target result charges only what it returned', async () => {
    await pgApp({ credits: 10.5, sources: fakeSources({ kind }) });
    const r = await t!.post('/clipnet/comments', {
      post_urls: ['7123456789012345678', '7123456789012345679'],
      limit_per_post: 20,
      enrich: ['sentiment'],
    });
    expect(r.json().data.comments).toHaveLength(9);
    expect(r.json().metadata.credits_used).toBe(10);
    expect(await t!.balance()).toBe(0.5);
  });

  test('a call whose base charge exceeds the balance is 402 and costs nothing', async () => {
    await pgApp({ credits: 1.5, sources: fakeSources({ kind }) });
    const r = await t!.post('/clipnet/hashtag/posts', { hashtags: ['fun'] });
    expect(r.statusCode).toBe(402);
    expect(await t!.balance()).toBe(1.5);
  });
});

test('/ml/analyze is all or nothing, on a local and on a remote enricher', async () => {
  await pgApp({ credits: 2 });
  expect((await t!.post('/ml/analyze', { texts: ['a', 'b', 'c'], enrich: ['topics'] })).statusCode).toBe(402);
  expect(await t!.balance()).toBe(2);
  const ok = await t!.post('/ml/analyze', { texts: ['a', 'b'], enrich: ['topics'] });
  expect(ok.json().metadata.credits_used).toBe(2);
  await t!.close();
  t = undefined;
  await db!.drop();
  await pgApp({ credits: 50, enricher: fakeEnricher({ local: false }) });
  const rs = await Promise.all(
    Array.from({ length: 200 }, () => t!.post('/ml/analyze', { texts: ['x'], enrich: ['sentiment'] })),
  );
  expect(rs.filter((r) => r.statusCode === 200)).toHaveLength(100);
  expect(await t!.balance()).toBe(0);
  expect(await t!.ledger.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
});

describe('PostgreSQL Idempotency-Key', () => {
  test('replay, reuse with another body, and 50 concurrent calls: one charge', async () => {
    await pgApp({ credits: 100 });
    const body = { username: 'alice', limit: 2 };
    const a = await t!.post('/clipnet/posts', body, { 'idempotency-key': 'abc-1' });
    const b = await t!.post('/clipnet/posts', body, { 'idempotency-key': 'abc-1' });
    expect(b.body).toBe(a.body);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.headers['x-credits-used']).toBe('3');
    expect(await t!.balance()).toBe(97);
    const c = await t!.post('/clipnet/posts', { ...body, limit: 3 }, { 'idempotency-key': 'abc-1' });
    expect(c.statusCode).toBe(422);
    const burst = { texts: ['I love it'], enrich: ['sentiment', 'topics'] };
    const rs = await Promise.all(
      Array.from({ length: 50 }, () => t!.post('/ml/analyze', burst, { 'idempotency-key': 'burst' })),
    );
    const done = rs.filter((r) => r.statusCode === 200);
    expect(done.length).toBeGreaterThan(0);
    for (const r of rs) expect([200, 409]).toContain(r.statusCode);
    for (const r of done) expect(r.body).toBe(done[0]!.body);
    expect(await t!.balance()).toBe(95.5);
    const again = await t!.post('/ml/analyze', burst, { 'idempotency-key': 'burst' });
    expect(again.body).toBe(done[0]!.body);
  });

  test('a key whose first request still runs is 409; a failed call stores nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let fail = false;
    await pgApp({
      credits: 100,
      sources: fakeSources({
        kind: 'live',
        onCall: (_op, target) => {
          if (fail) throw new SourceError('upstream', 'boom');
          return target === 'alice' ? gate : undefined;
        },
      }),
    });
    const first = t!.post('/clipnet/posts', { username: 'alice', limit: 2 }, { 'idempotency-key': 'slow' });
    await new Promise((r) => setTimeout(r, 100));
    const second = await t!.post(
      '/clipnet/posts',
      { username: 'alice', limit: 2 },
      { 'idempotency-key': 'slow' },
    );
    expect(second.statusCode).toBe(409);
    release();
    expect((await first).statusCode).toBe(200);
    expect(await t!.balance()).toBe(97);
    fail = true;
    const a = await t!.post('/clipnet/posts', { username: 'bob', limit: 2 }, { 'idempotency-key': 'retry' });
    expect(a.statusCode).toBe(502);
    fail = false;
    const b = await t!.post('/clipnet/posts', { username: 'bob', limit: 2 }, { 'idempotency-key': 'retry' });
    expect(b.statusCode).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(await t!.balance()).toBe(94);
    expect(await t!.ledger.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
  });

  test('a record whose lease ran out (its instance died) is taken over by a retry', async () => {
    await pgApp({ credits: 100 });
    const ref = { keyId: t!.keyId, key: 'k', fingerprint: 'f', leaseMs: 50, ttlMs: 86_400_000 };
    const first = await t!.ledger.idempotencyBegin(ref);
    expect(first).toMatchObject({ state: 'new', lease: { generation: 1 } });
    expect(await t!.ledger.idempotencyBegin(ref)).toEqual({ state: 'in_progress' });
    expect(await t!.ledger.idempotencyBegin({ ...ref, fingerprint: 'g' })).toEqual({ state: 'mismatch' });
    await new Promise((r) => setTimeout(r, 80));
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
  test('a crashed call leaves only a hold, which expires without charging', async () => {
    await pgApp({ credits: 10 });
    const price = { base: 1000, perItem: 1000 };
    const h = await t!.ledger.hold({
      keyId: t!.keyId,
      requestId: 'req_crash',
      route: 'clipnet.posts',
      price,
      maxItems: 100,
      minItems: 0,
      ttlMs: 1,
    });
    expect(h.ok && h.items).toBe(9);
    expect(await t!.ledger.available(t!.keyId)).toBe(0);
    expect((await t!.post('/clipnet/posts', { username: 'alice' })).statusCode).toBe(402);
    expect((await t!.ledger.reconcile()).openHolds).toBe(1);
    await new Promise((r) => setTimeout(r, 5));
    expect(await t!.ledger.expireHolds()).toBe(1);
    expect(await t!.ledger.expireHolds()).toBe(0);
    expect(await t!.balance()).toBe(10);
    expect(await t!.ledger.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
    if (!h.ok) return;
    // a settle after expiry charges only what the balance still covers
    const s = await t!.ledger.settle({
      holdId: h.holdId,
      keyId: t!.keyId,
      requestId: 'req_crash',
      route: 'clipnet.posts',
      price,
      items: 2,
      minItems: 0,
    });
    expect(s.ok).toBe(true);
    await t!.ledger.release(h.holdId);
    expect(await t!.balance()).toBe(7);
    expect((await t!.ledger.reconcile()).problems).toEqual([]);
  });

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
});
