// Prices of every call, as integers in millicredits (1 credit = 1000 mc), so that 0.5-credit
// steps add up exactly. Pure: no I/O.
import type { EndpointId } from '../contract/endpoints.js';
import type { EnrichmentType, LlmProvider } from '../contract/items.js';

export const MILLI = 1000;

/** base charge and per-item charge of each endpoint, before enrichment (spec §8) */
export const RATES: Readonly<Record<EndpointId, { base: number; perItem: number }>> = {
  'clipnet.posts': { base: 1000, perItem: 1000 },
  'picnet.posts': { base: 1000, perItem: 1000 },
  'clipnet.comments': { base: 1000, perItem: 500 },
  'picnet.comments': { base: 1000, perItem: 500 },
  'vidnet.comments': { base: 1000, perItem: 500 },
  'clipnet.bulk_posts': { base: 2000, perItem: 1000 },
  'clipnet.hashtag_posts': { base: 2000, perItem: 1000 },
  'picnet.hashtag_posts': { base: 2000, perItem: 1000 },
  'vidnet.search': { base: 2000, perItem: 1000 },
  'vidnet.hashtag_search': { base: 2000, perItem: 1000 },
  'vidnet.channel_videos': { base: 2000, perItem: 1000 },
  'vidnet.channel_shorts': { base: 2000, perItem: 1000 },
  'blipnet.posts': { base: 1000, perItem: 1000 },
  'blipnet.comments': { base: 1000, perItem: 500 },
  'blipnet.search': { base: 2000, perItem: 1000 },
  'blipnet.hashtag_posts': { base: 2000, perItem: 1000 },
  // /ml/analyze has no base: it costs the enrichment of each text
  'ml.analyze': { base: 0, perItem: 0 },
};

/** per text (or per returned item), per enrichment type */
export const ENRICHMENT_RATES: Readonly<Record<EnrichmentType, number>> = {
  sentiment: 500,
  topics: 1000,
  intent: 1000,
  keywords: 500,
};

/** model-1.5-pro costs what model-2.0-flash costs: it does not measure better by the margin a
 *  higher price needs (docs/enrichment.md, "Providers") */
export const PROVIDER_MULTIPLIER: Readonly<Record<LlmProvider, number>> = {
  'model-2.0-flash': 1,
  'model-1.5-pro': 1,
};

export interface Price {
  /** charged once when the call succeeds */
  base: number;
  /** charged per returned item (per text on /ml/analyze) */
  perItem: number;
}

export function enrichmentRate(types: readonly EnrichmentType[], provider: LlmProvider): number {
  let sum = 0;
  for (const t of new Set(types)) sum += ENRICHMENT_RATES[t];
  return sum * PROVIDER_MULTIPLIER[provider];
}

export function priceOf(id: EndpointId, types: readonly EnrichmentType[], provider: LlmProvider): Price {
  const r = RATES[id];
  return { base: r.base, perItem: r.perItem + enrichmentRate(types, provider) };
}

export function costOf(price: Price, items: number): number {
  return price.base + price.perItem * items;
}

/** how many items a balance covers beyond the base charge (null when it does not cover the base) */
export function affordableItems(price: Price, available: number, wanted: number): number | null {
  if (available < price.base) return null;
  if (price.perItem === 0) return wanted;
  return Math.min(wanted, Math.floor((available - price.base) / price.perItem));
}

/** millicredits → credits as the API reports them */
export function toCredits(milli: number): number {
  return milli / MILLI;
}

/** credits as an operator types them → millicredits; null when not a multiple of 0.001 */
export function fromCredits(credits: number): number | null {
  const m = Math.round(credits * MILLI);
  if (!Number.isFinite(credits) || Math.abs(m - credits * MILLI) > 1e-6) return null;
  return m;
}
