// Every error status and code of the decisions, in the error envelope, costing nothing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EnrichmentError } from '../../src/enrichment/interface.js';
import { SourceError } from '../../src/sources/interface.js';
import { startApp, type TestApp } from '../support/app.js';
import { VALID_BODIES } from '../support/bodies.js';
import { fakeEnricher, fakeSources } from '../support/fakes.js';

function expectError(
  r: { statusCode: number; json: () => any; headers: Record<string, unknown> },
  status: number,
  code: string,
) {
  expect(r.statusCode).toBe(status);
  const j = r.json();
  expect(j.success).toBe(false);
  expect(j.error.code).toBe(code);
  expect(typeof j.error.message).toBe('string');
  expect(j.metadata.credits_used).toBe(0);
  expect(typeof j.metadata.processing_time).toBe('number');
  expect(j.data).toBeUndefined();
  expect(r.headers['x-request-id']).toBeTruthy();
  return j;
}

let t: TestApp;
beforeAll(async () => {
  const failures = new Map<string, SourceError>([
    ['broken', new SourceError('upstream', 'HTTP 500 from upstream with token=abc')],
    ['slow', new SourceError('timeout', 'timed out')],
    ['limited', new SourceError('throttled', 'rate limited', { retryAfterSeconds: 42 })],
    ['offline', new SourceError('unavailable', 'circuit open', { retryAfterSeconds: 7 })],
  ]);
  const sources = fakeSources({ failures });
  const original = sources.clipnet.userPosts.bind(sources.clipnet);
  sources.clipnet.userPosts = async (q, ctx) => {
    if (q.username === 'crash') throw new Error('secret internal detail');
    return original(q, ctx);
  };
  t = await startApp({ credits: 1000, sources });
});
afterAll(async () => t.close());

describe('authentication', () => {
  test('a missing key is 401 "API key is required"', async () => {
    const r = await t.inject({
      method: 'POST',
      url: '/api/v1/clipnet/posts',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":"alice"}',
    });
    expect(expectError(r, 401, 'UNAUTHORIZED').error.message).toBe('API key is required');
  });

  test('an unknown key is 401 "Invalid API key"', async () => {
    const r = await t.post('/clipnet/posts', { username: 'alice' }, { 'x-api-key': 'gl_notarealkey' });
    expect(expectError(r, 401, 'UNAUTHORIZED').error.message).toBe('Invalid API key');
  });

  test('a revoked key is an invalid key', async () => {
    const k = await t.newKey(10);
    expect((await t.post('/ml/analyze', VALID_BODIES['ml.analyze'], { 'x-api-key': k.key })).statusCode).toBe(
      200,
    );
    await t.ledger.revokeKey(k.id);
    const r = await t.post('/ml/analyze', VALID_BODIES['ml.analyze'], { 'x-api-key': k.key });
    expect(expectError(r, 401, 'UNAUTHORIZED').error.message).toBe('Invalid API key');
  });

  test('a key is checked before the body', async () => {
    const r = await t.inject({ method: 'POST', url: '/api/v1/clipnet/posts', payload: 'not json' });
    expectError(r, 401, 'UNAUTHORIZED');
  });
});

describe('transport', () => {
  test('unknown path is 404 NOT_FOUND', async () => {
    expectError(await t.post('/clipnet/nothing', {}), 404, 'NOT_FOUND');
    expectError(await t.inject({ method: 'GET', url: '/api/v2/clipnet/posts' }), 404, 'NOT_FOUND');
  });

  test('another method than POST on a known path is 405 with Allow', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
      const r = await t.inject({ method, url: '/api/v1/clipnet/posts', headers: { 'x-api-key': t.key } });
      expectError(r, 405, 'METHOD_NOT_ALLOWED');
      expect(r.headers.allow).toBe('POST');
    }
    expectError(await t.inject({ method: 'GET', url: '/api/picnet/comments' }), 405, 'METHOD_NOT_ALLOWED');
  });

  test('a body over 1 MiB is 413 (/ml/analyze has its own limit: body-limits.test.ts)', async () => {
    const r = await t.post('/clipnet/posts', { username: 'alice', pad: 'x'.repeat(1024 * 1024) });
    expect(expectError(r, 413, 'PAYLOAD_TOO_LARGE').error.message).toBe('Request body is larger than 1 MiB');
  });

  test('a missing or non-JSON Content-Type is 415', async () => {
    const body = JSON.stringify({ username: 'alice' });
    for (const ct of [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const headers: Record<string, string> = { 'x-api-key': t.key };
      if (ct) headers['content-type'] = ct;
      const r = await t.inject({ method: 'POST', url: '/api/v1/clipnet/posts', headers, payload: body });
      expectError(r, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const ok = await t.post('/clipnet/posts', body, { 'content-type': 'application/json; charset=utf-8' });
    expect(ok.statusCode).toBe(200);
  });

  test('a body that is not JSON is 400', async () => {
    for (const payload of ['{"username":', 'not json', '', '{"a":1}}']) {
      const j = expectError(await t.post('/clipnet/posts', payload), 400, 'BAD_REQUEST');
      expect(j.error.details.length).toBeGreaterThan(0);
    }
  });

  test('a JSON body that is not an object is 400', async () => {
    for (const payload of ['[]', '"x"', '42', 'null']) {
      const j = expectError(await t.post('/clipnet/posts', payload), 400, 'BAD_REQUEST');
      expect(j.error.details[0].field).toBe('body');
    }
  });

  test('__proto__ keys are rejected, never merged', async () => {
    const r = await t.post('/clipnet/posts', '{"username":"alice","__proto__":{"admin":true}}');
    expectError(r, 400, 'BAD_REQUEST');
    const c = await t.post('/clipnet/posts', '{"username":"alice","constructor":{"prototype":{"x":1}}}');
    expect([200, 400]).toContain(c.statusCode);
  });
});

describe('validation', () => {
  test('error.details lists every invalid field', async () => {
    const r = await t.post('/vidnet/search', {
      keywords: [],
      depth: 0,
      period: 'yesterday',
      sorting: 5,
      max_posts_per_keyword: 501,
      enrich: ['sentiment', 'mood'],
    });
    const j = expectError(r, 400, 'BAD_REQUEST');
    const fields = j.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['depth', 'enrich[1]', 'keywords', 'max_posts_per_keyword', 'period', 'sorting']);
  });

  test('a missing required field is named', async () => {
    const j = expectError(await t.post('/clipnet/posts', {}), 400, 'BAD_REQUEST');
    expect(j.error.details).toContainEqual({ field: 'username', message: 'is required' });
    const a = expectError(await t.post('/ml/analyze', { texts: ['x'] }), 400, 'BAD_REQUEST');
    expect(a.error.details[0].field).toBe('enrich');
  });

  test('wrong types are not coerced', async () => {
    const j = expectError(
      await t.post('/clipnet/posts', { username: 'alice', limit: '10' }),
      400,
      'BAD_REQUEST',
    );
    expect(j.error.details[0].field).toBe('limit');
    expectError(
      await t.post('/vidnet/hashtag/search', { hashtags: ['x'], only_shorts: 'true' }),
      400,
      'BAD_REQUEST',
    );
    expectError(await t.post('/clipnet/posts', { username: 'alice', limit: 1.5 }), 400, 'BAD_REQUEST');
  });

  test('an unknown llm_provider or enrichment type is 400', async () => {
    expectError(
      await t.post('/ml/analyze', { texts: ['x'], enrich: ['sentiment'], llm_provider: 'gpt-9' }),
      400,
      'BAD_REQUEST',
    );
    expectError(await t.post('/ml/analyze', { texts: ['x'], enrich: ['emotions'] }), 400, 'BAD_REQUEST');
  });

  test('a post URL from which no id can be read is 400 naming it', async () => {
    const r = await t.post('/vidnet/comments', {
      post_urls: ['AbCdEfGhIjK', 'https://example.com/nothing-here'],
    });
    const j = expectError(r, 400, 'BAD_REQUEST');
    expect(j.error.details).toEqual([
      { field: 'post_urls[1]', message: expect.stringContaining('no vidnet') },
    ]);
  });

  test('a malformed cursor is 400 on the cursor field', async () => {
    const j = expectError(
      await t.post('/clipnet/posts', { username: 'alice', cursor: 'garbage' }),
      400,
      'BAD_REQUEST',
    );
    expect(j.error.details[0].field).toBe('cursor');
  });
});

describe('targets', () => {
  test('an unknown user on a single-target call is 404 and costs nothing', async () => {
    const before = await t.balance();
    expectError(await t.post('/clipnet/posts', { username: 'nobody' }), 404, 'NOT_FOUND');
    expectError(await t.post('/picnet/posts', { username: 'nobody' }), 404, 'NOT_FOUND');
    expect(await t.balance()).toBe(before);
  });

  test('a multi-target call returns the others and warns about each missing target', async () => {
    const r = await t.post('/clipnet/comments', {
      post_urls: ['https://www.clipnet.com/@a/video/7123456789012345678', '9123456789012345678'],
      limit_per_post: 3,
    });
    expect(r.statusCode).toBe(200);
    const j = r.json();
    expect(j.data.comments).toHaveLength(3);
    expect(j.metadata.warnings).toEqual([
      { target: '9123456789012345678', code: 'NOT_FOUND', message: 'post not found' },
    ]);
    const b = await t.post('/clipnet/bulk/posts', {
      usernames: ['alice', 'nobody', 'broken'],
      limit_per_user: 1,
    });
    expect(b.statusCode).toBe(200);
    expect(b.json().data.users.map((u: { username: string }) => u.username)).toEqual(['alice']);
    expect(b.json().metadata.warnings.map((w: { code: string }) => w.code)).toEqual([
      'NOT_FOUND',
      'EXTERNAL_API_ERROR',
    ]);
  });

  test('when every target fails upstream the call fails and costs nothing', async () => {
    const before = await t.balance();
    expectError(
      await t.post('/clipnet/hashtag/posts', { hashtags: ['broken', 'slow'] }),
      502,
      'EXTERNAL_API_ERROR',
    );
    expect(await t.balance()).toBe(before);
  });
});

describe('upstream failures', () => {
  test.each([
    ['broken', 502, 'EXTERNAL_API_ERROR'],
    ['slow', 502, 'EXTERNAL_API_ERROR'],
    ['limited', 429, 'RATE_LIMITED'],
    ['offline', 503, 'SERVICE_UNAVAILABLE'],
  ])('%s → %i %s, costing nothing', async (user, status, code) => {
    const before = await t.balance();
    const r = await t.post('/clipnet/posts', { username: user });
    const j = expectError(r, status, code);
    expect(j.error.message).not.toContain('token=abc');
    if (status === 429) expect(r.headers['retry-after']).toBe('42');
    if (status === 503) expect(r.headers['retry-after']).toBe('7');
    expect(await t.balance()).toBe(before);
  });

  test('an unexpected failure is 500 without internals, naming the request id', async () => {
    const r = await t.post('/clipnet/posts', { username: 'crash' });
    const j = expectError(r, 500, 'INTERNAL_SERVER_ERROR');
    expect(j.error.message).not.toContain('secret');
    expect(j.error.message).toContain(r.headers['x-request-id'] as string);
  });
});

test('an enrichment backend failure is 502 and costs nothing', async () => {
  const t2 = await startApp({
    credits: 100,
    enricher: fakeEnricher({ local: false, fail: new EnrichmentError('upstream', 'LLM said 500') }),
  });
  try {
    expectError(
      await t2.post('/ml/analyze', { texts: ['x'], enrich: ['sentiment'] }),
      502,
      'EXTERNAL_API_ERROR',
    );
    expectError(
      await t2.post('/clipnet/posts', { username: 'alice', enrich: ['topics'] }),
      502,
      'EXTERNAL_API_ERROR',
    );
    expect(await t2.balance()).toBe(100);
    const r = await t2.ledger.reconcile();
    expect(r.problems).toEqual([]);
    expect(r.openHolds).toBe(0);
  } finally {
    await t2.close();
  }
});
