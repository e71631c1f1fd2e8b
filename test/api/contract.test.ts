// Every endpoint answers its documented shape, under /api/v1 and the /api alias.
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Metadata, successEnvelope } from '../../src/contract/common.js';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { itemSchemas } from '../../src/contract/items.js';
import { startApp, type TestApp } from '../support/app.js';
import { ITEMS_KEY, VALID_BODIES } from '../support/bodies.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ credits: 100_000 });
});
afterAll(async () => t.close());

const refs = [...itemSchemas, Metadata];

describe.each(ENDPOINTS.map((e) => [e.id, e] as const))('%s', (_id, e) => {
  test('answers the documented success shape, with enrichment on every item', async () => {
    const body = { ...VALID_BODIES[e.id], enrich: ['sentiment', 'topics', 'intent', 'keywords'] };
    const r = await t.post(e.path, body);
    expect(r.statusCode, r.body).toBe(200);
    const json = r.json();
    const errors = [...Value.Errors(successEnvelope(e.data), refs, json)].map(
      (x) => `${x.path}: ${x.message}`,
    );
    expect(errors).toEqual([]);
    const items = json.data[ITEMS_KEY[e.id]] as Array<Record<string, unknown>>;
    expect(items.length).toBeGreaterThan(0);
    const flat =
      e.id === 'clipnet.bulk_posts' ? items.flatMap((u) => u.posts as Array<Record<string, unknown>>) : items;
    for (const item of flat)
      expect(Object.keys(item.enrichment as object).sort()).toEqual([
        'intent',
        'keywords',
        'sentiment',
        'sentiment_score',
        'topics',
      ]);
    expect(json.metadata.enrichments).toEqual(['sentiment', 'topics', 'intent', 'keywords']);
    expect(json.metadata.enrichments_applied).toEqual(json.metadata.enrichments);
    expect(typeof json.metadata.processing_time).toBe('number');
    expect(r.headers['x-request-id']).toMatch(/^req_/);
    expect(Number(r.headers['x-credits-used'])).toBe(json.metadata.credits_used);
    expect(Number(r.headers['x-credits-remaining'])).toBe(json.metadata.credits_remaining);
  });

  test('is served under the unversioned alias too', async () => {
    const r = await t.post(`/api${e.path}`, VALID_BODIES[e.id]);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().success).toBe(true);
  });

  // /ml/analyze requires `enrich` (or `analyses`): without it there is nothing to do
  test.skipIf(e.id === 'ml.analyze')(
    'without enrich, items carry no enrichment and metadata names none',
    async () => {
      const r = await t.post(e.path, VALID_BODIES[e.id]);
      const json = r.json();
      expect(JSON.stringify(json.data)).not.toContain('"enrichment"');
      expect(json.metadata.enrichments).toBeUndefined();
      expect(json.metadata.source).toBe('sandbox');
    },
  );
});

test('X-Request-Id echoes a sane caller id and replaces an unsafe one', async () => {
  const a = await t.post('/ml/analyze', VALID_BODIES['ml.analyze'], { 'x-request-id': 'client-123' });
  expect(a.headers['x-request-id']).toBe('client-123');
  const b = await t.post('/ml/analyze', VALID_BODIES['ml.analyze'], {
    'x-request-id': 'bad id\twith spaces',
  });
  expect(b.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
  const c = await t.inject({ method: 'GET', url: '/nowhere' });
  expect(c.headers['x-request-id']).toMatch(/^req_/);
});

test('a leading @ on usernames is stripped', async () => {
  const r = await t.post('/clipnet/posts', { username: '@alice', limit: 2 });
  expect(r.statusCode).toBe(200);
  expect(r.json().data.posts[0].url).toContain('@alice/');
  const b = await t.post('/clipnet/bulk/posts', { usernames: ['@bob'] });
  expect(b.json().data.users[0].username).toBe('bob');
});

test('analyze accepts `analyses` as an alias of `enrich` and keeps results nested', async () => {
  const texts = ['great stuff', 'ok'];
  const r = await t.post('/ml/analyze', { texts, analyses: ['sentiment', 'keywords'] });
  const viaEnrich = await t.post('/ml/analyze', { texts, enrich: ['sentiment', 'keywords'] });
  expect(r.statusCode).toBe(200);
  const results = r.json().data.results;
  expect(results.map((x: { text: string }) => x.text)).toEqual(texts);
  expect(results).toEqual(viaEnrich.json().data.results);
  expect(Object.keys(results[0].enrichment).sort()).toEqual(['keywords', 'sentiment', 'sentiment_score']);
  expect(results[0].sentiment).toBeUndefined();
  expect(r.json().metadata.credits_used).toBe(viaEnrich.json().metadata.credits_used);
});

test('an unknown field is a 400 naming it, with the field a typo most likely meant, and costs nothing', async () => {
  const before = await t.balance();
  const r = await t.post('/clipnet/posts', {
    username: 'alice',
    enrichment: ['sentiment'],
    limt: 5,
    whatever: 1,
  });
  expect(r.statusCode).toBe(400);
  const j = r.json();
  expect(j.error.code).toBe('BAD_REQUEST');
  expect(j.error.details).toEqual(
    expect.arrayContaining([
      { field: 'enrichment', message: 'is not a field of this request; did you mean `enrich`?' },
      { field: 'limt', message: 'is not a field of this request; did you mean `limit`?' },
      { field: 'whatever', message: 'is not a field of this request' },
    ]),
  );
  const nested = await t.post('/ml/analyze', {
    texts: ['x'],
    enrich: ['topics'],
    categories: { topics: ['a'] },
  });
  expect(nested.statusCode).toBe(400);
  expect(nested.json().error.details).toEqual([
    { field: 'categories.topics', message: 'is not a field of this request; did you mean `topic`?' },
  ]);
  expect(j.metadata.credits_used).toBe(0);
  expect(await t.balance()).toBe(before);
});

test('defaults of the spec apply', async () => {
  const r = await t.post('/clipnet/posts', { username: 'alice' });
  expect(r.json().data.posts).toHaveLength(10);
  const c = await t.post('/clipnet/comments', { post_urls: ['7123456789012345678'] });
  // the fake has 30 comments per post; the default limit is 50
  expect(c.json().data.comments).toHaveLength(30);
  const h = await t.post('/clipnet/hashtag/posts', { hashtags: ['fun'] });
  expect(h.json().data.days).toBe(7);
});

test('the OpenAPI document is served and lists every endpoint', async () => {
  const r = await t.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(r.statusCode).toBe(200);
  const doc = r.json();
  expect(doc.openapi).toBe('3.1.0');
  for (const e of ENDPOINTS) expect(doc.paths[`/api/v1${e.path}`]?.post).toBeDefined();
});

test('health and readiness', async () => {
  expect((await t.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
  expect((await t.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
});
