// Input that once answered 500: names of prototype members as custom topic labels and as URL
// parts, malformed percent-escapes in post URLs, bodies nested thousands of levels deep (with an
// Idempotency-Key, whose fingerprint walks the body), a declared charset other than UTF-8 and
// bytes that are not UTF-8. Each is a 4xx in the envelope, or a 200 where the input is valid.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENDPOINTS, MAX_BODY_DEPTH, MAX_BODY_VALUES } from '../../src/contract/endpoints.js';
import { createBuiltinEnricher } from '../../src/enrichment/engine/pool.js';
import { startApp, type TestApp } from '../support/app.js';
import { VALID_BODIES } from '../support/bodies.js';

const ADMIN_TOKEN = 'admin-token-0123456789';
const PROTOTYPE_NAMES = ['constructor', 'Constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

function expectEnvelope(r: { statusCode: number; json: () => any }, status: number, code: string) {
  expect(r.statusCode).toBe(status);
  const j = r.json();
  expect(j).toMatchObject({ success: false, error: { code }, metadata: { credits_used: 0 } });
  expect(typeof j.metadata.processing_time).toBe('number');
  return j;
}

let t: TestApp;
beforeAll(async () => {
  // the built-in analyzer: custom labels are looked up in its lexicons
  t = await startApp({
    credits: 100_000,
    enricher: createBuiltinEnricher({ threads: 1 }),
    env: { ADMIN_TOKEN },
  });
});
afterAll(async () => t.close());

describe('custom topic labels named like prototype members', () => {
  test.each(ENDPOINTS.map((e) => [e.id, e] as const))('%s', async (_id, e) => {
    for (const label of PROTOTYPE_NAMES) {
      const body = { ...VALID_BODIES[e.id], enrich: ['topics'], categories: { topic: [label, 'sports'] } };
      const r = await t.post(e.path, body);
      expect(r.statusCode, `${label}: ${r.body}`).toBe(200);
      const j = r.json();
      expect(j.success).toBe(true);
      // topics come only from the caller's list
      const topics = JSON.stringify(j.data).match(/"topics":\[[^\]]*\]/g) ?? [];
      expect(topics.length).toBeGreaterThan(0);
      for (const list of topics)
        for (const l of JSON.parse(list.slice('"topics":'.length)) as string[])
          expect([label, 'sports']).toContain(l);
    }
  });

  test('a label alone that names a prototype member is a label like any other', async () => {
    const r = await t.post('/ml/analyze', {
      texts: ['call the constructor of the class, then toString it', 'what a goal in the final'],
      enrich: ['topics'],
      categories: { topic: ['constructor', 'toString', '__proto__'] },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.results[0].enrichment.topics).toContain('constructor');
    expect(r.json().data.results[1].enrichment.topics).toEqual([]);
  });
});

describe('post URLs with malformed percent-escapes', () => {
  const bad = ['https://www.clipnet.com/%/video/7501921969951202327', 'https://x/%ff', 'x.com/p/%E0%A4%A/'];
  test.each(['/clipnet/comments', '/picnet/comments', '/vidnet/comments'])(
    '%s: 400 naming each',
    async (path) => {
      const good = VALID_BODIES[ENDPOINTS.find((e) => e.path === path)!.id].post_urls as string[];
      const r = await t.post(path, { post_urls: [good[0], ...bad] });
      const j = expectEnvelope(r, 400, 'BAD_REQUEST');
      expect(j.error.details.map((d: { field: string }) => d.field)).toEqual([
        'post_urls[1]',
        'post_urls[2]',
        'post_urls[3]',
      ]);
      expect(await t.balance()).toBeGreaterThan(0);
    },
  );
});

/** `{"a":{"a":…1…}}`, `levels` objects deep */
const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const nestedArrays = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

describe('deeply nested bodies', () => {
  const analyze = (extra: string) => `{"texts":["I love it"],"enrich":["sentiment"],${extra}}`;

  test('an unknown field 10,000 levels deep, with and without an Idempotency-Key: 400, charged nothing', async () => {
    const before = await t.balance();
    for (const deep of [nestedObjects(10_000), nestedArrays(10_000)])
      for (const headers of [{ 'idempotency-key': `deep-${deep[0]}` }, {} as Record<string, string>]) {
        const r = await t.post('/ml/analyze', analyze(`"extra":${deep}`), headers);
        const j = expectEnvelope(r, 400, 'BAD_REQUEST');
        expect(j.error.details).toEqual([
          { field: 'body', message: `nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep` },
        ]);
      }
    expect(await t.balance()).toBe(before);
  });

  test('a known field and the whole body deeply nested, on every endpoint: 400', async () => {
    for (const e of ENDPOINTS) {
      const field = Object.keys(VALID_BODIES[e.id])[0]!;
      for (const payload of [
        `{"${field}":${nestedArrays(100_000)}}`,
        nestedObjects(50_000),
        // within the 1 MiB limit, as deep as it gets
        '['.repeat(1024 * 1024 - 10),
      ]) {
        const r = await t.post(e.path, payload, { 'idempotency-key': `k-${e.id}` });
        expectEnvelope(r, 400, 'BAD_REQUEST');
      }
    }
  });

  test(`${MAX_BODY_DEPTH} levels are read; one more is refused`, async () => {
    // the body itself is the first level
    const at = await t.post('/ml/analyze', analyze(`"extra":${nestedObjects(MAX_BODY_DEPTH - 1)}`), {
      'idempotency-key': 'at-the-limit',
    });
    expect(at.body).not.toContain('levels deep');
    const over = await t.post('/ml/analyze', analyze(`"extra":${nestedObjects(MAX_BODY_DEPTH)}`));
    expect(over.json().error.details[0].message).toContain('levels deep');
    // brackets and braces inside strings are text, not nesting
    const text = await t.post('/ml/analyze', {
      texts: [`${'[{'.repeat(5000)} \\" \\\\" ]`],
      enrich: ['sentiment'],
    });
    expect(text.statusCode).toBe(200);
  });

  test(`more than ${MAX_BODY_VALUES.toLocaleString('en-US')} values: 400`, async () => {
    const many = `{"extra":[${'[],'.repeat(MAX_BODY_VALUES)}[]],"texts":["x"],"enrich":["sentiment"]}`;
    const j = expectEnvelope(await t.post('/ml/analyze', many), 400, 'BAD_REQUEST');
    expect(j.error.details[0].message).toContain('values');
  });

  test('the admin API refuses them too', async () => {
    const r = await t.inject({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: `{"name":"x","credits":1,"extra":${nestedArrays(10_000)}}`,
    });
    expectEnvelope(r, 400, 'BAD_REQUEST');
  });
});

describe('charset and encoding', () => {
  const body = JSON.stringify(VALID_BODIES['ml.analyze']);

  test('a declared charset other than UTF-8 is 415, on the API and the admin API', async () => {
    for (const ct of [
      'application/json; charset=latin1',
      'application/json; charset=ISO-8859-1',
      'application/json;charset="utf-16"',
      'application/json; charset=utf-8x',
    ]) {
      const r = await t.post('/ml/analyze', body, { 'content-type': ct });
      const j = expectEnvelope(r, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(j.error.message).toContain('UTF-8');
    }
    const admin = await t.inject({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json; charset=latin1' },
      payload: '{"name":"x","credits":1}',
    });
    expectEnvelope(admin, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('UTF-8, however it is written, is read', async () => {
    for (const ct of [
      'application/json; charset=utf-8',
      'application/json; charset=UTF-8',
      'application/json; charset=utf8',
      'application/json; charset="UTF8"',
      'application/json; foo=bar; charset=Utf-8',
    ]) {
      const r = await t.post('/ml/analyze', body, { 'content-type': ct });
      expect(r.statusCode, ct).toBe(200);
    }
  });

  test('bytes that are not UTF-8 are 400, never replaced and analyzed', async () => {
    const before = await t.balance();
    const send = (bytes: number[]) =>
      t.inject({
        method: 'POST',
        url: '/api/v1/ml/analyze',
        headers: { 'content-type': 'application/json', 'x-api-key': t.key },
        payload: Buffer.concat([
          Buffer.from('{"texts":["caf'),
          Buffer.from(bytes),
          Buffer.from('"],"enrich":["sentiment"]}'),
        ]),
      });
    // a Latin-1 é, a lone continuation byte, an overlong "/", an encoded surrogate, a cut sequence
    for (const bytes of [[0xe9], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const r = await send(bytes);
      const j = expectEnvelope(r, 400, 'BAD_REQUEST');
      expect(j.error.details).toEqual([{ field: 'body', message: 'is not valid UTF-8' }]);
    }
    expect(await t.balance()).toBe(before);
    const ok = await send([0xc3, 0xa9]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.results[0].text).toBe('café');
  });
});

describe('names of prototype members in URLs', () => {
  test('GET /docs/assets/<name>, unauthenticated: 404 in the envelope', async () => {
    for (const name of [...PROTOTYPE_NAMES, 'prototype', '%ff']) {
      const r = await t.inject({ method: 'GET', url: `/docs/assets/${name}` });
      expect(r.statusCode, name).toBe(name === '%ff' ? 400 : 404);
      expect(r.json().success).toBe(false);
      expect(r.headers['x-request-id']).toBeTruthy();
    }
  });

  test('unknown paths and admin key ids named like them: 404', async () => {
    for (const name of PROTOTYPE_NAMES) {
      expectEnvelope(await t.post(`/clipnet/${name}`, {}), 404, 'NOT_FOUND');
      const r = await t.inject({
        method: 'GET',
        url: `/admin/v1/keys/${name}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(r.statusCode, name).toBeLessThan(500);
      expect(r.json().success).toBe(false);
    }
  });
});
