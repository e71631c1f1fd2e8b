// Worst-case cost of a request, for --max-credits (src/billing/worst-case.ts, shared with the
// dashboard's playground), and fitting a request into a budget.
import { MILLI } from '../../../src/billing/pricing.js';
import { BOUNDS, priceFor, targetCount, worstCaseMilli } from '../../../src/billing/worst-case.js';
import type { EndpointId } from '../../../src/contract/endpoints.js';

export { worstCaseMilli };

type Body = Record<string, unknown>;

export type Fit =
  | { ok: true; patch: Body | undefined; worstMilli: number }
  | { ok: false; worstMilli: number };

/**
 * Makes a request fit in `budgetMilli`: unchanged when its worst case fits; else with its cap
 * field lowered as far as needed (a smaller page, fewer comments per post, a lower depth);
 * not at all when even a cap of 1 could cost more.
 */
export function fitToBudget(id: EndpointId, body: Body, budgetMilli: number): Fit {
  const worst = worstCaseMilli(id, body);
  if (worst <= budgetMilli) return { ok: true, patch: undefined, worstMilli: worst };
  const b = BOUNDS[id];
  if (!b.cap) return { ok: false, worstMilli: worst };
  const price = priceFor(id, body);
  const perCap = price.perItem * targetCount(b, body) * b.unit;
  const cap = perCap === 0 ? Number(body[b.cap]) : Math.floor((budgetMilli - price.base) / perCap);
  if (!(cap >= 1)) return { ok: false, worstMilli: worst };
  const patch = { [b.cap]: cap };
  return { ok: true, patch, worstMilli: worstCaseMilli(id, { ...body, ...patch }) };
}

export const toMilli = (credits: number): number => Math.round(credits * MILLI);
export const fromMilli = (milli: number): number => milli / MILLI;
