// The most a playground request can cost, in credits, from the catalog the server serves (its
// prices and item bounds: packages/cli/src/budget.ts computes the same for --max-credits).
import type { Body } from './snippets.js';

export interface CostCatalog {
  enrichmentRates: Record<string, number>;
  providerMultiplier: Record<string, number>;
  endpoints: Array<{
    id: string;
    rates: { base: number; perItem: number };
    bound: { cap?: string; targets?: string; unit: number; fixed?: number };
  }>;
}

export function worstCase(catalog: CostCatalog, id: string, body: Body): number {
  const e = catalog.endpoints.find((x) => x.id === id);
  if (!e) return 0;
  const types = new Set((body.enrich ?? body.analyses ?? []) as string[]);
  const provider = typeof body.llm_provider === 'string' ? body.llm_provider : 'model-2.0-flash';
  let enrichment = 0;
  for (const t of types) enrichment += catalog.enrichmentRates[t] ?? 0;
  const perItem = e.rates.perItem + enrichment * (catalog.providerMultiplier[provider] ?? 1);
  const list = e.bound.targets ? body[e.bound.targets] : undefined;
  const targets = e.bound.targets ? (Array.isArray(list) ? list.length : 1) : 1;
  const per = e.bound.fixed ?? Number(body[e.bound.cap ?? ''] ?? 0);
  return (e.rates.base + perItem * targets * e.bound.unit * per) / 1000;
}
