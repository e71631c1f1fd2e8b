// Fuzzing the input classes that once answered 500, through HTTP on the real app (the reliability
// suite fuzzes every field on real processes; this runs with every test run): names of prototype
// members as topic labels and URL parts, malformed percent-escapes in post URLs, bodies nested
// far deeper than the limit (with and without an Idempotency-Key), charsets, and bytes that are
// not UTF-8. Never a 5xx; every reply in its envelope; nothing charged for a 4xx.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { createBuiltinEnricher } from '../../src/enrichment/engine/pool.js';
import { startApp, type TestApp } from '../support/app.js';
import { VALID_BODIES } from '../support/bodies.js';

const ADMIN_TOKEN = 'admin-token-0123456789';
const PROTOTYPE_NAMES = [
  'constructor',
  'Constructor',
  'toString',
  '__proto__',
  'prototype',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
];

let t: TestApp;
beforeAll(async () => {
  t = await startApp({
    credits: 1_000_000,
    enricher: createBuiltinEnricher({ threads: 1 }),
    env: { ADMIN_TOKEN, AUTH_FAILURE_LIMIT: '0' },
  });
});
afterAll(async () => t.close());

const protoName = fc.constantFrom(...PROTOTYPE_NAMES);
const label = fc.oneof(protoName, fc.string({ minLength: 1, maxLength: 30 }));
const badEscape = fc.constantFrom('%', '%f', '%ff', '%E0%A4%A', '%C0%AF', '%ED%A0%80', '%%', '%zz');
const postUrl = fc.oneof(
  fc
    .tuple(badEscape, fc.constantFrom('https://www.clipnet.com/', 'https://x/', 'vidnet.be/', ''))
    .map(([e, host]) => `${host}${e}/video/7501921969951202327`),
  fc.tuple(fc.constantFrom('https://www.picnet.com/p/', 'https://x/', ''), badEscape).map(([h, e]) => h + e),
  protoName,
  fc.webUrl(),
);
/** a JSON text nested `depth` levels, of objects or arrays */
const nested = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('{"a":', '['), fc.boolean())
  .map(([depth, open, closed]) => {
    const close = open === '[' ? ']' : '}';
    return `${open.repeat(depth)}1${closed ? close.repeat(depth) : ''}`;
  });
const charset = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF8',
  'application/json; charset="utf-8"',
  'application/json; charset=latin1',
  'application/json; charset=iso-8859-1',
  'application/json; charset=utf-16',
  'application/json; charset=',
  'application/json; charset',
);
const notUtf8 = fc.constantFrom(
  [0xff],
  [0xe9],
  [0x80],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf8, 0x88],
);

const request = fc.record({
  endpoint: fc.constantFrom(...ENDPOINTS),
  kind: fc.constantFrom('topics', 'urls', 'deep', 'charset', 'bytes', 'path'),
  labels: fc.array(label, { minLength: 1, maxLength: 5 }),
  urls: fc.array(postUrl, { minLength: 1, maxLength: 4 }),
  deep: nested,
  deepField: fc.oneof(protoName, fc.constantFrom('extra', 'categories', 'texts', 'post_urls', 'username')),
  contentType: charset,
  bytes: notUtf8,
  name: fc.oneof(protoName, fc.string({ maxLength: 20 })),
  pathKind: fc.constantFrom('docs', 'api', 'admin', 'adminKey'),
  idempotent: fc.boolean(),
});

test('never a 5xx, always the envelope, nothing charged by a 4xx', async () => {
  let balance = await t.balance();
  await fc.assert(
    fc.asyncProperty(request, async (q) => {
      const valid = VALID_BODIES[q.endpoint.id];
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': t.key };
      if (q.idempotent) headers['idempotency-key'] = randomUUID();
      let method: 'GET' | 'POST' = 'POST';
      let url = `/api/v1${q.endpoint.path}`;
      let payload: string | Buffer | undefined;
      if (q.kind === 'topics')
        payload = JSON.stringify({ ...valid, enrich: ['topics'], categories: { topic: q.labels } });
      else if (q.kind === 'urls') payload = JSON.stringify({ ...valid, post_urls: q.urls });
      else if (q.kind === 'deep') {
        const json = JSON.stringify(valid);
        payload = `${json.slice(0, -1)},${JSON.stringify(q.deepField)}:${q.deep}}`;
      } else if (q.kind === 'charset') {
        headers['content-type'] = q.contentType;
        payload = JSON.stringify(valid);
      } else if (q.kind === 'bytes') {
        const json = JSON.stringify({ ...valid, texts: ['x'], username: 'x' });
        const at = json.indexOf('"x"') + 2;
        payload = Buffer.concat([
          Buffer.from(json.slice(0, at)),
          Buffer.from(q.bytes),
          Buffer.from(json.slice(at)),
        ]);
      } else {
        method = q.pathKind === 'adminKey' ? 'GET' : q.pathKind === 'docs' ? 'GET' : 'POST';
        const name = encodeURIComponent(q.name);
        url =
          q.pathKind === 'docs'
            ? `/docs/assets/${name}`
            : q.pathKind === 'api'
              ? `/api/v1/${name}`
              : q.pathKind === 'admin'
                ? `/admin/v1/${name}`
                : `/admin/v1/keys/${name}`;
        if (q.pathKind !== 'api') headers.authorization = `Bearer ${ADMIN_TOKEN}`;
        payload = method === 'POST' ? JSON.stringify(valid) : undefined;
      }
      const r = await t.inject({ method, url, headers, payload });
      if (r.statusCode >= 500)
        throw new Error(`${r.statusCode} for ${method} ${url} ${String(payload).slice(0, 200)}: ${r.body}`);
      expect(r.headers['x-request-id']).toBeTruthy();
      const ok = r.statusCode < 300;
      const isDocsAsset = ok && url.startsWith('/docs/');
      if (isDocsAsset) return;
      const j = r.json();
      if (!ok) {
        expect(j).toMatchObject({
          success: false,
          error: { code: expect.any(String) },
          metadata: { credits_used: 0 },
        });
        expect(await t.balance()).toBe(balance);
      } else if (url.startsWith('/api/')) {
        expect(j.success).toBe(true);
        expect(typeof j.metadata.credits_used).toBe('number');
        balance = await t.balance();
      }
    }),
    { numRuns: 300, endOnFailure: true },
  );
}, 120_000);
