// The client SDK against the real app on the sandbox: typed results, paginators that reach the
// end exactly once per item, retries charged once, typed errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENDPOINT_PATHS,
  Gleaner,
  GleanerAuthError,
  GleanerBadRequestError,
  GleanerError,
  GleanerNetworkError,
  GleanerNotFoundError,
  GleanerPaymentError,
  GleanerRateLimitError,
  GleanerUpstreamError,
} from '../../packages/client/src/index.js';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { failingClipnet, type LiveApp, startLive, startProxy } from './live.js';

const fast = { retryBaseDelayMs: 1, retryMaxDelayMs: 5 };

describe('client on the sandbox', () => {
  let t: LiveApp;
  let client: Gleaner;
  beforeAll(async () => {
    t = await startLive({ credits: 5000 });
    client = new Gleaner({ apiKey: t.key, baseUrl: t.url, ...fast });
  });
  afterAll(() => t.close());

  it('knows the path of every endpoint of the contract', () => {
    expect(Object.entries(ENDPOINT_PATHS).sort()).toEqual(ENDPOINTS.map((e) => [e.id, e.path]).sort());
  });

  it('returns data, metadata, credits used and remaining, and the request id', async () => {
    const before = await t.balance();
    const r = await client.clipnetPosts({ username: 'rafatech', limit: 3, enrich: ['sentiment', 'topics'] });
    expect(r.data.posts).toHaveLength(3);
    expect(r.data.posts[0]?.enrichment?.sentiment).toMatch(/positive|negative|neutral/);
    expect(r.creditsUsed).toBe(1 + 3 * (1 + 0.5 + 1));
    expect(r.creditsRemaining).toBe(before - r.creditsUsed);
    expect(await t.balance()).toBe(before - r.creditsUsed);
    expect(r.requestId).toMatch(/^req_/);
    expect(r.enrichments).toEqual(['sentiment', 'topics']);
    expect(r.metadata.enrichments_applied).toEqual(['sentiment', 'topics']);
    expect(r.replayed).toBe(false);
    expect(r.attempts).toBe(1);
  });

  it('accepts a base URL that ends in /api/v1', async () => {
    const c = new Gleaner({ apiKey: t.key, baseUrl: `${t.url}/api/v1/` });
    const r = await c.analyze({ texts: ['great phone'], enrich: ['sentiment'] });
    expect(r.data.results[0]?.enrichment.sentiment).toBe('positive');
  });

  it('iterateClipnetPosts reaches the last post exactly once per post, and counts the credits', async () => {
    const before = await t.balance();
    const pager = client.iterateClipnetPosts({ username: 'zanedrums', limit: 7 });
    const ids: string[] = [];
    for await (const post of pager) ids.push(post.id);
    expect(pager.stopReason).toBe('end');
    expect(pager.pagesFetched).toBe(Math.ceil(ids.length / 7));
    expect(new Set(ids).size).toBe(ids.length);
    // the same user in pages of 100: the same posts in the same order
    const big: string[] = [];
    for await (const page of client.iterateClipnetPosts({ username: 'zanedrums', limit: 100 }).pages())
      big.push(...page.data.posts.map((p) => p.id));
    expect(ids).toEqual(big);
    expect(ids.length).toBeGreaterThan(7);
    expect(pager.creditsUsed).toBe(pager.pagesFetched + ids.length);
    expect(before - (await t.balance())).toBe(pager.creditsUsed + Math.ceil(big.length / 100) + big.length);
  });

  it('iteratePicnetPosts yields pages that end with has_more false', async () => {
    const pages = [];
    for await (const p of client.iteratePicnetPosts({ username: 'critterswithliam', limit: 50 }).pages())
      pages.push(p);
    expect(pages.at(-1)?.data.has_more).toBe(false);
    expect(pages.slice(0, -1).every((p) => p.data.has_more && p.data.cursor)).toBe(true);
    const ids = pages.flatMap((p) => p.data.posts.map((x) => x.shortcode));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('iterateVidnetSearch sends 10 keywords a request, at the depth that reaches videosPerKeyword', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const spy = new Gleaner({
      apiKey: t.key,
      baseUrl: t.url,
      fetch: (input, init) => {
        seen.push(JSON.parse(String(init?.body)));
        return fetch(input, init);
      },
    });
    const keywords = ['speedrun', 'budgeting', 'funny skit', 'piano cover', 'puppy training', 'laptop'];
    const many = [...keywords, ...keywords.map((k) => `${k} tips`)];
    const pager = spy.iterateVidnetSearch({ keywords: many, videosPerKeyword: 45, period: 'all' });
    const videos = await pager.all();
    expect(seen.map((b) => (b.keywords as string[]).length)).toEqual([10, 2]);
    expect(seen.every((b) => b.depth === 3 && b.max_posts_per_keyword === 45)).toBe(true);
    expect(videos.length).toBe(pager.itemsReturned);
    expect(videos.some((v) => v.source_keyword === 'speedrun')).toBe(true);
  });

  it('raises typed errors with code, status, details and request id', async () => {
    const bad = await client.clipnetPosts({ username: 'rafatech', limit: 500 }).catch((e) => e);
    expect(bad).toBeInstanceOf(GleanerBadRequestError);
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', status: 400, kind: 'bad_request', attempts: 1 });
    expect(bad.details).toEqual([{ field: 'limit', message: 'must be <= 100' }]);
    expect(bad.requestId).toMatch(/^req_/);

    const missing = await client.clipnetPosts({ username: 'no_such_user_here' }).catch((e) => e);
    expect(missing).toBeInstanceOf(GleanerNotFoundError);
    expect(missing.code).toBe('NOT_FOUND');

    const wrongKey = 'gl_this_key_does_not_exist_000000000';
    const auth = await new Gleaner({ apiKey: wrongKey, baseUrl: t.url })
      .analyze({ texts: ['x'], enrich: ['sentiment'] })
      .catch((e) => e);
    expect(auth).toBeInstanceOf(GleanerAuthError);
    expect(auth).toMatchObject({ code: 'UNAUTHORIZED', status: 401, message: 'Invalid API key' });
    expect(`${auth.message} ${auth.stack} ${JSON.stringify(auth)}`).not.toContain(wrongKey);

    const poor = await t.newKey(0.5);
    const pay = await new Gleaner({ apiKey: poor.key, baseUrl: t.url })
      .clipnetPosts({ username: 'rafatech' })
      .catch((e) => e);
    expect(pay).toBeInstanceOf(GleanerPaymentError);
    expect(pay).toMatchObject({ code: 'PAYMENT_REQUIRED', status: 402, kind: 'payment' });
    expect(await t.balance(poor.id)).toBe(0.5);
  });

  it('never shows the key when the client is logged or serialised', () => {
    expect(JSON.stringify(client)).not.toContain(t.key);
    expect(JSON.stringify(client)).toContain('<redacted>');
  });
});

describe('retries', () => {
  it('retries a 503 from a failing platform and charges the call once', async () => {
    const failing = failingClipnet('unavailable', 2);
    const t = await startLive({ credits: 100, wrap: failing.wrap });
    try {
      const retried: number[] = [];
      const c = new Gleaner({
        apiKey: t.key,
        baseUrl: t.url,
        ...fast,
        onRetry: (i) => retried.push(i.error.status),
      });
      const r = await c.clipnetPosts({ username: 'rafatech', limit: 5 });
      expect(retried).toEqual([503, 503]);
      expect(r.attempts).toBe(3);
      expect(r.creditsUsed).toBe(6);
      expect(await t.balance()).toBe(94);
    } finally {
      await t.close();
    }
  });

  it('retries a 429 with the same Idempotency-Key, and gives up after the last retry', async () => {
    const t = await startLive({ credits: 100 });
    const proxy = await startProxy(t.url, (n) => (n === 1 ? 429 : n >= 3 ? 503 : 'pass'));
    try {
      const c = new Gleaner({ apiKey: t.key, baseUrl: proxy.url, ...fast, retries: 2 });
      const r = await c.analyze({ texts: ['love it', 'hate it'], enrich: ['sentiment'] });
      expect(r.attempts).toBe(2);
      expect(proxy.seen[0]?.idempotencyKey).toBeTruthy();
      expect(proxy.seen[1]?.idempotencyKey).toBe(proxy.seen[0]?.idempotencyKey);
      expect(await t.balance()).toBe(99);

      const e = await c.analyze({ texts: ['x'], enrich: ['sentiment'] }).catch((x) => x);
      expect(e).toBeInstanceOf(GleanerUpstreamError);
      expect(e).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, attempts: 3 });
      const keys = new Set(proxy.seen.slice(2).map((s) => s.idempotencyKey));
      expect(keys.size).toBe(1);
      expect(keys.has(proxy.seen[0]?.idempotencyKey)).toBe(false);
      expect(await t.balance()).toBe(99);
    } finally {
      await proxy.close();
      await t.close();
    }
  });

  it('a retry after an answer lost on the way back is replayed, not charged again', async () => {
    const t = await startLive({ credits: 100 });
    const proxy = await startProxy(t.url, (n) => (n === 1 ? 'drop' : 'pass'));
    try {
      const c = new Gleaner({ apiKey: t.key, baseUrl: proxy.url, ...fast });
      const r = await c.clipnetPosts({ username: 'rafatech', limit: 4 });
      expect(proxy.seen).toHaveLength(2);
      expect(proxy.seen[1]?.idempotencyKey).toBe(proxy.seen[0]?.idempotencyKey);
      expect(r.replayed).toBe(true);
      expect(r.creditsUsed).toBe(5);
      expect(await t.balance()).toBe(95);
    } finally {
      await proxy.close();
      await t.close();
    }
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    const fake: typeof fetch = async () =>
      new Response(
        JSON.stringify({ success: false, error: { code: 'RATE_LIMITED', message: 'Too many requests' } }),
        { status: 429, headers: { 'retry-after': '3600', 'x-request-id': 'req_1' } },
      );
    const started = Date.now();
    const e = await new Gleaner({ apiKey: 'k', fetch: fake, maxRetryAfterMs: 1000 })
      .analyze({ texts: ['x'], enrich: ['sentiment'] })
      .catch((x) => x);
    expect(e).toBeInstanceOf(GleanerRateLimitError);
    expect(e).toMatchObject({ retryAfterSeconds: 3600, attempts: 1, requestId: 'req_1' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reports a server it cannot reach as NETWORK_ERROR after retrying', async () => {
    const proxy = await startProxy('http://127.0.0.1:9', () => 'pass');
    const url = proxy.url;
    await proxy.close();
    const e = await new Gleaner({ apiKey: 'k', baseUrl: url, ...fast, retries: 2 })
      .analyze({ texts: ['x'], enrich: ['sentiment'] })
      .catch((x) => x);
    expect(e).toBeInstanceOf(GleanerNetworkError);
    expect(e).toMatchObject({ code: 'NETWORK_ERROR', status: 0, attempts: 3 });
    expect(e).toBeInstanceOf(GleanerError);
  });

  it('normalises enrichments_applied to enrichments', async () => {
    const fake: typeof fetch = async () =>
      new Response(
        JSON.stringify({
          success: true,
          data: { results: [] },
          metadata: { credits_used: 0.5, processing_time: 0, enrichments_applied: ['sentiment'] },
        }),
        { status: 200, headers: { 'x-credits-remaining': '9.5' } },
      );
    const r = await new Gleaner({ apiKey: 'k', fetch: fake }).analyze({
      texts: ['x'],
      enrich: ['sentiment'],
    });
    expect(r.enrichments).toEqual(['sentiment']);
    expect(r.metadata.enrichments).toEqual(['sentiment']);
    expect(r.creditsRemaining).toBe(9.5);
  });
});
