// What a caller gets from POST /ml/analyze is what the analyzer computes: `npm run eval` measures
// `analyze` (src/enrichment/engine/analyze.ts), and its figures hold for the API only if the HTTP
// path (validation, the enrichment cache, the worker pool, the reply's serialization) changes no
// reading. Checked on real captions, titles, descriptions and comments from the platforms' recorded
// responses (test/fixtures/live), in requests of up to 100 texts, with custom categories, for both
// providers, and again when the cache answers.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunks } from '../../packages/client/src/paginate.js';
import { ENRICHMENT_TYPES, type LlmProvider } from '../../src/contract/items.js';
import { analyze } from '../../src/enrichment/engine/analyze.js';
import { FIXTURES, fixtureJson } from '../sources/live/helpers.js';
import { startApp, type TestApp } from '../support/app.js';

/** every string of the recorded responses that reads like prose (three words or more, not a link) */
function recordedTexts(): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      const s = v.trim();
      if (s.split(/\s+/).length >= 3 && !/^https?:\/\//.test(s) && s.length <= 20_000) found.add(s);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const backend of readdirSync(FIXTURES))
    for (const file of readdirSync(join(FIXTURES, backend)))
      if (file.endsWith('.json')) walk(fixtureJson(backend, file.slice(0, -'.json'.length)));
  return [...found].sort();
}

const TEXTS = recordedTexts();
const CATEGORIES = ['music', 'sports', 'food_&_dining', 'science_&_technology', 'travel_&_adventure'];

describe("POST /ml/analyze over the recorded platforms' texts", () => {
  let t: TestApp;
  beforeAll(async () => {
    // two threads: requests over 2,000 characters go to the worker pool
    t = await startApp({ enricher: 'built-in', credits: 100_000, env: { ENRICH_THREADS: '2' } });
  });
  afterAll(() => t.close());

  it('has a few hundred texts to read', () => {
    expect(TEXTS.length).toBeGreaterThan(200);
  });

  for (const provider of ['model-2.0-flash', 'model-1.5-pro'] as LlmProvider[])
    it(`returns, text for text, what analyze computes (${provider}; again from the cache)`, async () => {
      for (const texts of chunks(TEXTS, 100)) {
        const expected = analyze({ texts, types: [...ENRICHMENT_TYPES], provider });
        for (let round = 0; round < 2; round++) {
          const r = await t.post('/ml/analyze', {
            texts,
            enrich: [...ENRICHMENT_TYPES],
            llm_provider: provider,
          });
          expect(r.statusCode).toBe(200);
          const results: Array<{ text: string; enrichment: unknown }> = r.json().data.results;
          expect(results.map((x) => x.text)).toEqual(texts);
          expect(results.map((x) => x.enrichment)).toEqual(expected);
        }
      }
    });

  it('with custom categories and a subset of the types, too', async () => {
    for (const texts of chunks(TEXTS, 100)) {
      const expected = analyze({
        texts,
        types: ['topics', 'intent'],
        provider: 'model-2.0-flash',
        categories: { topic: CATEGORIES },
      });
      const r = await t.post('/ml/analyze', {
        texts,
        enrich: ['topics', 'intent'],
        categories: { topic: CATEGORIES },
      });
      expect(r.statusCode).toBe(200);
      expect(r.json().data.results.map((x: { enrichment: unknown }) => x.enrichment)).toEqual(expected);
    }
  });
});
