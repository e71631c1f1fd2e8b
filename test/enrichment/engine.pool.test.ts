import { afterAll, describe, expect, it } from 'vitest';
import type { EnrichmentType } from '../../src/contract/items.js';
import { analyze } from '../../src/enrichment/engine/analyze.js';
import { createBuiltinEnricher } from '../../src/enrichment/engine/pool.js';

const ALL: EnrichmentType[] = ['sentiment', 'topics', 'intent', 'keywords'];
const texts = Array.from(
  { length: 100 },
  (_, i) =>
    `Post ${i}: ${['loving the new update, great job team!', 'my order #' + i + ' never arrived, so annoyed', 'where can I buy the blue one?', 'you should add more colours', 'what a game last night'][i % 5]} ${'more words here '.repeat(i % 7)}`,
);
/** the busy time the enricher reported, per batch */
const busy: Array<{ provider: string; seconds: number }> = [];
const enricher = createBuiltinEnricher({
  threads: 2,
  inlineMaxChars: 500,
  onBusy: (provider, seconds) => busy.push({ provider, seconds }),
});
afterAll(() => enricher.close());

describe('built-in enricher', () => {
  it('is local for both providers', () => {
    expect(enricher.isLocal('model-2.0-flash')).toBe(true);
    expect(enricher.isLocal('model-1.5-pro')).toBe(true);
  });

  it('gives the same result from the pool as inline', async () => {
    for (const provider of ['model-2.0-flash', 'model-1.5-pro'] as const) {
      const before = enricher.workerTasksCompleted();
      const req = { texts, types: ALL, provider, categories: { topic: ['pricing', 'shipping'] } };
      expect(await enricher.enrich(req)).toEqual(analyze(req));
      // the 100 texts were split across both workers, not analyzed inline
      expect(enricher.workerTasksCompleted() - before).toBe(2);
    }
  });

  it('runs a small batch inline with the same answer', async () => {
    const before = enricher.workerTasksCompleted();
    const req = { texts: ['nice'], types: ALL, provider: 'model-2.0-flash' as const };
    expect(await enricher.enrich(req)).toEqual(analyze(req));
    expect(enricher.workerTasksCompleted()).toBe(before);
  });

  it('reports the seconds each batch was analyzed, inline or in the workers', async () => {
    busy.length = 0;
    await enricher.enrich({ texts: ['nice'], types: ALL, provider: 'model-2.0-flash' });
    await enricher.enrich({ texts, types: ALL, provider: 'model-1.5-pro' });
    expect(busy.map((b) => b.provider)).toEqual(['model-2.0-flash', 'model-1.5-pro']);
    for (const b of busy) expect(b.seconds).toBeGreaterThan(0);
  });

  it('refuses a batch whose deadline has passed, and reads no signal for an inline one before it', async () => {
    const req = { texts: ['nice'], types: ALL, provider: 'model-2.0-flash' as const };
    const late = AbortSignal.abort(new DOMException('timed out', 'TimeoutError'));
    await expect(enricher.enrich(req, { signal: late, expired: () => true })).rejects.toThrow('timed out');
    await expect(enricher.enrich(req, { signal: late })).rejects.toThrow('timed out');
    let reads = 0;
    const opts = {
      get signal() {
        reads++;
        return new AbortController().signal;
      },
      expired: () => false,
    };
    expect(await enricher.enrich(req, opts)).toEqual(analyze(req));
    expect(reads).toBe(0);
  });

  it('keeps the event loop turning while a large batch is analyzed in the workers', async () => {
    await enricher.enrich({ texts, types: ALL, provider: 'model-1.5-pro' }); // warm the workers
    const before = enricher.workerTasksCompleted();
    let turns = 0;
    const timer = setInterval(() => turns++, 1);
    const big = Array.from({ length: 20 }, () => texts).flat();
    await enricher.enrich({ texts: big, types: ALL, provider: 'model-1.5-pro' });
    clearInterval(timer);
    // the 2,000 texts went to the workers, and timers fired on this thread meanwhile: an inline
    // analysis would have held the loop until it was done, with no timer turn in between
    expect(enricher.workerTasksCompleted() - before).toBe(2);
    expect(turns).toBeGreaterThan(0);
  });
});
