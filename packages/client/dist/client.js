// The Gleaner API client: one method per endpoint, retries that are never charged twice, typed
// errors, and paginators. Built-in fetch only, no Node-only imports: it runs in Node 20+ and in
// browsers (where the key belongs on a server you control, not in the page: point `baseUrl` at
// your own proxy there and leave `apiKey` out).
import { createError, GleanerError } from './errors.js';
import { ENDPOINT_PATHS, Endpoints, MAX_PAGE_SIZE } from './generated.js';
import { chunks, Paginator } from './paginate.js';
import { backoffMs, DEFAULT_RETRY, parseRetryAfter, RETRYABLE_STATUS, sleep, } from './retry.js';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
export const API_PREFIX = '/api/v1';
export { API_VERSION, ENDPOINT_PATHS, MAX_PAGE_SIZE } from './generated.js';
/** The list of items in a response, per endpoint. Bulk posts are flattened, each post carrying
 *  its `username`. */
export function itemsOf(id, data) {
    const d = data;
    switch (id) {
        case 'clipnet.posts':
        case 'picnet.posts':
        case 'clipnet.hashtag_posts':
        case 'picnet.hashtag_posts':
        case 'blipnet.posts':
        case 'blipnet.search':
        case 'blipnet.hashtag_posts':
            return d.posts ?? [];
        case 'clipnet.comments':
        case 'picnet.comments':
        case 'vidnet.comments':
        case 'blipnet.comments':
            return d.comments ?? [];
        case 'clipnet.bulk_posts':
            return (data.users ?? []).flatMap((u) => u.posts.map((p) => ({ username: u.username, ...p })));
        case 'vidnet.search':
        case 'vidnet.hashtag_search':
        case 'vidnet.channel_videos':
            return d.videos ?? [];
        case 'vidnet.channel_shorts':
            return d.shorts ?? [];
        case 'ml.analyze':
            return d.results ?? [];
        default:
            return [];
    }
}
/** Videos per unit of `depth` on the vidnet endpoints (one upstream results page). */
export const VIDEOS_PER_DEPTH = 20;
export const MAX_DEPTH = 50;
/** The `depth` that reaches `videos` results per keyword, hashtag or channel (1-50). */
export function depthFor(videos) {
    return Math.min(MAX_DEPTH, Math.max(1, Math.ceil(videos / VIDEOS_PER_DEPTH)));
}
function newIdempotencyKey() {
    const c = globalThis.crypto;
    if (typeof c?.randomUUID === 'function')
        return c.randomUUID();
    // crypto.randomUUID exists only in secure contexts in browsers; getRandomValues everywhere
    const b = c.getRandomValues(new Uint8Array(16));
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
function normaliseBaseUrl(url) {
    let u = url.trim().replace(/\/+$/, '');
    if (u.endsWith(API_PREFIX))
        u = u.slice(0, -API_PREFIX.length);
    else if (u.endsWith('/api'))
        u = u.slice(0, -'/api'.length);
    return u;
}
const STATUS_CODES = {
    400: 'BAD_REQUEST',
    401: 'UNAUTHORIZED',
    402: 'PAYMENT_REQUIRED',
    404: 'NOT_FOUND',
    405: 'METHOD_NOT_ALLOWED',
    409: 'IDEMPOTENCY_IN_PROGRESS',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    422: 'IDEMPOTENCY_KEY_REUSED',
    429: 'RATE_LIMITED',
    502: 'EXTERNAL_API_ERROR',
    503: 'SERVICE_UNAVAILABLE',
};
function isAbortError(e) {
    return typeof e === 'object' && e !== null && e.name === 'AbortError';
}
export class Gleaner extends Endpoints {
    baseUrl;
    #apiKey;
    #fetch;
    #timeoutMs;
    #retry;
    #onRetry;
    #headers;
    constructor(options = {}) {
        super();
        this.baseUrl = normaliseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
        this.#apiKey = options.apiKey;
        const f = options.fetch ?? globalThis.fetch;
        if (typeof f !== 'function')
            throw new TypeError('no fetch implementation: pass options.fetch');
        // unbound window.fetch throws "Illegal invocation" in browsers
        this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
        this.#timeoutMs = options.timeoutMs ?? 120_000;
        this.#retry = {
            retries: Math.max(0, Math.floor(options.retries ?? DEFAULT_RETRY.retries)),
            baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
            maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
            maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs,
        };
        this.#onRetry = options.onRetry;
        this.#headers = { ...(options.headers ?? {}) };
    }
    /** The API key is kept private: it never appears in inspection, JSON or errors. */
    toJSON() {
        return { baseUrl: this.baseUrl, apiKey: this.#apiKey ? '<redacted>' : undefined };
    }
    /**
     * Calls one endpoint. Every attempt of this call sends the same Idempotency-Key, so a retry of
     * a call the server already served (an answer lost on the way back) is replayed, not charged
     * again. Retries on 429, 502, 503, 409 IDEMPOTENCY_IN_PROGRESS, timeouts and network errors,
     * waiting Retry-After when the server sent it, else an exponential backoff with jitter.
     */
    async call(id, params, options = {}) {
        const path = ENDPOINT_PATHS[id];
        const url = `${this.baseUrl}${API_PREFIX}${path}`;
        const idempotencyKey = options.idempotencyKey ?? newIdempotencyKey();
        const body = JSON.stringify(params);
        const headers = {
            ...this.#headers,
            'content-type': 'application/json',
            accept: 'application/json',
            'idempotency-key': idempotencyKey,
        };
        if (this.#apiKey !== undefined)
            headers['x-api-key'] = this.#apiKey;
        for (let attempt = 1;; attempt++) {
            let error;
            try {
                return await this.#attempt(url, headers, body, idempotencyKey, attempt, options.signal);
            }
            catch (e) {
                if (!(e instanceof GleanerError))
                    throw e;
                error = e;
            }
            const retryable = error.code === 'NETWORK_ERROR' || error.code === 'TIMEOUT' || RETRYABLE_STATUS.has(error.status);
            // 409 is retryable only as IDEMPOTENCY_IN_PROGRESS (our own attempt still running)
            const inProgressOk = error.status !== 409 || error.code === 'IDEMPOTENCY_IN_PROGRESS';
            if (!retryable || !inProgressOk || attempt > this.#retry.retries)
                throw error;
            const retryAfterMs = error.retryAfterSeconds === undefined ? undefined : Math.round(error.retryAfterSeconds * 1000);
            if (retryAfterMs !== undefined && retryAfterMs > this.#retry.maxRetryAfterMs)
                throw error;
            const delayMs = retryAfterMs ?? backoffMs(this.#retry, attempt - 1);
            this.#onRetry?.({ endpoint: id, attempt, delayMs, error });
            await sleep(delayMs, options.signal);
        }
    }
    async #attempt(url, headers, body, idempotencyKey, attempt, signal) {
        const timeout = new AbortController();
        const timer = setTimeout(() => timeout.abort(new DOMException('timed out', 'TimeoutError')), this.#timeoutMs);
        const onAbort = () => timeout.abort(signal?.reason);
        if (signal?.aborted)
            onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        const fail = (code, message, cause, status = 0) => createError({ code, status, message, cause, attempts: attempt });
        let res;
        let text;
        try {
            res = await this.#fetch(url, {
                method: body === undefined ? 'GET' : 'POST',
                headers,
                ...(body === undefined ? {} : { body }),
                signal: timeout.signal,
            });
            text = await res.text();
        }
        catch (e) {
            if (signal?.aborted)
                throw signal.reason ?? e;
            if (timeout.signal.aborted || isAbortError(e))
                throw fail('TIMEOUT', `no answer from ${this.baseUrl} within ${this.#timeoutMs} ms`, e);
            const cause = e.cause;
            const why = cause?.code ?? cause?.message ?? e.message ?? 'fetch failed';
            throw fail('NETWORK_ERROR', `could not reach ${this.baseUrl}: ${why}`, e);
        }
        finally {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
        }
        const requestId = res.headers.get('x-request-id') ?? undefined;
        const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
        let env;
        try {
            env = text === '' ? undefined : JSON.parse(text);
        }
        catch {
            env = undefined;
        }
        if (!res.ok || env?.success !== true) {
            const init = {
                code: env?.error?.code ?? STATUS_CODES[res.status] ?? 'INVALID_RESPONSE',
                status: res.status,
                message: env?.error?.message ??
                    (res.ok
                        ? `unreadable response from ${this.baseUrl}`
                        : `HTTP ${res.status} ${res.statusText}`.trim()),
                details: env?.error?.details,
                requestId,
                retryAfterSeconds: retryAfterMs === undefined ? undefined : retryAfterMs / 1000,
                attempts: attempt,
            };
            throw createError(init);
        }
        const metadata = { ...(env.metadata ?? { credits_used: 0, processing_time: 0 }) };
        const enrichments = metadata.enrichments ?? metadata.enrichments_applied ?? [];
        if (metadata.enrichments || metadata.enrichments_applied) {
            metadata.enrichments = enrichments;
            metadata.enrichments_applied = enrichments;
        }
        const headerNumber = (name) => {
            const v = res.headers.get(name);
            return v === null || v === '' || Number.isNaN(Number(v)) ? undefined : Number(v);
        };
        return {
            data: env.data,
            metadata,
            creditsUsed: metadata.credits_used ?? headerNumber('x-credits-used') ?? 0,
            creditsRemaining: metadata.credits_remaining ?? headerNumber('x-credits-remaining'),
            requestId,
            enrichments,
            warnings: metadata.warnings ?? [],
            truncated: metadata.truncated === true,
            replayed: res.headers.get('idempotent-replayed') === 'true',
            idempotencyKey,
            attempts: attempt,
        };
    }
    /** A free GET of the account API (a read: retried on the same errors as a call, but for 409). */
    async read(path, query, options = {}) {
        const qs = new URLSearchParams();
        for (const [k, v] of Object.entries(query))
            if (v !== undefined)
                qs.set(k, String(v));
        const url = `${this.baseUrl}${API_PREFIX}${path}${qs.size ? `?${qs}` : ''}`;
        const headers = { ...this.#headers, accept: 'application/json' };
        if (this.#apiKey !== undefined)
            headers['x-api-key'] = this.#apiKey;
        for (let attempt = 1;; attempt++) {
            try {
                return await this.#attempt(url, headers, undefined, '', attempt, options.signal);
            }
            catch (e) {
                if (!(e instanceof GleanerError))
                    throw e;
                const retryable = e.code === 'NETWORK_ERROR' || e.code === 'TIMEOUT' || RETRYABLE_STATUS.has(e.status);
                if (!retryable || e.status === 409 || attempt > this.#retry.retries)
                    throw e;
                const retryAfterMs = e.retryAfterSeconds === undefined ? undefined : Math.round(e.retryAfterSeconds * 1000);
                if (retryAfterMs !== undefined && retryAfterMs > this.#retry.maxRetryAfterMs)
                    throw e;
                await sleep(retryAfterMs ?? backoffMs(this.#retry, attempt - 1), options.signal);
            }
        }
    }
    // ---- pagination ----
    /**
     * All posts of a clipnet user: follows `cursor` while `has_more`. Iterate it for posts
     * (`for await (const post of client.iterateClipnetPosts({ username }))`) or call `.pages()` for
     * the responses with their credits. `limit` is the page size: by default the largest the
     * endpoint allows (100), since every page pays the base charge once.
     */
    iterateClipnetPosts(params, options) {
        return this.#cursorPaginator('clipnet.posts', params, (d) => d.posts, options);
    }
    /** All posts of a picnet user; as iterateClipnetPosts. */
    iteratePicnetPosts(params, options) {
        return this.#cursorPaginator('picnet.posts', params, (d) => d.posts, options);
    }
    /** All posts, replies and reposts of a blipnet user (by handle or account id); as
     *  iterateClipnetPosts. */
    iterateBlipnetPosts(params, options) {
        return this.#cursorPaginator('blipnet.posts', params, (d) => d.posts, options);
    }
    #cursorPaginator(id, params, items, options) {
        return new Paginator({
            first: { ...params, limit: params.limit ?? MAX_PAGE_SIZE[id] },
            fetch: (body, signal) => this.call(id, body, { signal }),
            items,
            next: (r, body) => {
                const d = r.data;
                return d.has_more && d.cursor ? { ...body, cursor: d.cursor } : undefined;
            },
        }, options);
    }
    /**
     * vidnet keyword search over any number of keywords and to a chosen depth. vidnet search has
     * no cursor: `depth` (result pages of about 20 videos, 1-50) says how far one request reads.
     * `videosPerKeyword` sets both `max_posts_per_keyword` and the `depth` that reaches it
     * (unless `depth` is given); keywords are sent 10 per request (the API's limit), one page each.
     */
    iterateVidnetSearch(params, options) {
        const { videosPerKeyword, ...rest } = params;
        const base = { ...rest };
        if (videosPerKeyword !== undefined) {
            base.max_posts_per_keyword = Math.min(500, Math.max(1, videosPerKeyword));
            base.depth ??= depthFor(base.max_posts_per_keyword);
        }
        return this.iterateTargets('vidnet.search', base, 'keywords', 10, options);
    }
    /**
     * One request per batch of `size` targets taken from `params[field]` (post URLs, usernames,
     * hashtags, keywords, browse ids, texts), for lists longer than one request accepts.
     */
    iterateTargets(id, params, field, size, options) {
        const list = params[field];
        if (!Array.isArray(list))
            throw new TypeError(`${field} must be an array`);
        const bodies = chunks(list, size).map((part) => ({ ...params, [field]: part }));
        return new Paginator({
            first: bodies[0] ?? params,
            fetch: (body, signal) => this.call(id, body, { signal }),
            items: (d) => itemsOf(id, d),
            next: (_r, _body, page) => bodies[page + 1],
        }, options);
    }
}
