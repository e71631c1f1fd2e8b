// The billing invariants of the decisions, through the real app, run once on each ledger (SQLite
// and PostgreSQL). What only several instances on one database can show is in postgres.test.ts.

import { afterEach, describe, expect, test } from 'vitest';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { SourceError } from '../../src/sources/interface.js';
import type { TestApp, TestAppOptions } from '../support/app.js';
import { ITEMS_KEY, VALID_BODIES } from '../support/bodies.js';
import { fakeEnricher, fakeSources } from '../support/fakes.js';
import { LEDGERS, type LedgerApp, type LedgerKind, startAppOn } from '../support/ledgers.js';

let t: LedgerApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function ledgerDebits(app: TestApp): Promise<number> {
  const entries = await app.ledger.entries(app.keyId, { limit: 100_000 });
  return entries.filter((e) => e.kind === 'debit').reduce((s, e) => s + e.amount, 0) / 1000;
}

function itemCount(id: string, data: Record<string, unknown>): number {
  const items = data[ITEMS_KEY[id as keyof typeof ITEMS_KEY]] as Array<{ posts?: unknown[] }>;
  return id === 'clipnet.bulk_posts' ? items.reduce((s, u) => s + (u.posts?.length ?? 0), 0) : items.length;
}

const BASE: Record<string, [number, number]> = {
  'clipnet.posts': [1, 1],
  'picnet.posts': [1, 1],
  'clipnet.comments': [1, 0.5],
  'picnet.comments': [1, 0.5],
  'vidnet.comments': [1, 0.5],
  'clipnet.bulk_posts': [2, 1],
  'clipnet.hashtag_posts': [2, 1],
  'picnet.hashtag_posts': [2, 1],
  'vidnet.search': [2, 1],
  'vidnet.hashtag_search': [2, 1],
  'vidnet.channel_videos': [2, 1],
  'vidnet.channel_shorts': [2, 1],
  'blipnet.posts': [1, 1],
  'blipnet.comments': [1, 0.5],
  'blipnet.search': [2, 1],
  'blipnet.hashtag_posts': [2, 1],
  'ml.analyze': [0, 0],
};

describe.each(LEDGERS)('on %s', (ledgerKind: LedgerKind) => {
  const start = async (opts: TestAppOptions = {}) => startAppOn(ledgerKind, opts);

  describe.each(['sandbox', 'live'] as const)('with a %s source', (kind) => {
    test.each(ENDPOINTS.map((e) => [e.id, e] as const))(
      '%s charges base + items × (rate + enrichment), the same in the response, headers and ledger',
      async (id, e) => {
        t = await start({ credits: 10_000, sources: fakeSources({ kind }) });
        for (const [enrich, provider, perItemEnrich] of [
          [[], 'model-2.0-flash', 0],
          [['sentiment', 'keywords'], 'model-2.0-flash', 1],
          [['topics', 'intent'], 'model-1.5-pro', 2],
        ] as const) {
          const before = await t.balance();
          const debitsBefore = await ledgerDebits(t);
          if (id === 'ml.analyze' && enrich.length === 0) continue;
          const r = await t.post(e.path, { ...VALID_BODIES[id], enrich, llm_provider: provider });
          expect(r.statusCode, r.body).toBe(200);
          const j = r.json();
          const n = itemCount(id, j.data);
          const [base, rate] = BASE[id]!;
          const expected = base + n * (rate + perItemEnrich);
          expect(j.metadata.credits_used).toBe(expected);
          expect(Number(r.headers['x-credits-used'])).toBe(expected);
          expect(await t.balance()).toBe(before - expected);
          expect(j.metadata.credits_remaining).toBe(before - expected);
          expect((await ledgerDebits(t)) - debitsBefore).toBe(expected);
        }
        expect((await t.ledger.reconcile()).problems).toEqual([]);
      },
    );

    test('200 concurrent calls against a key that affords some: never below zero, exact ledger', async () => {
      // 40 credits, each call costs 1 + 3 = 4 credits → exactly 10 succeed in full
      t = await start({ credits: 40, sources: fakeSources({ kind }) });
      const rs = await Promise.all(
        Array.from({ length: 200 }, () => t!.post('/clipnet/posts', { username: 'alice', limit: 3 })),
      );
      const ok = rs.filter((r) => r.statusCode === 200);
      const paid = rs.filter((r) => r.statusCode === 402);
      expect(ok.length + paid.length).toBe(200);
      const charged = ok.reduce((s, r) => s + r.json().metadata.credits_used, 0);
      expect(charged).toBe(40);
      expect(await t.balance()).toBe(0);
      expect(await ledgerDebits(t)).toBe(40);
      for (const r of paid)
        expect(r.json().error.message).toMatch(/^Insufficient credits: this call needs at least \d/);
      const rec = await t.ledger.reconcile();
      expect(rec.problems).toEqual([]);
      expect(rec.openHolds).toBe(0);
    });

    test('a balance covering only part of a result returns what it covers, truncated, with a continuing cursor', async () => {
      t = await start({ credits: 4, sources: fakeSources({ kind }) });
      const r = await t.post('/clipnet/posts', { username: 'alice', limit: 10 });
      expect(r.statusCode).toBe(200);
      const j = r.json();
      expect(j.data.posts).toHaveLength(3);
      expect(j.metadata.truncated).toBe(true);
      expect(j.metadata.credits_used).toBe(4);
      expect(j.data.has_more).toBe(true);
      await t.ledger.grant(t.keyId, 100_000);
      const next = await t.post('/clipnet/posts', { username: 'alice', limit: 2, cursor: j.data.cursor });
      expect(next.json().data.posts.map((p: { id: string }) => p.id)).toEqual([
        '7000000000000000003',
        '7000000000000000004',
      ]);
      expect(next.json().metadata.truncated).toBeUndefined();
    });

    test('a truncated multi-target result charges only what it returned', async () => {
      t = await start({ credits: 10.5, sources: fakeSources({ kind }) });
      const r = await t.post('/clipnet/comments', {
        post_urls: ['7123456789012345678', '7123456789012345679'],
        limit_per_post: 20,
        enrich: ['sentiment'],
      });
      const j = r.json();
      // 1 + 9 × (0.5 + 0.5) = 10 ≤ 10.5 < 11
      expect(j.data.comments).toHaveLength(9);
      expect(j.metadata.credits_used).toBe(10);
      expect(j.metadata.truncated).toBe(true);
      expect(await t.balance()).toBe(0.5);
    });

    test('a call whose base charge exceeds the balance is 402 and costs nothing', async () => {
      t = await start({ credits: 1.5, sources: fakeSources({ kind }) });
      const r = await t.post('/clipnet/hashtag/posts', { hashtags: ['fun'] });
      expect(r.statusCode).toBe(402);
      // what the call needs at least (the base charge of 2) and what the key has
      expect(r.json().error).toEqual({
        code: 'PAYMENT_REQUIRED',
        message: 'Insufficient credits: this call needs at least 2; the key has 1.5 available',
        details: [{ field: 'credits', message: 'needs at least 2; the key has 1.5 available' }],
      });
      expect(await t.balance()).toBe(1.5);
    });
  });

  test('/ml/analyze is all or nothing: 402 when the balance does not cover every text', async () => {
    t = await start({ credits: 2 });
    const r = await t.post('/ml/analyze', { texts: ['a', 'b', 'c'], enrich: ['topics'] });
    expect(r.statusCode).toBe(402);
    expect(await t.balance()).toBe(2);
    const ok = await t.post('/ml/analyze', { texts: ['a', 'b'], enrich: ['topics'] });
    expect(ok.json().metadata.credits_used).toBe(2);
    expect(await t.balance()).toBe(0);
  });

  test('analyze on a remote enricher: 200 concurrent calls, exactly the affordable number succeed', async () => {
    t = await start({ credits: 50, enricher: fakeEnricher({ local: false }) });
    const rs = await Promise.all(
      Array.from({ length: 200 }, () => t!.post('/ml/analyze', { texts: ['x'], enrich: ['sentiment'] })),
    );
    expect(rs.filter((r) => r.statusCode === 200)).toHaveLength(100);
    expect(await t.balance()).toBe(0);
    const rec = await t.ledger.reconcile();
    expect(rec.problems).toEqual([]);
    expect(rec.openHolds).toBe(0);
  });

  describe('Idempotency-Key', () => {
    test('a retry with the same key and body replays the response and is charged once', async () => {
      t = await start({ credits: 100 });
      const body = { username: 'alice', limit: 2 };
      const a = await t.post('/clipnet/posts', body, { 'idempotency-key': 'abc-1' });
      const b = await t.post('/clipnet/posts', body, { 'idempotency-key': 'abc-1' });
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(200);
      expect(b.body).toBe(a.body);
      expect(b.headers['idempotent-replayed']).toBe('true');
      expect(a.headers['idempotent-replayed']).toBeUndefined();
      expect(b.headers['x-credits-used']).toBe('3');
      expect(await t.balance()).toBe(97);
      // through the alias, the same logical call
      const c = await t.post('/api/clipnet/posts', body, { 'idempotency-key': 'abc-1' });
      expect(c.headers['idempotent-replayed']).toBe('true');
      expect(await t.balance()).toBe(97);
    });

    test('the same key with another body is 422, and costs nothing', async () => {
      t = await start({ credits: 100 });
      await t.post('/clipnet/posts', { username: 'alice', limit: 2 }, { 'idempotency-key': 'k' });
      const r = await t.post('/clipnet/posts', { username: 'alice', limit: 3 }, { 'idempotency-key': 'k' });
      expect(r.statusCode).toBe(422);
      expect(r.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await t.balance()).toBe(97);
    });

    test('a key whose first request still runs is 409', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      t = await start({
        credits: 100,
        sources: fakeSources({
          kind: 'live',
          onCall: (_op, target) => (target === 'alice' ? gate : undefined),
        }),
      });
      const first = t.post('/clipnet/posts', { username: 'alice', limit: 2 }, { 'idempotency-key': 'slow' });
      await new Promise((r) => setTimeout(r, 50));
      const second = await t.post(
        '/clipnet/posts',
        { username: 'alice', limit: 2 },
        { 'idempotency-key': 'slow' },
      );
      expect(second.statusCode).toBe(409);
      expect(second.json().error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
      expect(second.headers['retry-after']).toBeDefined();
      release();
      expect((await first).statusCode).toBe(200);
      expect(await t.balance()).toBe(97);
    });

    test('50 concurrent calls with one key and body: one charge, identical replies', async () => {
      t = await start({ credits: 100 });
      const body = { texts: ['I love it'], enrich: ['sentiment', 'topics'] };
      const first = await t.post('/ml/analyze', body, { 'idempotency-key': 'burst' });
      const rs = await Promise.all(
        Array.from({ length: 50 }, () => t!.post('/ml/analyze', body, { 'idempotency-key': 'burst' })),
      );
      for (const r of rs) expect(r.body).toBe(first.body);
      expect(await t.balance()).toBe(98.5);
    });

    test('a call that failed upstream stores nothing: its retry runs again', async () => {
      let fail = true;
      t = await start({
        credits: 100,
        sources: fakeSources({
          onCall: () => {
            if (fail) throw new SourceError('upstream', 'boom');
          },
        }),
      });
      const body = { username: 'alice', limit: 2 };
      const a = await t.post('/clipnet/posts', body, { 'idempotency-key': 'retry-me' });
      expect(a.statusCode).toBe(502);
      fail = false;
      const b = await t.post('/clipnet/posts', body, { 'idempotency-key': 'retry-me' });
      expect(b.statusCode).toBe(200);
      expect(b.headers['idempotent-replayed']).toBeUndefined();
      expect(await t.balance()).toBe(97);
    });

    test('a malformed key is 400', async () => {
      t = await start({ credits: 100 });
      const r = await t.post('/clipnet/posts', { username: 'alice' }, { 'idempotency-key': 'x'.repeat(300) });
      expect(r.statusCode).toBe(400);
      expect(r.json().error.details[0].field).toBe('Idempotency-Key');
    });
  });

  describe('holds and reconcile', () => {
    test('a crashed call leaves only a hold, which expires without charging', async () => {
      t = await start({ credits: 10 });
      const h = await t.ledger.hold({
        keyId: t.keyId,
        requestId: 'req_crash',
        route: 'clipnet.posts',
        price: { base: 1000, perItem: 1000 },
        maxItems: 100,
        minItems: 0,
        ttlMs: 1,
      });
      expect(h.ok && h.items).toBe(9);
      expect(await t.ledger.available(t.keyId)).toBe(0);
      // while held, a call gets 402
      expect((await t.post('/clipnet/posts', { username: 'alice' })).statusCode).toBe(402);
      expect((await t.ledger.reconcile()).openHolds).toBe(1);
      await new Promise((r) => setTimeout(r, 5));
      expect(await t.ledger.expireHolds()).toBe(1);
      expect(await t.ledger.expireHolds()).toBe(0);
      expect(await t.balance()).toBe(10);
      expect(await t.ledger.available(t.keyId)).toBe(10_000);
      const rec = await t.ledger.reconcile();
      expect(rec).toMatchObject({ openHolds: 0, problems: [] });
    });

    test('a hold is settled once: a settle after expiry charges only if the balance still covers it', async () => {
      t = await start({ credits: 10 });
      const price = { base: 1000, perItem: 1000 };
      const h = await t.ledger.hold({
        keyId: t.keyId,
        requestId: 'r',
        route: 'clipnet.posts',
        price,
        maxItems: 5,
        minItems: 0,
        ttlMs: 1,
      });
      if (!h.ok) throw new Error('hold failed');
      await new Promise((r) => setTimeout(r, 5));
      await t.ledger.expireHolds();
      const s = await t.ledger.settle({
        holdId: h.holdId,
        keyId: t.keyId,
        requestId: 'r',
        route: 'clipnet.posts',
        price,
        items: 2,
        minItems: 0,
      });
      expect(s.ok).toBe(true);
      await t.ledger.release(h.holdId);
      expect(await t.balance()).toBe(7);
      expect((await t.ledger.reconcile()).problems).toEqual([]);
    });

    test('reconcile passes on a clean ledger and fails on a tampered one; the ledger is append-only', async () => {
      t = await start({ credits: 50 });
      for (let i = 0; i < 5; i++) await t.post('/clipnet/posts', { username: 'alice', limit: 2 });
      expect((await t.ledger.reconcile()).problems).toEqual([]);
      await expect(t.sql('DELETE FROM ledger')).rejects.toThrow(/append-only/);
      await expect(t.sql('UPDATE ledger SET amount = 1')).rejects.toThrow(/append-only/);
      await t.sql(
        `UPDATE api_keys SET balance = balance + 5 WHERE id = ${ledgerKind === 'sqlite' ? '?' : '$1'}`,
        [t.keyId],
      );
      const rec = await t.ledger.reconcile();
      expect(rec.problems).toHaveLength(1);
      expect(rec.problems[0]!.keyId).toBe(t.keyId);
    });
  });
});
