// The body limits, as the docs and the OpenAPI document state them: 1 MiB on every route, and on
// /ml/analyze what its largest valid request needs (100 texts of 100,000 characters, each
// character up to 4 bytes of UTF-8). The largest valid request is measured here: it succeeds.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ANALYZE_BODY_LIMIT, DEFAULT_BODY_LIMIT, ENDPOINTS } from '../../src/contract/endpoints.js';
import { buildOpenApi } from '../../src/contract/openapi.js';
import { createBuiltinEnricher } from '../../src/enrichment/engine/pool.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({
    credits: 10_000,
    enricher: createBuiltinEnricher({ threads: 1 }),
    env: { ADMIN_TOKEN: 'admin-token-0123456789' },
  });
});
afterAll(async () => t.close());

/** a text of `n` characters, each 4 bytes of UTF-8 (the most a character takes) */
const wide = (n: number, i: number) => `${String.fromCodePoint(0x1f600 + (i % 64)).repeat(n)}`;

test('/ml/analyze: 100 texts of 100,000 four-byte characters (the largest valid request) succeed', async () => {
  const texts = Array.from({ length: 100 }, (_, i) => wide(100_000, i));
  const payload = JSON.stringify({ texts, enrich: ['sentiment', 'topics', 'intent', 'keywords'] });
  expect(Buffer.byteLength(payload)).toBeGreaterThan(40_000_000);
  expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(ANALYZE_BODY_LIMIT);
  const r = await t.post('/ml/analyze', payload);
  expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
  const j = r.json();
  expect(j.data.results).toHaveLength(100);
  expect(j.data.results[99].text).toBe(texts[99]);
  expect(j.metadata.credits_used).toBe(300);
  expect(await t.balance()).toBe(10_000 - 300);
}, 120_000);

test('/ml/analyze: a text of 100,001 characters is 400; a body over 40 MiB is 413, naming the limit', async () => {
  const long = await t.post('/ml/analyze', { texts: ['ok', wide(100_001, 0)], enrich: ['sentiment'] });
  expect(long.statusCode).toBe(400);
  expect(long.json().error.details[0].field).toBe('texts[1]');
  const big = await t.post('/ml/analyze', `{"texts":["${'x'.repeat(ANALYZE_BODY_LIMIT)}"]}`);
  expect(big.statusCode).toBe(413);
  expect(big.json()).toMatchObject({
    success: false,
    error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 40 MiB' },
    metadata: { credits_used: 0 },
  });
});

test('every other route, the admin API included, keeps 1 MiB', async () => {
  const pad = 'x'.repeat(DEFAULT_BODY_LIMIT);
  for (const e of ENDPOINTS.filter((x) => x.id !== 'ml.analyze')) {
    const r = await t.post(e.path, { pad });
    expect(r.statusCode, e.path).toBe(413);
    expect(r.json().error.message).toBe('Request body is larger than 1 MiB');
  }
  const admin = await t.inject({
    method: 'POST',
    url: '/admin/v1/keys',
    headers: { authorization: 'Bearer admin-token-0123456789', 'content-type': 'application/json' },
    payload: JSON.stringify({ name: pad, credits: 1 }),
  });
  expect(admin.statusCode).toBe(413);
  expect(await t.balance()).toBe(10_000 - 300);
});

test('the OpenAPI document states each limit and its 413', () => {
  const doc = buildOpenApi() as any;
  for (const e of ENDPOINTS) {
    const op = doc.paths[`/api/v1${e.path}`].post;
    const limit = e.id === 'ml.analyze' ? ANALYZE_BODY_LIMIT : DEFAULT_BODY_LIMIT;
    expect(op['x-body-limit']).toBe(limit);
    const mib = `${limit / 1024 / 1024} MiB`;
    expect(op.description).toContain(mib);
    expect(op.responses['413'].content['application/json'].example.error.message).toBe(
      `Request body is larger than ${mib}`,
    );
  }
});
