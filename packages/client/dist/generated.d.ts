import type { ApiResult, CallOptions } from './types.js';
/** The version of the API these types describe (info.version of its OpenAPI document). */
export declare const API_VERSION = "1.0.0";
/** An enrichment type */
export type EnrichmentType = 'sentiment' | 'topics' | 'intent' | 'keywords';
/** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
export type LlmProvider = 'model-2.0-flash' | 'model-1.5-pro';
export type ErrorCode = 'BAD_REQUEST' | 'UNAUTHORIZED' | 'PAYMENT_REQUIRED' | 'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'IDEMPOTENCY_IN_PROGRESS' | 'IDEMPOTENCY_KEY_REUSED' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE' | 'RATE_LIMITED' | 'EXTERNAL_API_ERROR' | 'SERVICE_UNAVAILABLE' | 'INTERNAL_SERVER_ERROR';
export interface ErrorDetail {
    field: string;
    message: string;
}
export interface Warning {
    /** The target (URL, user, hashtag, keyword, channel) as given */
    target: string;
    /** Error code this target alone would have produced */
    code: string;
    message: string;
}
/** Custom categories for the topics enrichment */
export interface Categories {
    /** Custom topic labels; topics are then chosen only from these (possibly none) */
    topic?: string[];
}
/** Only the keys of the requested types are present */
export interface Enrichment {
    sentiment?: 'positive' | 'negative' | 'neutral';
    sentiment_score?: number;
    topics?: string[];
    intent?: 'purchase_intent' | 'complaint' | 'question' | 'praise' | 'suggestion' | 'engagement';
    keywords?: string[];
}
export interface ClipnetPostStats {
    views: number;
    likes: number;
    comments: number;
    shares: number;
}
export interface ClipnetPost {
    id: string;
    caption: string;
    url: string;
    /** ISO 8601, UTC */
    timestamp: string;
    stats: ClipnetPostStats;
    enrichment?: Enrichment;
}
export interface PicnetPostStats {
    /** null when the platform hides it */
    likes: number | null;
    comments: number;
}
export interface PicnetPost {
    id: string;
    shortcode: string;
    caption: string;
    url: string;
    /** ISO 8601, UTC */
    timestamp: string;
    media_type: 'image' | 'video' | 'carousel';
    stats: PicnetPostStats;
    enrichment?: Enrichment;
}
export interface HashtagPost {
    post_id: string;
    post_text: string;
    /** Unix time in seconds, as a string */
    post_time: string;
    /** null when the platform does not say */
    profile_id: string | null;
    /** null when the platform does not say */
    profile_name: string | null;
    /** null when the platform hides it */
    reaction_count: number | null;
    /** clipnet only */
    share_count?: number;
    /** clipnet only */
    play_count?: number;
    comment_count: number;
    /** The hashtag that produced the post */
    source_name: string;
    /** May lack the scheme prefix */
    post_url: string;
    enrichment?: Enrichment;
}
export interface PostComment {
    id: string;
    post_url: string;
    text: string;
    /** The author, prefixed with @; null when the platform does not name the author */
    user: string | null;
    /** ISO 8601, UTC */
    timestamp: string;
    likes: number;
    enrichment?: Enrichment;
}
export interface VidnetVideoStats {
    views: number;
    /** null when the platform hides it */
    likes: number | null;
    /** null when the platform hides it */
    comments: number | null;
}
export interface VidnetVideo {
    video_id: string;
    title: string;
    description: string;
    channel_id: string;
    channel_title: string;
    /** ISO 8601, UTC */
    published_at: string;
    thumbnail: string;
    stats: VidnetVideoStats;
    /** The keyword that produced the video */
    source_keyword: string;
    enrichment?: Enrichment;
}
export interface VidnetHashtagVideo {
    video_id: string;
    title: string;
    description: string;
    channel_id: string;
    channel_title: string;
    /** ISO 8601, UTC */
    published_at: string;
    thumbnail: string;
    stats: VidnetVideoStats;
    /** The hashtag that produced the video */
    source_hashtag: string;
    duration_seconds?: number | null;
    is_short?: boolean;
    enrichment?: Enrichment;
}
export interface VidnetChannelVideo {
    video_id: string;
    title: string;
    description: string;
    channel_id: string;
    channel_title: string;
    /** ISO 8601, UTC */
    published_at: string;
    thumbnail: string;
    stats: VidnetVideoStats;
    /** The channel browse id that produced the video */
    source_browse_id: string;
    duration_seconds: number | null;
    is_short: boolean;
    enrichment?: Enrichment;
}
export interface VidnetComment {
    id: string;
    video_id: string;
    text: string;
    author: string;
    /** ISO 8601, UTC */
    timestamp: string;
    likes: number;
    enrichment?: Enrichment;
}
export interface BlipnetPostAuthor {
    /** The account id (on the live backend a DID, did:plc:…) */
    id: string;
    /** The handle, without a leading @ */
    handle: string;
    /** null when the account has none */
    display_name: string | null;
}
export interface BlipnetPostStats {
    /** null when the platform does not give it */
    replies: number | null;
    /** null when the platform does not give it */
    reposts: number | null;
    /** null when the platform does not give it */
    likes: number | null;
    /** null when the platform does not give it */
    quotes: number | null;
}
export interface BlipnetPostMention {
    /** The mentioned account id */
    id: string;
    /** The handle as written in the text, without the @ */
    handle: string | null;
}
export interface BlipnetPost {
    /** The post id: its at:// URI (at://<author id>/app.bsky.feed.post/<record key>) */
    id: string;
    /** The post on the web client */
    url: string;
    text: string;
    /** When the author wrote it, ISO 8601 UTC */
    timestamp: string;
    author: BlipnetPostAuthor;
    stats: BlipnetPostStats;
    /** The first language the author declared (BCP 47); null when none */
    language: string | null;
    /** Links in the text and the linked card, in order, once each */
    links: string[];
    /** Images (full size) and video playlists */
    media_urls: string[];
    /** Hashtags, without the # */
    hashtags: string[];
    mentions: BlipnetPostMention[];
    /** The id of the post this one replies to; null when it is no reply */
    parent_id: string | null;
    /** The id of the post this one quotes; null when it quotes none */
    quote_of: string | null;
    is_reply: boolean;
    /** true when the user reposted someone's post: author is the original author */
    is_repost: boolean;
    /** When the user reposted it; null for the user’s own posts */
    reposted_at: string | null;
    enrichment?: Enrichment;
}
export interface BlipnetReply {
    /** The post id: its at:// URI (at://<author id>/app.bsky.feed.post/<record key>) */
    id: string;
    /** The post on the web client */
    url: string;
    text: string;
    /** When the author wrote it, ISO 8601 UTC */
    timestamp: string;
    author: BlipnetPostAuthor;
    stats: BlipnetPostStats;
    /** The first language the author declared (BCP 47); null when none */
    language: string | null;
    /** Links in the text and the linked card, in order, once each */
    links: string[];
    /** Images (full size) and video playlists */
    media_urls: string[];
    /** Hashtags, without the # */
    hashtags: string[];
    mentions: BlipnetPostMention[];
    /** The id of the post this reply answers */
    parent_id: string;
    /** The id of the post this one quotes; null when it quotes none */
    quote_of: string | null;
    /** The post asked for, as its web URL */
    post_url: string;
    /** 1 for a direct reply, 2 for a reply to it, … */
    depth: number;
    enrichment?: Enrichment;
}
export interface BlipnetSearchPost {
    /** The post id: its at:// URI (at://<author id>/app.bsky.feed.post/<record key>) */
    id: string;
    /** The post on the web client */
    url: string;
    text: string;
    /** When the author wrote it, ISO 8601 UTC */
    timestamp: string;
    author: BlipnetPostAuthor;
    stats: BlipnetPostStats;
    /** The first language the author declared (BCP 47); null when none */
    language: string | null;
    /** Links in the text and the linked card, in order, once each */
    links: string[];
    /** Images (full size) and video playlists */
    media_urls: string[];
    /** Hashtags, without the # */
    hashtags: string[];
    mentions: BlipnetPostMention[];
    /** The id of the post this one replies to; null when it is no reply */
    parent_id: string | null;
    /** The id of the post this one quotes; null when it quotes none */
    quote_of: string | null;
    /** The keyword that produced the post */
    source_keyword: string;
    enrichment?: Enrichment;
}
export interface BlipnetHashtagPost {
    /** The post id: its at:// URI (at://<author id>/app.bsky.feed.post/<record key>) */
    id: string;
    /** The post on the web client */
    url: string;
    text: string;
    /** When the author wrote it, ISO 8601 UTC */
    timestamp: string;
    author: BlipnetPostAuthor;
    stats: BlipnetPostStats;
    /** The first language the author declared (BCP 47); null when none */
    language: string | null;
    /** Links in the text and the linked card, in order, once each */
    links: string[];
    /** Images (full size) and video playlists */
    media_urls: string[];
    /** Hashtags, without the # */
    hashtags: string[];
    mentions: BlipnetPostMention[];
    /** The id of the post this one replies to; null when it is no reply */
    parent_id: string | null;
    /** The id of the post this one quotes; null when it quotes none */
    quote_of: string | null;
    /** The hashtag that produced the post */
    source_hashtag: string;
    enrichment?: Enrichment;
}
export interface Metadata {
    /** Credits charged for this call (0.5 steps exist) */
    credits_used: number;
    /** Balance of the key after this call */
    credits_remaining?: number;
    /** Seconds spent serving the call */
    processing_time: number;
    source?: 'sandbox' | 'live';
    /** Enrichment types applied */
    enrichments?: EnrichmentType[];
    /** Same as `enrichments` (both names are served) */
    enrichments_applied?: EnrichmentType[];
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
    /** true when the balance covered only part of the result */
    truncated?: boolean;
    /** vidnet search: whether the platform or the service sorted the results */
    sorting_applied?: 'native' | 'emulated';
    /** Targets that produced nothing, and why */
    warnings?: Warning[];
}
export interface AccountTotals {
    /** Credits ever granted to the key */
    granted: number;
    /** Credits ever debited */
    spent: number;
    /** Charged calls ever */
    calls: number;
}
export interface Account {
    /** The key's id (not the key) */
    id: string;
    name: string;
    /** The first characters of the key */
    prefix: string;
    /** Balance: credits granted minus credits debited */
    credits: number;
    /** Credits reserved by calls running now */
    held: number;
    /** What a call can spend now (balance minus held) */
    available: number;
    created_at: string;
    totals: AccountTotals;
}
export interface UsageTotal {
    /** Credits debited */
    credits: number;
    /** Charged calls */
    calls: number;
}
export interface UsageDay {
    /** A UTC date, YYYY-MM-DD */
    date: string;
    /** Credits debited that day */
    credits: number;
    calls: number;
    /** By endpoint id (e.g. clipnet.posts); endpoints without calls that day are left out */
    endpoints: Record<string, unknown>;
}
export interface UsageEndpoint {
    endpoint: string;
    credits: number;
    calls: number;
}
export interface Usage {
    /** A UTC date, YYYY-MM-DD */
    from: string;
    /** A UTC date, YYYY-MM-DD */
    to: string;
    total: UsageTotal;
    /** Every day of the period, oldest first, days without calls included */
    days: UsageDay[];
    /** The period by endpoint, most credits first */
    endpoints: UsageEndpoint[];
}
export interface LedgerEntry {
    /** The entry's place in the ledger */
    seq: number;
    time: string;
    kind: 'grant' | 'debit';
    /** The endpoint charged (debits) */
    endpoint: string | null;
    /** Credits granted or debited */
    credits: number;
    /** X-Request-Id of the charged call */
    request_id: string | null;
    /** The X-Request-Id the caller sent with it, if any */
    client_request_id: string | null;
    /** The call carried an Idempotency-Key: its retries replayed this reply and were not charged (a replay adds no entry) */
    idempotent: boolean;
    note: string | null;
}
export interface Entries {
    /** Newest first */
    entries: LedgerEntry[];
    /** null on the last page */
    next_cursor: string | null;
}
export interface ClipnetPostsParams {
    /** Username, without a leading @ (a leading @ is accepted and stripped) */
    username: string;
    /**
     * Posts to return (1-100)
     * @default 10
     */
    limit?: number;
    /** Cursor from the previous response */
    cursor?: string;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface ClipnetPostsData {
    posts: ClipnetPost[];
    /** Pass it on the next call while has_more is true */
    cursor: string | null;
    has_more: boolean;
}
export interface ClipnetCommentsParams {
    /** Post URLs (full, without scheme, short links) or bare ids; formats may be mixed */
    post_urls: string[];
    /**
     * Comments per post (1-500)
     * @default 50
     */
    limit_per_post?: number;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface ClipnetCommentsData {
    comments: PostComment[];
}
export interface ClipnetBulkPostsParams {
    usernames: string[];
    /**
     * Posts per user (1-100)
     * @default 10
     */
    limit_per_user?: number;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface ClipnetBulkPostsUser {
    username: string;
    posts: ClipnetPost[];
}
export interface ClipnetBulkPostsData {
    users: ClipnetBulkPostsUser[];
}
export interface ClipnetHashtagPostsParams {
    hashtags: string[];
    /**
     * Look-back period in days (1-30)
     * @default 7
     */
    days?: number;
    /**
     * Posts per hashtag (1-500)
     * @default 100
     */
    max_posts_per_hashtag?: number;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface ClipnetHashtagPostsData {
    posts: HashtagPost[];
    hashtags: string[];
    days: number;
    total_posts: number;
}
export interface PicnetPostsParams {
    /** Username (a leading @ is stripped) or numeric user id */
    username: string;
    /**
     * Posts to return (1-100)
     * @default 10
     */
    limit?: number;
    /** Cursor from the previous response */
    cursor?: string;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface PicnetPostsData {
    posts: PicnetPost[];
    /** Pass it on the next call while has_more is true */
    cursor: string | null;
    has_more: boolean;
}
export type PicnetCommentsParams = ClipnetCommentsParams;
export type PicnetCommentsData = ClipnetCommentsData;
export type PicnetHashtagPostsParams = ClipnetHashtagPostsParams;
export type PicnetHashtagPostsData = ClipnetHashtagPostsData;
export interface VidnetSearchParams {
    keywords: string[];
    /**
     * Videos per keyword (1-500)
     * @default 100
     */
    max_posts_per_keyword?: number;
    /**
     * Result pages to read per keyword (one page is about 20 videos) (1-50)
     * @default 30
     */
    depth?: number;
    /**
     * Publish-time window
     * @default "today"
     */
    period?: 'today' | 'week' | 'month' | 'all';
    /** @default "relevance" */
    sorting?: 'relevance' | 'date' | 'viewCount' | 'rating';
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface VidnetSearchData {
    videos: VidnetVideo[];
    keywords: string[];
    total_videos: number;
}
export interface VidnetHashtagSearchParams {
    hashtags: string[];
    /**
     * Result pages to read per hashtag (one page is about 20 videos) (1-50)
     * @default 1
     */
    depth?: number;
    /**
     * Restrict results to Shorts
     * @default false
     */
    only_shorts?: boolean;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface VidnetHashtagSearchData {
    videos: VidnetHashtagVideo[];
    hashtags: string[];
    total_videos: number;
}
export interface VidnetCommentsParams {
    /** Watch URLs, short links, /shorts/ URLs or bare video ids; formats may be mixed */
    post_urls: string[];
    /**
     * Comments per video (1-500)
     * @default 50
     */
    limit_per_post?: number;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface VidnetCommentsData {
    comments: VidnetComment[];
}
export interface VidnetChannelVideosParams {
    /** Channel browse ids */
    browse_ids: string[];
    /**
     * Pages of videos per channel (one page is about 20 videos) (1-50)
     * @default 10
     */
    depth?: number;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface VidnetChannelVideosData {
    videos: VidnetChannelVideo[];
    browse_ids: string[];
    total_videos: number;
}
export interface VidnetChannelShortsParams {
    /** Channel browse ids */
    browse_ids: string[];
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface VidnetChannelShortsData {
    /** Always present; empty when none */
    shorts: VidnetChannelVideo[];
    browse_ids: string[];
    total_shorts: number;
}
export interface BlipnetPostsParams {
    /** Handle (a leading @ is accepted and stripped) or account id (did:plc:…) */
    username: string;
    /**
     * Posts to return (1-100)
     * @default 10
     */
    limit?: number;
    /** Cursor from the previous response */
    cursor?: string;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface BlipnetPostsData {
    posts: BlipnetPost[];
    /** Pass it on the next call while has_more is true */
    cursor: string | null;
    has_more: boolean;
}
export interface BlipnetCommentsParams {
    /** Post URLs of the web client (…/profile/<handle or id>/post/<key>) or post ids (at:// URIs); formats may be mixed */
    post_urls: string[];
    /**
     * Replies per post, across every depth of the thread (1-500)
     * @default 50
     */
    limit_per_post?: number;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface BlipnetCommentsData {
    comments: BlipnetReply[];
}
export interface BlipnetSearchParams {
    keywords: string[];
    /**
     * Posts per keyword (1-500)
     * @default 100
     */
    max_posts_per_keyword?: number;
    /**
     * Result pages to read per keyword (one page is 25 posts) (1-50)
     * @default 4
     */
    depth?: number;
    /**
     * Posting-time window
     * @default "week"
     */
    period?: 'today' | 'week' | 'month' | 'year' | 'all';
    /**
     * latest: newest first; top: most engagement first
     * @default "latest"
     */
    sorting?: 'latest' | 'top';
    /** Cursor from the previous response; only with a single keyword */
    cursor?: string;
    /** Enrichment types to add to every returned item */
    enrich?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface BlipnetSearchData {
    posts: BlipnetSearchPost[];
    keywords: string[];
    total_posts: number;
    /** With a single keyword: pass it on the next call while has_more is true */
    cursor: string | null;
    /** Whether a keyword has more posts than were read */
    has_more: boolean;
}
export type BlipnetHashtagPostsParams = ClipnetHashtagPostsParams;
export interface BlipnetHashtagPostsData {
    posts: BlipnetHashtagPost[];
    hashtags: string[];
    days: number;
    total_posts: number;
}
export interface AnalyzeParams {
    /** Texts to analyze (1-100, each at most 100,000 characters) */
    texts: string[];
    /** Analysis types to run (required) */
    enrich?: EnrichmentType[];
    /** Alias of `enrich` */
    analyses?: EnrichmentType[];
    /** Custom categories for the topics enrichment */
    categories?: Categories;
    /** Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price) */
    llm_provider?: LlmProvider;
}
export interface AnalyzeResult {
    text: string;
    enrichment: Enrichment;
}
export interface AnalyzeData {
    results: AnalyzeResult[];
}
export type AccountData = Account;
export interface UsageParams {
    /** First day (UTC) of the period; default 29 days before `to` */
    from?: string;
    /** Last day (UTC) of the period, included; default today */
    to?: string;
}
export type UsageData = Usage;
export interface EntriesParams {
    /** @default 50 */
    limit?: number;
    /** The `next_cursor` of the previous page */
    cursor?: string;
}
export type EntriesData = Entries;
/** Every endpoint of the API, by id. */
export type EndpointId = 'clipnet.posts' | 'clipnet.comments' | 'clipnet.bulk_posts' | 'clipnet.hashtag_posts' | 'picnet.posts' | 'picnet.comments' | 'picnet.hashtag_posts' | 'vidnet.search' | 'vidnet.hashtag_search' | 'vidnet.comments' | 'vidnet.channel_videos' | 'vidnet.channel_shorts' | 'blipnet.posts' | 'blipnet.comments' | 'blipnet.search' | 'blipnet.hashtag_posts' | 'ml.analyze';
/** Body and data type of each endpoint. */
export interface EndpointTypes {
    'clipnet.posts': {
        params: ClipnetPostsParams;
        data: ClipnetPostsData;
    };
    'clipnet.comments': {
        params: ClipnetCommentsParams;
        data: ClipnetCommentsData;
    };
    'clipnet.bulk_posts': {
        params: ClipnetBulkPostsParams;
        data: ClipnetBulkPostsData;
    };
    'clipnet.hashtag_posts': {
        params: ClipnetHashtagPostsParams;
        data: ClipnetHashtagPostsData;
    };
    'picnet.posts': {
        params: PicnetPostsParams;
        data: PicnetPostsData;
    };
    'picnet.comments': {
        params: PicnetCommentsParams;
        data: PicnetCommentsData;
    };
    'picnet.hashtag_posts': {
        params: PicnetHashtagPostsParams;
        data: PicnetHashtagPostsData;
    };
    'vidnet.search': {
        params: VidnetSearchParams;
        data: VidnetSearchData;
    };
    'vidnet.hashtag_search': {
        params: VidnetHashtagSearchParams;
        data: VidnetHashtagSearchData;
    };
    'vidnet.comments': {
        params: VidnetCommentsParams;
        data: VidnetCommentsData;
    };
    'vidnet.channel_videos': {
        params: VidnetChannelVideosParams;
        data: VidnetChannelVideosData;
    };
    'vidnet.channel_shorts': {
        params: VidnetChannelShortsParams;
        data: VidnetChannelShortsData;
    };
    'blipnet.posts': {
        params: BlipnetPostsParams;
        data: BlipnetPostsData;
    };
    'blipnet.comments': {
        params: BlipnetCommentsParams;
        data: BlipnetCommentsData;
    };
    'blipnet.search': {
        params: BlipnetSearchParams;
        data: BlipnetSearchData;
    };
    'blipnet.hashtag_posts': {
        params: BlipnetHashtagPostsParams;
        data: BlipnetHashtagPostsData;
    };
    'ml.analyze': {
        params: AnalyzeParams;
        data: AnalyzeData;
    };
}
/** Path of each endpoint under /api/v1. */
export declare const ENDPOINT_PATHS: Readonly<Record<EndpointId, string>>;
/** The largest page (`limit`) of each cursor-paged endpoint. */
export declare const MAX_PAGE_SIZE: {
    readonly 'clipnet.posts': 100;
    readonly 'picnet.posts': 100;
    readonly 'blipnet.posts': 100;
};
/** One method per endpoint: a POST through `call`, or a free GET through `read`. */
export declare abstract class Endpoints {
    abstract call<Id extends EndpointId>(id: Id, params: EndpointTypes[Id]['params'], options?: CallOptions): Promise<ApiResult<EndpointTypes[Id]['data']>>;
    /** a GET of `path` under /api/v1 with the query parameters of `query` */
    protected abstract read<D>(path: string, query: object, options?: CallOptions): Promise<ApiResult<D>>;
    /**
     * Posts of a clipnet user: POST /api/v1/clipnet/posts.
     * Newest first, cursor-paged. Credits: 1 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    clipnetPosts(params: ClipnetPostsParams, options?: CallOptions): Promise<ApiResult<ClipnetPostsData>>;
    /**
     * Comments of clipnet posts: POST /api/v1/clipnet/comments.
     * Credits: 1 + 0.5 per comment, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    clipnetComments(params: ClipnetCommentsParams, options?: CallOptions): Promise<ApiResult<ClipnetCommentsData>>;
    /**
     * Posts of several clipnet users: POST /api/v1/clipnet/bulk/posts.
     * Credits: 2 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    clipnetBulkPosts(params: ClipnetBulkPostsParams, options?: CallOptions): Promise<ApiResult<ClipnetBulkPostsData>>;
    /**
     * clipnet posts by hashtag: POST /api/v1/clipnet/hashtag/posts.
     * Posts of the last `days` days carrying each hashtag. Credits: 2 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    clipnetHashtagPosts(params: ClipnetHashtagPostsParams, options?: CallOptions): Promise<ApiResult<ClipnetHashtagPostsData>>;
    /**
     * Posts of a picnet user: POST /api/v1/picnet/posts.
     * By username or numeric user id; newest first, cursor-paged. Credits: 1 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    picnetPosts(params: PicnetPostsParams, options?: CallOptions): Promise<ApiResult<PicnetPostsData>>;
    /**
     * Comments of picnet posts: POST /api/v1/picnet/comments.
     * Each item is a full post URL, a URL without the scheme or a bare shortcode. Credits: 1 + 0.5 per comment, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    picnetComments(params: PicnetCommentsParams, options?: CallOptions): Promise<ApiResult<PicnetCommentsData>>;
    /**
     * picnet posts by hashtag: POST /api/v1/picnet/hashtag/posts.
     * Credits: 2 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    picnetHashtagPosts(params: PicnetHashtagPostsParams, options?: CallOptions): Promise<ApiResult<PicnetHashtagPostsData>>;
    /**
     * vidnet videos by keyword: POST /api/v1/vidnet/search.
     * Credits: 2 + 1 per video, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    vidnetSearch(params: VidnetSearchParams, options?: CallOptions): Promise<ApiResult<VidnetSearchData>>;
    /**
     * vidnet videos by hashtag: POST /api/v1/vidnet/hashtag/search.
     * Credits: 2 + 1 per video, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    vidnetHashtagSearch(params: VidnetHashtagSearchParams, options?: CallOptions): Promise<ApiResult<VidnetHashtagSearchData>>;
    /**
     * Comments of vidnet videos: POST /api/v1/vidnet/comments.
     * Credits: 1 + 0.5 per comment, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    vidnetComments(params: VidnetCommentsParams, options?: CallOptions): Promise<ApiResult<VidnetCommentsData>>;
    /**
     * Videos of vidnet channels: POST /api/v1/vidnet/channel/videos.
     * Credits: 2 + 1 per video, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    vidnetChannelVideos(params: VidnetChannelVideosParams, options?: CallOptions): Promise<ApiResult<VidnetChannelVideosData>>;
    /**
     * Shorts of vidnet channels: POST /api/v1/vidnet/channel/shorts.
     * Credits: 2 + 1 per Short, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    vidnetChannelShorts(params: VidnetChannelShortsParams, options?: CallOptions): Promise<ApiResult<VidnetChannelShortsData>>;
    /**
     * Posts of a blipnet user: POST /api/v1/blipnet/posts.
     * By handle or account id; newest first, cursor-paged, with replies and reposts flagged. Credits: 1 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    blipnetPosts(params: BlipnetPostsParams, options?: CallOptions): Promise<ApiResult<BlipnetPostsData>>;
    /**
     * Replies to blipnet posts: POST /api/v1/blipnet/comments.
     * The thread under each post, flattened depth first: each reply names the post it answers (parent_id) and its depth. Credits: 1 + 0.5 per reply, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    blipnetComments(params: BlipnetCommentsParams, options?: CallOptions): Promise<ApiResult<BlipnetCommentsData>>;
    /**
     * blipnet posts by keyword: POST /api/v1/blipnet/search.
     * Posts containing every word of each keyword, newest or most engaging first, over a period. Pages by depth, or by cursor for a single keyword. Credits: 2 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    blipnetSearch(params: BlipnetSearchParams, options?: CallOptions): Promise<ApiResult<BlipnetSearchData>>;
    /**
     * blipnet posts by hashtag: POST /api/v1/blipnet/hashtag/posts.
     * Posts of the last `days` days carrying each hashtag, newest first. Credits: 2 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    blipnetHashtagPosts(params: BlipnetHashtagPostsParams, options?: CallOptions): Promise<ApiResult<BlipnetHashtagPostsData>>;
    /**
     * Analyze texts: POST /api/v1/ml/analyze.
     * Runs the requested analyses on 1-100 texts. Credits per text: sentiment 0.5, topics 1, intent 1, keywords 0.5, the same with either llm_provider. Request body: at most 40 MiB (413 beyond).
     */
    analyze(params: AnalyzeParams, options?: CallOptions): Promise<ApiResult<AnalyzeData>>;
    /**
     * The key: balance, held credits and totals: GET /api/v1/account.
     * Free: nothing is charged. Figures are summed from the ledger.
     */
    account(options?: CallOptions): Promise<ApiResult<AccountData>>;
    /**
     * Credits and calls of the key by UTC day and by endpoint over a period (default: the last 30 days): GET /api/v1/account/usage.
     * Free: nothing is charged. Figures are summed from the ledger.
     */
    usage(params?: UsageParams, options?: CallOptions): Promise<ApiResult<UsageData>>;
    /**
     * The key's ledger entries (grants and debits), newest first, a page at a time: GET /api/v1/account/entries.
     * Free: nothing is charged. Figures are summed from the ledger.
     */
    entries(params?: EntriesParams, options?: CallOptions): Promise<ApiResult<EntriesData>>;
}
