// Every bound of the spec, on both sides of its limit, read from the contract schemas so that
// a bound changed there is tested here.
import type { TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { startApp, type TestApp } from '../support/app.js';
import { VALID_BODIES } from '../support/bodies.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ credits: 10_000_000 });
});
afterAll(async () => t.close());

interface Case {
  name: string;
  body: Record<string, unknown>;
  ok: boolean;
  field: string;
}

function cases(id: (typeof ENDPOINTS)[number]['id'], body: { properties: Record<string, TSchema> }): Case[] {
  const base = VALID_BODIES[id];
  const out: Case[] = [];
  for (const [field, s] of Object.entries(body.properties)) {
    if (s.type === 'integer') {
      out.push({
        name: `${field}=${s.minimum - 1}`,
        body: { ...base, [field]: s.minimum - 1 },
        ok: false,
        field,
      });
      out.push({ name: `${field}=${s.minimum}`, body: { ...base, [field]: s.minimum }, ok: true, field });
      out.push({ name: `${field}=${s.maximum}`, body: { ...base, [field]: s.maximum }, ok: true, field });
      out.push({
        name: `${field}=${s.maximum + 1}`,
        body: { ...base, [field]: s.maximum + 1 },
        ok: false,
        field,
      });
    }
    if (
      s.type === 'array' &&
      s.minItems !== undefined &&
      s.maxItems !== undefined &&
      Array.isArray(base[field])
    ) {
      const one = (base[field] as unknown[])[0];
      const n = (k: number) => Array.from({ length: k }, () => one);
      out.push({
        name: `${field}: ${s.minItems - 1} items`,
        body: { ...base, [field]: n(s.minItems - 1) },
        ok: false,
        field,
      });
      out.push({
        name: `${field}: ${s.minItems} items`,
        body: { ...base, [field]: n(s.minItems) },
        ok: true,
        field,
      });
      out.push({
        name: `${field}: ${s.maxItems} items`,
        body: { ...base, [field]: n(s.maxItems) },
        ok: true,
        field,
      });
      out.push({
        name: `${field}: ${s.maxItems + 1} items`,
        body: { ...base, [field]: n(s.maxItems + 1) },
        ok: false,
        field,
      });
    }
  }
  return out;
}

for (const e of ENDPOINTS) {
  describe(e.id, () => {
    test.each(cases(e.id, e.body as never).map((c) => [c.name, c] as const))('%s', async (_n, c) => {
      const r = await t.post(e.path, c.body);
      if (c.ok) {
        expect(r.statusCode, r.body).toBe(200);
      } else {
        expect(r.statusCode).toBe(400);
        const j = r.json();
        expect(j.error.code).toBe('BAD_REQUEST');
        expect(j.error.details.map((d: { field: string }) => d.field)).toContain(c.field);
      }
    });
  });
}

test('the spec bounds are the ones in the contract', () => {
  const bound = (id: string, f: string) => {
    const s = (ENDPOINTS.find((e) => e.id === id)!.body.properties as Record<string, TSchema>)[f]!;
    return s.type === 'array' ? [s.minItems, s.maxItems] : [s.minimum, s.maximum, s.default];
  };
  expect(bound('clipnet.posts', 'limit')).toEqual([1, 100, 10]);
  expect(bound('picnet.posts', 'limit')).toEqual([1, 100, 10]);
  expect(bound('clipnet.bulk_posts', 'limit_per_user')).toEqual([1, 100, 10]);
  for (const id of ['clipnet.comments', 'picnet.comments', 'vidnet.comments'])
    expect(bound(id, 'limit_per_post')).toEqual([1, 500, 50]);
  expect(bound('clipnet.hashtag_posts', 'days')).toEqual([1, 30, 7]);
  expect(bound('picnet.hashtag_posts', 'max_posts_per_hashtag')).toEqual([1, 500, 100]);
  expect(bound('vidnet.search', 'max_posts_per_keyword')).toEqual([1, 500, 100]);
  expect(bound('vidnet.search', 'depth')).toEqual([1, 50, 30]);
  expect(bound('vidnet.hashtag_search', 'depth')).toEqual([1, 50, 1]);
  expect(bound('vidnet.channel_videos', 'depth')).toEqual([1, 50, 10]);
  expect(bound('vidnet.search', 'keywords')).toEqual([1, 10]);
  expect(bound('clipnet.hashtag_posts', 'hashtags')).toEqual([1, 10]);
  expect(bound('vidnet.channel_shorts', 'browse_ids')).toEqual([1, 10]);
  expect(bound('ml.analyze', 'texts')).toEqual([1, 100]);
  expect(bound('clipnet.comments', 'post_urls')).toEqual([1, 100]);
  expect(bound('clipnet.bulk_posts', 'usernames')).toEqual([1, 100]);
});

test('enumerations reject values outside the spec', async () => {
  for (const [path, body] of [
    ['/vidnet/search', { keywords: ['x'], period: 'year' }],
    ['/vidnet/search', { keywords: ['x'], sorting: 'likes' }],
    ['/ml/analyze', { texts: ['x'], enrich: ['sentiment'], llm_provider: 'model-3' }],
  ] as const) {
    const r = await t.post(path, body);
    expect(r.statusCode).toBe(400);
    expect(r.json().error.details[0].message).toMatch(/^must be one of: /);
  }
});
