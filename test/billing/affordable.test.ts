// A balance that covers the base charge but not one item is not a sale: when items exist, the
// call is a 402 and costs nothing (never `posts: []` charged the base, with `has_more` and no
// cursor). A target with no items at all still answers 200 with the base charge.
import { afterEach, describe, expect, test } from 'vitest';
import { fakeSources } from '../support/fakes.js';
import { LEDGERS, type LedgerApp, startAppOn } from '../support/ledgers.js';

let t: LedgerApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const debits = async (app: LedgerApp) =>
  (await app.ledger.entries(app.keyId, { limit: 100 })).filter((e) => e.kind === 'debit');

describe.each(LEDGERS)('%s ledger', (kind) => {
  describe.each(['sandbox', 'live'] as const)('a %s source', (source) => {
    test.each([
      // base 1, 1 a post
      ['/clipnet/posts', { username: 'alice', limit: 10 }, 1.5],
      ['/picnet/posts', { username: 'alice', limit: 10 }, 1.5],
      // base 2, 1 an item
      ['/clipnet/hashtag/posts', { hashtags: ['fun', 'travel'] }, 2.5],
      ['/clipnet/bulk/posts', { usernames: ['alice', 'bob'], limit_per_user: 5 }, 2.5],
      // base 1, 0.5 a comment
      ['/vidnet/comments', { post_urls: ['dQw4w9WgXcQ'], limit_per_post: 5 }, 1.25],
    ] as const)(
      '%s: items exist, the balance covers none: 402, nothing charged',
      async (path, body, credits) => {
        t = await startAppOn(kind, { credits, sources: fakeSources({ kind: source }) });
        const r = await t.post(path, body);
        expect(r.statusCode, r.body).toBe(402);
        expect(r.json().error.code).toBe('PAYMENT_REQUIRED');
        expect(r.json().metadata.credits_used).toBe(0);
        expect(await t.balance()).toBe(credits);
        expect(await debits(t)).toEqual([]);
        expect(await t.ledger.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
      },
    );

    test('a user without posts: 200 with no posts, the base charged, nothing more to page', async () => {
      t = await startAppOn(kind, { credits: 1.5, sources: fakeSources({ kind: source }) });
      const r = await t.post('/clipnet/posts', { username: 'empty', limit: 10 });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().data).toEqual({ posts: [], cursor: null, has_more: false });
      expect(r.json().metadata.credits_used).toBe(1);
      expect(await t.balance()).toBe(0.5);
    });

    test('a truncated page carries a cursor that continues after its last post', async () => {
      t = await startAppOn(kind, { credits: 2, sources: fakeSources({ kind: source }) });
      const r = await t.post('/clipnet/posts', { username: 'alice', limit: 10 });
      const j = r.json();
      expect(j.data.posts).toHaveLength(1);
      expect(j.metadata.truncated).toBe(true);
      expect(j.data).toMatchObject({ has_more: true, cursor: expect.any(String) });
      // the balance is spent: the next page is a 402, and free
      const next = await t.post('/clipnet/posts', { username: 'alice', limit: 10, cursor: j.data.cursor });
      expect(next.statusCode).toBe(402);
      await t.ledger.grant(t.keyId, 10_000);
      const after = await t.post('/clipnet/posts', { username: 'alice', limit: 1, cursor: j.data.cursor });
      expect(after.json().data.posts[0].id).toBe('7000000000000000001');
    });
  });
});
