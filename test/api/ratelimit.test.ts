// Per-key rate limits and the per-address limit of failed authentications: headers, 429s that
// cost nothing, and counters shared by instances through Redis and through PostgreSQL.
import { afterEach, describe, expect, test } from 'vitest';
import { openPostgresLedger } from '../../src/billing/ledger/postgres.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { fakeSources } from '../helpers/fakes.js';
import { createTestDatabase, type TestDatabase } from '../reliability/lib/pg.js';
import { REDIS_MISSING, REDIS_TEST_URL } from '../support/redis.js';

const apps: TestApp[] = [];
let db: TestDatabase | undefined;
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  await db?.drop();
  db = undefined;
});

async function app(env: Record<string, string>, opts: Parameters<typeof startApp>[0] = {}) {
  const a = await startApp({ credits: 100, ...opts, env });
  apps.push(a);
  return a;
}

const body = { texts: ['I love it'], enrich: ['sentiment'] };

test('requests per window: headers on every response, 429 with Retry-After, nothing charged', async () => {
  const t = await app({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
  const rs = [];
  for (let i = 0; i < 4; i++) rs.push(await t.post('/ml/analyze', body));
  expect(rs.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
  for (const r of rs) expect(r.headers['ratelimit-policy']).toBe('"requests";q=3;w=60');
  expect(rs.map((r) => String(r.headers.ratelimit).replace(/;t=\d+/, ''))).toEqual([
    '"requests";r=2',
    '"requests";r=1',
    '"requests";r=0',
    '"requests";r=0',
  ]);
  const limited = rs[3]!;
  expect(limited.json()).toMatchObject({
    success: false,
    error: { code: 'RATE_LIMITED' },
    metadata: { credits_used: 0 },
  });
  const retry = Number(limited.headers['retry-after']);
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(60);
  expect(await t.balance()).toBe(98.5);
  // an error response of an admitted call carries the headers too, and another key has its own budget
  const other = await t.newKey(10);
  const bad = await t.post('/ml/analyze', { texts: [] }, { 'x-api-key': other.key });
  expect(bad.statusCode).toBe(400);
  expect(bad.headers.ratelimit).toMatch(/^"requests";r=2;t=\d+$/);
});

test('concurrent requests per key: the one over the limit is 429 and costs nothing', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const t = await app(
    { RATE_LIMIT_CONCURRENCY: '1' },
    {
      sources: fakeSources({
        kind: 'live',
        onCall: (_op, target) => (target === 'alice' ? gate : undefined),
      }),
    },
  );
  const first = t.post('/clipnet/posts', { username: 'alice', limit: 2 });
  await new Promise((r) => setTimeout(r, 50));
  const second = await t.post('/clipnet/posts', { username: 'bob', limit: 2 });
  expect(second.statusCode).toBe(429);
  expect(second.headers['ratelimit-policy']).toBe('"concurrency";q=1;qu="concurrent-requests"');
  expect(second.headers['retry-after']).toBe('1');
  release();
  expect((await first).statusCode).toBe(200);
  const third = await t.post('/clipnet/posts', { username: 'bob', limit: 2 });
  expect(third.statusCode).toBe(200);
  expect(await t.balance()).toBe(100 - 3 - 3);
});

test('failed authentications are limited per client address', async () => {
  const t = await app({ AUTH_FAILURE_LIMIT: '3' });
  const from = (address: string, key: string) =>
    t.inject({
      method: 'POST',
      url: '/api/v1/ml/analyze',
      remoteAddress: address,
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      payload: JSON.stringify(body),
    });
  const codes = [];
  for (let i = 0; i < 5; i++) codes.push((await from('10.0.0.7', `gl_guess${i}`)).statusCode);
  expect(codes).toEqual([401, 401, 401, 429, 429]);
  // even the right key is refused from that address until the minute is over
  const blocked = await from('10.0.0.7', t.key);
  expect(blocked.statusCode).toBe(429);
  expect(blocked.json().error.code).toBe('RATE_LIMITED');
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  expect((await from('10.0.0.8', t.key)).statusCode).toBe(200);
});

describe('shared by several instances', () => {
  test.skipIf(REDIS_MISSING)('through Redis', async () => {
    const env = { REDIS_URL: REDIS_TEST_URL, RATE_LIMIT_REQUESTS: '4' };
    const a = await app(env);
    const b = await app(env, { ledger: a.ledger });
    const shared = await a.newKey(100);
    const codes = [];
    for (const x of [a, b, a, b, a, b])
      codes.push((await x.post('/ml/analyze', body, { 'x-api-key': shared.key })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
  });

  test('through PostgreSQL', async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, RATE_LIMIT_REQUESTS: '4', RATE_LIMIT_CONCURRENCY: '50' };
    const a = await app(env, { ledger: await openPostgresLedger(db.url, { poolSize: 4 }) });
    const b = await app(env, { ledger: await openPostgresLedger(db.url, { poolSize: 4 }) });
    const shared = await a.newKey(100);
    const codes = [];
    for (const x of [a, b, a, b, a, b])
      codes.push((await x.post('/ml/analyze', body, { 'x-api-key': shared.key })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
    expect(await a.balance(shared.id)).toBe(98);
  });
});

test('the limits are off by default: no RateLimit headers', async () => {
  const t = await app({});
  const r = await t.post('/ml/analyze', body);
  expect(r.statusCode).toBe(200);
  expect(r.headers.ratelimit).toBeUndefined();
  expect(r.headers['ratelimit-policy']).toBeUndefined();
});
