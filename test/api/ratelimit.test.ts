// Per-key rate limits and the per-address limit of failed authentications: headers, 429s that
// cost nothing, and counters shared by instances through Redis and through PostgreSQL.
import { afterEach, describe, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../scripts/lib/pg.js';
import { openPostgresLedger } from '../../src/billing/ledger/postgres/ledger.js';
import { startApp, type TestApp } from '../support/app.js';
import { fakeSources } from '../support/fakes.js';
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

/** a client address no other test or run uses (Redis counters outlive the test) */
const address = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

describe.each(['memory', 'redis', 'postgres'] as const)('failed authentications on the %s store', (store) => {
  async function limited(limit: number, extra: Record<string, string> = {}) {
    const env: Record<string, string> = { AUTH_FAILURE_LIMIT: String(limit), ...extra };
    if (store === 'redis') env.REDIS_URL = 'redis://127.0.0.1:6379';
    if (store === 'postgres') {
      db = await createTestDatabase();
      const t = await app(
        { ...env, DATABASE_URL: db.url },
        { ledger: await openPostgresLedger(db.url, { poolSize: 4 }) },
      );
      expect(t.services.rateLimiter.store?.kind).toBe('postgres');
      return t;
    }
    const t = await app(env);
    expect(t.services.rateLimiter.store?.kind).toBe(store);
    return t;
  }

  test('are limited per client address; a valid key from that address is always served', async () => {
    const t = await limited(30);
    const from = (ip: string, key: string) =>
      t.inject({
        method: 'POST',
        url: '/api/v1/ml/analyze',
        remoteAddress: ip,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        payload: JSON.stringify(body),
      });
    const nat = address();
    const codes = [];
    for (let i = 0; i < 35; i++) codes.push((await from(nat, `gl_guess${i}`)).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 401)).toBe(true);
    expect(codes.slice(30)).toEqual([429, 429, 429, 429, 429]);
    // the same address: a missing or wrong key is still refused…
    const blocked = await from(nat, 'gl_guess-again');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMITED' },
      metadata: { credits_used: 0 },
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // …while every tenant behind it with a valid key is served, and charged as usual
    const other = await t.newKey(10);
    for (const key of [t.key, other.key, t.key]) {
      const r = await from(nat, key);
      expect(r.statusCode).toBe(200);
      expect(r.json().metadata.credits_used).toBe(0.5);
    }
    expect(await t.balance()).toBe(99);
    expect(await t.balance(other.id)).toBe(9.5);
    // another address was never limited
    expect((await from(address(), 'gl_wrong')).statusCode).toBe(401);
  });

  test('failed admin and metrics tokens count too; the right token is always served', async () => {
    const t = await limited(3, {
      ADMIN_TOKEN: 'admin-token-0123456789',
      METRICS_TOKEN: 'metrics-token-0123456789',
    });
    const get = (url: string, token: string, ip: string) =>
      t.inject({ method: 'GET', url, remoteAddress: ip, headers: { authorization: `Bearer ${token}` } });
    for (const url of ['/admin/v1/keys', '/metrics']) {
      const right = url === '/metrics' ? 'metrics-token-0123456789' : 'admin-token-0123456789';
      const ip = address();
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push((await get(url, `wrong-token-${i}-0000000000`, ip)).statusCode);
      expect(codes).toEqual([401, 401, 401, 429, 429]);
      const r = await t.inject({ method: 'GET', url, remoteAddress: ip });
      expect(r.statusCode).toBe(429);
      expect(r.json().error.code).toBe('RATE_LIMITED');
      expect((await get(url, right, ip)).statusCode).toBe(200);
    }
    // one counter per address, whatever was guessed: API keys after admin tokens are limited at once
    const ip = address();
    for (let i = 0; i < 3; i++)
      expect((await get('/admin/v1/keys', `wrong-${i}-00000000000000`, ip)).statusCode).toBe(401);
    const key = await t.inject({
      method: 'POST',
      url: '/api/v1/ml/analyze',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', 'x-api-key': 'gl_wrong' },
      payload: JSON.stringify(body),
    });
    expect(key.statusCode).toBe(429);
  });
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

test('with every limit off, no counter store is opened and failed keys are never turned into 429', async () => {
  const t = await app({ AUTH_FAILURE_LIMIT: '0' });
  expect(t.services.rateLimiter.store).toBeNull();
  const ip = address();
  const codes = [];
  for (let i = 0; i < 40; i++)
    codes.push(
      (
        await t.inject({
          method: 'POST',
          url: '/api/v1/ml/analyze',
          remoteAddress: ip,
          headers: { 'content-type': 'application/json', 'x-api-key': `gl_guess${i}` },
          payload: JSON.stringify(body),
        })
      ).statusCode,
    );
  expect(new Set(codes)).toEqual(new Set([401]));
  const ok = await t.post('/ml/analyze', body);
  expect(ok.statusCode).toBe(200);
  expect(ok.headers['ratelimit-policy']).toBeUndefined();
});
