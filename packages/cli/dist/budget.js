import { ENRICHMENT_RATES, MILLI, PROVIDER_MULTIPLIER, RATES } from './contract.js';
/** One upstream page per unit of `depth` is about 20 videos; the server caps it at exactly 20. */
const PER_DEPTH = 20;
/** The server asks at most one page of 50 Shorts per channel (SHORTS_PER_CHANNEL). */
const SHORTS_PER_CHANNEL = 50;
const BOUNDS = {
    'clipnet.posts': { cap: 'limit', unit: 1 },
    'picnet.posts': { cap: 'limit', unit: 1 },
    'clipnet.comments': { cap: 'limit_per_post', targets: 'post_urls', unit: 1 },
    'picnet.comments': { cap: 'limit_per_post', targets: 'post_urls', unit: 1 },
    'vidnet.comments': { cap: 'limit_per_post', targets: 'post_urls', unit: 1 },
    'clipnet.bulk_posts': { cap: 'limit_per_user', targets: 'usernames', unit: 1 },
    'clipnet.hashtag_posts': { cap: 'max_posts_per_hashtag', targets: 'hashtags', unit: 1 },
    'picnet.hashtag_posts': { cap: 'max_posts_per_hashtag', targets: 'hashtags', unit: 1 },
    'vidnet.search': { cap: 'max_posts_per_keyword', targets: 'keywords', unit: 1 },
    'vidnet.hashtag_search': { cap: 'depth', targets: 'hashtags', unit: PER_DEPTH },
    'vidnet.channel_videos': { cap: 'depth', targets: 'browse_ids', unit: PER_DEPTH },
    'vidnet.channel_shorts': { targets: 'browse_ids', unit: 1, fixed: SHORTS_PER_CHANNEL },
    'ml.analyze': { targets: 'texts', unit: 1, fixed: 1 },
};
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
