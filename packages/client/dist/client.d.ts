import { GleanerError } from './errors.js';
import { Endpoints } from './generated.js';
import { type PaginateOptions, Paginator } from './paginate.js';
import type { ApiResult, BlipnetPost, BlipnetPostsData, BlipnetPostsParams, CallOptions, ClipnetPost, ClipnetPostsData, ClipnetPostsParams, DataOf, EndpointId, ParamsOf, PicnetPost, PicnetPostsData, PicnetPostsParams, VidnetSearchData, VidnetSearchParams, VidnetVideo } from './types.js';
export declare const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
export declare const API_PREFIX = "/api/v1";
export { API_VERSION, ENDPOINT_PATHS, MAX_PAGE_SIZE } from './generated.js';
/** The list of items in a response, per endpoint. Bulk posts are flattened, each post carrying
 *  its `username`. */
export declare function itemsOf<Id extends EndpointId>(id: Id, data: DataOf<Id>): unknown[];
/** Videos per unit of `depth` on the vidnet endpoints (one upstream results page). */
export declare const VIDEOS_PER_DEPTH = 20;
export declare const MAX_DEPTH = 50;
/** The `depth` that reaches `videos` results per keyword, hashtag or channel (1-50). */
export declare function depthFor(videos: number): number;
export interface GleanerOptions {
    /** the API key (X-API-Key); leave it out only behind a proxy of yours that adds it */
    apiKey?: string;
    /** the server, e.g. https://gleaner.example.com (a trailing /api/v1 is accepted) */
    baseUrl?: string;
    /** a fetch implementation (default: the global one) */
    fetch?: typeof globalThis.fetch;
    /** retries after the first attempt on 429, 502, 503, 409 in-progress and network errors (default 3) */
    retries?: number;
    /** per-attempt timeout in ms (default 120000) */
    timeoutMs?: number;
    /** backoff tuning */
    retryBaseDelayMs?: number;
    retryMaxDelayMs?: number;
    /** a Retry-After above this is not waited for (default 60000 ms) */
    maxRetryAfterMs?: number;
    /** called before each retry (for logging or a progress display) */
    onRetry?: (info: RetryInfo) => void;
    /** extra headers sent with every request */
    headers?: Record<string, string>;
}
export interface RetryInfo {
    endpoint: EndpointId;
    /** the attempt that failed, from 1 */
    attempt: number;
    delayMs: number;
    error: GleanerError;
}
export type { CallOptions } from './types.js';
export declare class Gleaner extends Endpoints {
    #private;
    readonly baseUrl: string;
    constructor(options?: GleanerOptions);
    /** The API key is kept private: it never appears in inspection, JSON or errors. */
    toJSON(): Record<string, unknown>;
    /**
     * Calls one endpoint. Every attempt of this call sends the same Idempotency-Key, so a retry of
     * a call the server already served (an answer lost on the way back) is replayed, not charged
     * again. Retries on 429, 502, 503, 409 IDEMPOTENCY_IN_PROGRESS, timeouts and network errors,
     * waiting Retry-After when the server sent it, else an exponential backoff with jitter.
     */
    call<Id extends EndpointId>(id: Id, params: ParamsOf<Id>, options?: CallOptions): Promise<ApiResult<DataOf<Id>>>;
    /** A free GET of the account API (a read: retried on the same errors as a call, but for 409). */
    protected read<D>(path: string, query: Record<string, string | number | undefined>, options?: CallOptions): Promise<ApiResult<D>>;
    /**
     * All posts of a clipnet user: follows `cursor` while `has_more`. Iterate it for posts
     * (`for await (const post of client.iterateClipnetPosts({ username }))`) or call `.pages()` for
     * the responses with their credits. `limit` is the page size: by default the largest the
     * endpoint allows (100), since every page pays the base charge once.
     */
    iterateClipnetPosts(params: ClipnetPostsParams, options?: PaginateOptions<ClipnetPostsParams>): Paginator<ClipnetPostsParams, ClipnetPostsData, ClipnetPost>;
    /** All posts of a picnet user; as iterateClipnetPosts. */
    iteratePicnetPosts(params: PicnetPostsParams, options?: PaginateOptions<PicnetPostsParams>): Paginator<PicnetPostsParams, PicnetPostsData, PicnetPost>;
    /** All posts, replies and reposts of a blipnet user (by handle or account id); as
     *  iterateClipnetPosts. */
    iterateBlipnetPosts(params: BlipnetPostsParams, options?: PaginateOptions<BlipnetPostsParams>): Paginator<BlipnetPostsParams, BlipnetPostsData, BlipnetPost>;
    /**
     * vidnet keyword search over any number of keywords and to a chosen depth. vidnet search has
     * no cursor: `depth` (result pages of about 20 videos, 1-50) says how far one request reads.
     * `videosPerKeyword` sets both `max_posts_per_keyword` and the `depth` that reaches it
     * (unless `depth` is given); keywords are sent 10 per request (the API's limit), one page each.
     */
    iterateVidnetSearch(params: VidnetSearchParams & {
        videosPerKeyword?: number;
    }, options?: PaginateOptions<VidnetSearchParams>): Paginator<VidnetSearchParams, VidnetSearchData, VidnetVideo>;
    /**
     * One request per batch of `size` targets taken from `params[field]` (post URLs, usernames,
     * hashtags, keywords, browse ids, texts), for lists longer than one request accepts.
     */
    iterateTargets<Id extends EndpointId>(id: Id, params: ParamsOf<Id>, field: keyof ParamsOf<Id> & string, size: number, options?: PaginateOptions<ParamsOf<Id>>): Paginator<ParamsOf<Id>, DataOf<Id>, unknown>;
}
