// The enrichment cache's key holds the analyzer's result version: a cache kept across an upgrade of
// the models (Redis) must not answer with the old models' readings.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheEnricher } from '../../src/cache/enrichment.js';
import { MemoryCache } from '../../src/cache/memory.js';
import type { Enrichment, LlmProvider } from '../../src/contract/items.js';
import { modelsDigest, modelsDigestOf } from '../../src/enrichment/engine/models-digest.js';
import { createBuiltinEnricher } from '../../src/enrichment/engine/pool.js';
import { ProviderRouter } from '../../src/enrichment/index.js';
import type { Enricher, EnrichRequest } from '../../src/enrichment/interface.js';
import { instrumentEnricher } from '../../src/metrics/enrichment.js';
import { Metrics } from '../../src/metrics/index.js';
import { MODELS_DIR } from '../../src/paths.js';

/** an analyzer whose readings are those of the model it currently has */
function fakeAnalyzer() {
  const state = { model: 'v1', calls: 0 };
  const enricher: Enricher = {
    async enrich(req: EnrichRequest): Promise<Enrichment[]> {
      state.calls++;
      return req.texts.map(() => ({ intent: state.model === 'v1' ? 'question' : 'purchase_intent' }));
    },
    isLocal: () => true,
    resultVersion: () => state.model,
    close: async () => {},
  };
  return { state, enricher };
}

const req: EnrichRequest = {
  texts: ['How much is the blue one?'],
  types: ['intent'],
  provider: 'model-2.0-flash',
};

describe('enrichment cache and the result version', () => {
  it('answers from the cache while the models are the same, and reads again after they change', async () => {
    const store = new MemoryCache(100);
    const { state, enricher } = fakeAnalyzer();
    // the chain compose.ts builds: cache over metrics over the provider router
    const chain = () =>
      cacheEnricher(
        instrumentEnricher(new ProviderRouter(enricher, enricher, new Set()), new Metrics()),
        store,
        3600,
      );
    const cached = chain();
    expect(await cached.enrich(req)).toEqual([{ intent: 'question' }]);
    expect(await cached.enrich(req)).toEqual([{ intent: 'question' }]);
    expect(state.calls).toBe(1);
    // an upgrade: a new process with new models over the same (shared) store
    state.model = 'v2';
    const upgraded = chain();
    expect(await upgraded.enrich(req)).toEqual([{ intent: 'purchase_intent' }]);
    expect(state.calls).toBe(2);
  });

  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("the built-in analyzer's version follows the content of the model files it reads, not the others", () => {
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-models-'));
    dirs.push(dir);
    cpSync(MODELS_DIR, dir, { recursive: true });
    const shipped = modelsDigestOf(dir);
    expect(shipped).toBe(modelsDigestOf(MODELS_DIR));
    writeFileSync(join(dir, 'README.md'), 'changed');
    writeFileSync(join(dir, 'cv.json'), '{}');
    expect(modelsDigestOf(dir)).toBe(shipped);
    writeFileSync(join(dir, 'complaint.json'), '{}');
    expect(modelsDigestOf(dir)).not.toBe(shipped);
  });

  it('the built-in analyzer reports that version for every provider', async () => {
    const builtin = createBuiltinEnricher({ threads: 1 });
    for (const provider of ['model-2.0-flash', 'model-1.5-pro'] as LlmProvider[])
      expect(builtin.resultVersion?.(provider)).toBe(modelsDigest());
    await builtin.close();
  });
});
