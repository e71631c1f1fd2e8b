// Caches: a repeated call does not reach the platform or the analyzer again, yet is billed as
// usual; the sandbox is never cached; with Redis the cache is shared by instances.
import { randomBytes } from 'node:crypto';
import { afterEach, expect, test } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { fakeEnricher, fakeSources } from '../support/fakes.js';
import { REDIS_MISSING, REDIS_TEST_URL } from '../support/redis.js';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

async function app(opts: Parameters<typeof startApp>[0]) {
  const a = await startApp(opts);
  apps.push(a);
  return a;
}

test('a repeated live call is served from the cache, and billed each time', async () => {
  const sources = fakeSources({ kind: 'live' });
  const t = await app({ credits: 100, sources });
  const a = await t.post('/clipnet/posts', { username: 'alice', limit: 3 });
  const b = await t.post('/clipnet/posts', { username: '@alice', limit: 3 });
  expect(a.json().data).toEqual(b.json().data);
  expect(sources.calls).toEqual(['userPosts:alice']);
  expect(b.json().metadata.credits_used).toBe(4);
  expect(await t.balance()).toBe(92);
  // another shape is another entry
  await t.post('/clipnet/posts', { username: 'alice', limit: 4 });
  expect(sources.calls).toHaveLength(2);
  expect((await t.ledger.reconcile()).problems).toEqual([]);
});

test('failures are not cached, the sandbox is not cached, and CACHE_TTL_SECONDS=0 turns it off', async () => {
  let fail = true;
  const live = fakeSources({
    kind: 'live',
    onCall: () => {
      if (fail) throw new Error('boom');
    },
  });
  const t = await app({ credits: 100, sources: live });
  expect((await t.post('/clipnet/posts', { username: 'bob', limit: 2 })).statusCode).toBe(500);
  fail = false;
  expect((await t.post('/clipnet/posts', { username: 'bob', limit: 2 })).statusCode).toBe(200);
  expect(live.calls).toHaveLength(2);

  const sandbox = fakeSources({ kind: 'sandbox' });
  const s = await app({ credits: 100, sources: sandbox });
  await s.post('/clipnet/posts', { username: 'bob', limit: 2 });
  await s.post('/clipnet/posts', { username: 'bob', limit: 2 });
  expect(sandbox.calls).toHaveLength(2);

  const off = fakeSources({ kind: 'live' });
  const o = await app({ credits: 100, sources: off, env: { CACHE_TTL_SECONDS: '0' } });
  await o.post('/clipnet/posts', { username: 'bob', limit: 2 });
  await o.post('/clipnet/posts', { username: 'bob', limit: 2 });
  expect(off.calls).toHaveLength(2);
});

test('enrichment results are cached per text: only new texts reach the analyzer', async () => {
  const enricher = fakeEnricher();
  const t = await app({ credits: 100, enricher });
  const a = await t.post('/ml/analyze', { texts: ['I love it', 'meh'], enrich: ['sentiment', 'topics'] });
  const b = await t.post('/ml/analyze', {
    texts: ['meh', 'great stuff', 'I love it'],
    enrich: ['sentiment', 'topics'],
  });
  expect(enricher.requests.map((r) => r.texts)).toEqual([['I love it', 'meh'], ['great stuff']]);
  expect(b.json().data.results[0].enrichment).toEqual(a.json().data.results[1].enrichment);
  expect(b.json().data.results[2].enrichment).toEqual(a.json().data.results[0].enrichment);
  expect(b.json().metadata.credits_used).toBe(4.5);
  // other types, categories or provider are other entries
  await t.post('/ml/analyze', { texts: ['meh'], enrich: ['sentiment'] });
  await t.post('/ml/analyze', {
    texts: ['meh'],
    enrich: ['sentiment', 'topics'],
    llm_provider: 'model-1.5-pro',
  });
  await t.post('/ml/analyze', {
    texts: ['meh'],
    enrich: ['sentiment', 'topics'],
    categories: { topic: ['x'] },
  });
  expect(enricher.requests).toHaveLength(5);
  expect(await t.balance()).toBe(100 - 3 - 4.5 - 0.5 - 1.5 - 1.5);
});

test.skipIf(REDIS_MISSING)('with REDIS_URL the caches are shared by instances', async () => {
  const env = { REDIS_URL: REDIS_TEST_URL };
  const tag = `tag${randomBytes(6).toString('hex')}`;
  const sa = fakeSources({ kind: 'live' });
  const sb = fakeSources({ kind: 'live' });
  const ea = fakeEnricher();
  const eb = fakeEnricher();
  const a = await app({ credits: 100, env, sources: sa, enricher: ea });
  const b = await app({ credits: 100, env, sources: sb, enricher: eb });
  const body = { hashtags: [tag], max_posts_per_hashtag: 3 };
  const ra = await a.post('/clipnet/hashtag/posts', body);
  const rb = await b.post('/clipnet/hashtag/posts', body);
  expect(rb.json().data).toEqual(ra.json().data);
  expect(sa.calls).toHaveLength(1);
  expect(sb.calls).toHaveLength(0);
  await a.post('/ml/analyze', { texts: [tag], enrich: ['keywords'] });
  await b.post('/ml/analyze', { texts: [tag], enrich: ['keywords'] });
  expect(ea.requests).toHaveLength(1);
  expect(eb.requests).toHaveLength(0);
  expect(await b.balance()).toBe(100 - 5 - 0.5);
});
