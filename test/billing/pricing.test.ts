import { describe, expect, test } from 'vitest';
import {
  affordableItems,
  costOf,
  enrichmentRate,
  fromCredits,
  priceOf,
  toCredits,
} from '../../src/billing/pricing.js';

describe('pricing', () => {
  test('base and per-item rates of the spec', () => {
    expect(priceOf('clipnet.posts', [], 'model-2.0-flash')).toEqual({ base: 1000, perItem: 1000 });
    expect(priceOf('picnet.comments', [], 'model-2.0-flash')).toEqual({ base: 1000, perItem: 500 });
    expect(priceOf('vidnet.channel_shorts', [], 'model-2.0-flash')).toEqual({ base: 2000, perItem: 1000 });
    expect(toCredits(costOf(priceOf('clipnet.comments', [], 'model-2.0-flash'), 3))).toBe(2.5);
  });

  test('enrichment adds the per-type rates per item, the same for both providers', () => {
    expect(enrichmentRate(['sentiment', 'topics'], 'model-2.0-flash')).toBe(1500);
    expect(enrichmentRate(['sentiment', 'topics', 'intent', 'keywords'], 'model-2.0-flash')).toBe(3000);
    expect(enrichmentRate(['sentiment', 'sentiment'], 'model-2.0-flash')).toBe(500);
    expect(enrichmentRate(['keywords'], 'model-1.5-pro')).toBe(500);
    // 10 texts with sentiment and topics cost 15 credits (the spec's example)
    expect(toCredits(10 * enrichmentRate(['sentiment', 'topics'], 'model-2.0-flash'))).toBe(15);
    const p = priceOf('clipnet.hashtag_posts', ['intent'], 'model-1.5-pro');
    expect(p).toEqual({ base: 2000, perItem: 2000 });
  });

  test('affordable items', () => {
    const p = { base: 1000, perItem: 1500 };
    expect(affordableItems(p, 999, 10)).toBeNull();
    expect(affordableItems(p, 1000, 10)).toBe(0);
    expect(affordableItems(p, 5499, 10)).toBe(2);
    expect(affordableItems(p, 5500, 10)).toBe(3);
    expect(affordableItems(p, 1_000_000, 10)).toBe(10);
  });

  test('credits convert to integers exactly', () => {
    expect(fromCredits(0.1 + 0.2)).toBe(300);
    expect(fromCredits(12.5)).toBe(12500);
    expect(fromCredits(0.0001)).toBeNull();
  });
});
