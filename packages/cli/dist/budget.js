import { BOUNDS, ENRICHMENT_RATES, MILLI, PROVIDER_MULTIPLIER, RATES } from './contract.js';
/** base and per-item charge of a request in millicredits, enrichment included */
function priceFor(id, body) {
    const types = (body.enrich ?? body.analyses ?? []) ?? [];
    const provider = body.llm_provider ?? 'model-2.0-flash';
    let enrichment = 0;
    for (const t of new Set(types))
        enrichment += ENRICHMENT_RATES[t] ?? 0;
    const r = RATES[id];
    return { base: r.base, perItem: r.perItem + enrichment * (PROVIDER_MULTIPLIER[provider] ?? 1) };
}
function targetCount(b, body) {
    if (!b.targets)
        return 1;
    const list = body[b.targets];
    return Array.isArray(list) ? list.length : 1;
}
/** The most a request can cost, in millicredits. */
export function worstCaseMilli(id, body) {
    const b = BOUNDS[id];
    const price = priceFor(id, body);
    const per = b.fixed ?? Number(body[b.cap ?? ''] ?? 0);
    return price.base + price.perItem * targetCount(b, body) * b.unit * per;
}
/**
 * Makes a request fit in `budgetMilli`: unchanged when its worst case fits; else with its cap
 * field lowered as far as needed (a smaller page, fewer comments per post, a lower depth);
 * not at all when even a cap of 1 could cost more.
 */
export function fitToBudget(id, body, budgetMilli) {
    const worst = worstCaseMilli(id, body);
    if (worst <= budgetMilli)
        return { ok: true, patch: undefined, worstMilli: worst };
    const b = BOUNDS[id];
    if (!b.cap)
        return { ok: false, worstMilli: worst };
    const price = priceFor(id, body);
    const perCap = price.perItem * targetCount(b, body) * b.unit;
    const cap = perCap === 0 ? Number(body[b.cap]) : Math.floor((budgetMilli - price.base) / perCap);
    if (!(cap >= 1))
        return { ok: false, worstMilli: worst };
    const patch = { [b.cap]: cap };
    return { ok: true, patch, worstMilli: worstCaseMilli(id, { ...body, ...patch }) };
}
export const toMilli = (credits) => Math.round(credits * MILLI);
export const fromMilli = (milli) => milli / MILLI;
