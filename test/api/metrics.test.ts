// GET /metrics: Prometheus text with requests by route and status, latency, credits, upstream
// calls by backend and outcome, cache hits, enrichment texts; optionally behind a token.
import { afterEach, expect, test } from 'vitest';
import { SourceError } from '../../src/sources/interface.js';
import { startApp, type TestApp } from '../support/app.js';
import { fakeSources } from '../support/fakes.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : Number.NaN;
}

test('requests, latency, credits, upstream calls and failures, cache and enrichment figures', async () => {
  t = await startApp({
    credits: 100,
    sources: fakeSources({
      kind: 'live',
      failures: new Map([['broken', new SourceError('timeout', 'slow')]]),
    }),
  });
  await t.post('/clipnet/posts', { username: 'alice', limit: 2 });
  await t.post('/clipnet/posts', { username: 'alice', limit: 2 });
  await t.post('/clipnet/posts', { username: 'broken', limit: 2 });
  await t.post('/ml/analyze', { texts: ['I love it', 'meh'], enrich: ['sentiment'] });
  await t.post('/ml/analyze', { texts: ['I love it'], enrich: ['sentiment'] });
  await t.post('/nope', {});
  const r = await t.inject({ method: 'GET', url: '/metrics' });
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toMatch(/^text\/plain/);
  const m = r.body;
  expect(
    value(m, 'gleaner_http_requests_total{route="/api/v1/clipnet/posts",method="POST",status="200"}'),
  ).toBe(2);
  expect(
    value(m, 'gleaner_http_requests_total{route="/api/v1/clipnet/posts",method="POST",status="502"}'),
  ).toBe(1);
  expect(value(m, 'gleaner_http_requests_total{route="(unmatched)",method="POST",status="404"}')).toBe(1);
  expect(m).toContain(
    'gleaner_http_request_duration_seconds_bucket{le="0.001",route="/api/v1/clipnet/posts"',
  );
  const posts200 = 'route="/api/v1/clipnet/posts",method="POST",status="200"';
  expect(value(m, `gleaner_http_request_duration_seconds_count{${posts200}}`)).toBe(2);
  expect(value(m, `gleaner_http_request_duration_seconds_bucket{le="+Inf",${posts200}}`)).toBe(2);
  expect(value(m, `gleaner_http_request_duration_seconds_bucket{le="60",${posts200}}`)).toBe(2);
  expect(value(m, `gleaner_http_request_duration_seconds_sum{${posts200}}`)).toBeGreaterThan(0);
  // 3 + 3 for the posts, 0.5 × 3 texts
  expect(value(m, 'gleaner_credits_charged_total{route="/api/v1/clipnet/posts"}')).toBe(6);
  expect(value(m, 'gleaner_credits_charged_total{route="/api/v1/ml/analyze"}')).toBe(1.5);
  // the second identical call was served from the cache: one upstream call, one hit
  expect(
    value(
      m,
      'gleaner_upstream_calls_total{platform="clipnet",backend="fake",operation="userPosts",outcome="ok"}',
    ),
  ).toBe(1);
  expect(
    value(
      m,
      'gleaner_upstream_calls_total{platform="clipnet",backend="fake",operation="userPosts",outcome="timeout"}',
    ),
  ).toBe(1);
  expect(value(m, 'gleaner_cache_requests_total{cache="source",result="hit"}')).toBe(1);
  expect(value(m, 'gleaner_cache_requests_total{cache="enrichment",result="hit"}')).toBe(1);
  expect(value(m, 'gleaner_enrichment_texts_total{provider="model-2.0-flash",outcome="ok"}')).toBe(2);
  expect(value(m, 'gleaner_holds_open')).toBe(0);
});

test("the built-in analyzer's busy time: positive, and never more than the batches' wall time", async () => {
  t = await startApp({ enricher: 'built-in', env: { ENRICH_THREADS: '1' } });
  const texts = ['I love it', 'where can I buy this?', 'my order never arrived, so annoyed'];
  expect((await t.post('/ml/analyze', { texts, enrich: ['sentiment', 'intent'] })).statusCode).toBe(200);
  const m = (await t.inject({ method: 'GET', url: '/metrics' })).body;
  const flash = '{provider="model-2.0-flash"}';
  const busy = value(m, `gleaner_enrichment_busy_seconds_total${flash}`);
  expect(busy).toBeGreaterThan(0);
  expect(busy).toBeLessThanOrEqual(value(m, `gleaner_enrichment_duration_seconds_sum${flash}`));
  expect(value(m, 'gleaner_enrichment_texts_total{provider="model-2.0-flash",outcome="ok"}')).toBe(3);
});

test('with METRICS_TOKEN, /metrics needs it', async () => {
  t = await startApp({ env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
  expect((await t.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
  const wrong = await t.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
  expect(wrong.json().error.code).toBe('UNAUTHORIZED');
  const ok = await t.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: 'Bearer metrics-token-0123456789' },
  });
  expect(ok.statusCode).toBe(200);
  expect(ok.body).toContain('gleaner_http_requests_total');
});
