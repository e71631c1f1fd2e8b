/** The version of the API these types describe (info.version of its OpenAPI document). */
export const API_VERSION = '1.0.0';
/** Path of each endpoint under /api/v1. */
export const ENDPOINT_PATHS = {
    'clipnet.posts': '/clipnet/posts',
    'clipnet.comments': '/clipnet/comments',
    'clipnet.bulk_posts': '/clipnet/bulk/posts',
    'clipnet.hashtag_posts': '/clipnet/hashtag/posts',
    'picnet.posts': '/picnet/posts',
    'picnet.comments': '/picnet/comments',
    'picnet.hashtag_posts': '/picnet/hashtag/posts',
    'vidnet.search': '/vidnet/search',
    'vidnet.hashtag_search': '/vidnet/hashtag/search',
    'vidnet.comments': '/vidnet/comments',
    'vidnet.channel_videos': '/vidnet/channel/videos',
    'vidnet.channel_shorts': '/vidnet/channel/shorts',
    'blipnet.posts': '/blipnet/posts',
    'blipnet.comments': '/blipnet/comments',
    'blipnet.search': '/blipnet/search',
    'blipnet.hashtag_posts': '/blipnet/hashtag/posts',
    'ml.analyze': '/ml/analyze',
};
/** The largest page (`limit`) of each cursor-paged endpoint. */
export const MAX_PAGE_SIZE = {
    'clipnet.posts': 100,
    'picnet.posts': 100,
    'blipnet.posts': 100,
};
/** One method per endpoint: a POST through `call`, or a free GET through `read`. */
export class Endpoints {
    /**
     * Posts of a clipnet user: POST /api/v1/clipnet/posts.
     * Newest first, cursor-paged. Credits: 1 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    clipnetPosts(params, options) {
        return this.call('clipnet.posts', params, options);
    }
    /**
     * Comments of clipnet posts: POST /api/v1/clipnet/comments.
     * Credits: 1 + 0.5 per comment, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    clipnetComments(params, options) {
        return this.call('clipnet.comments', params, options);
    }
    /**
     * Posts of several clipnet users: POST /api/v1/clipnet/bulk/posts.
     * Credits: 2 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    clipnetBulkPosts(params, options) {
        return this.call('clipnet.bulk_posts', params, options);
    }
    /**
     * clipnet posts by hashtag: POST /api/v1/clipnet/hashtag/posts.
     * Posts of the last `days` days carrying each hashtag. Credits: 2 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    clipnetHashtagPosts(params, options) {
        return this.call('clipnet.hashtag_posts', params, options);
    }
    /**
     * Posts of a picnet user: POST /api/v1/picnet/posts.
     * By username or numeric user id; newest first, cursor-paged. Credits: 1 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    picnetPosts(params, options) {
        return this.call('picnet.posts', params, options);
    }
    /**
     * Comments of picnet posts: POST /api/v1/picnet/comments.
     * Each item is a full post URL, a URL without the scheme or a bare shortcode. Credits: 1 + 0.5 per comment, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    picnetComments(params, options) {
        return this.call('picnet.comments', params, options);
    }
    /**
     * picnet posts by hashtag: POST /api/v1/picnet/hashtag/posts.
     * Credits: 2 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    picnetHashtagPosts(params, options) {
        return this.call('picnet.hashtag_posts', params, options);
    }
    /**
     * vidnet videos by keyword: POST /api/v1/vidnet/search.
     * Credits: 2 + 1 per video, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    vidnetSearch(params, options) {
        return this.call('vidnet.search', params, options);
    }
    /**
     * vidnet videos by hashtag: POST /api/v1/vidnet/hashtag/search.
     * Credits: 2 + 1 per video, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    vidnetHashtagSearch(params, options) {
        return this.call('vidnet.hashtag_search', params, options);
    }
    /**
     * Comments of vidnet videos: POST /api/v1/vidnet/comments.
     * Credits: 1 + 0.5 per comment, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    vidnetComments(params, options) {
        return this.call('vidnet.comments', params, options);
    }
    /**
     * Videos of vidnet channels: POST /api/v1/vidnet/channel/videos.
     * Credits: 2 + 1 per video, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    vidnetChannelVideos(params, options) {
        return this.call('vidnet.channel_videos', params, options);
    }
    /**
     * Shorts of vidnet channels: POST /api/v1/vidnet/channel/shorts.
     * Credits: 2 + 1 per Short, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    vidnetChannelShorts(params, options) {
        return this.call('vidnet.channel_shorts', params, options);
    }
    /**
     * Posts of a blipnet user: POST /api/v1/blipnet/posts.
     * By handle or account id; newest first, cursor-paged, with replies and reposts flagged. Credits: 1 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    blipnetPosts(params, options) {
        return this.call('blipnet.posts', params, options);
    }
    /**
     * Replies to blipnet posts: POST /api/v1/blipnet/comments.
     * The thread under each post, flattened depth first: each reply names the post it answers (parent_id) and its depth. Credits: 1 + 0.5 per reply, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    blipnetComments(params, options) {
        return this.call('blipnet.comments', params, options);
    }
    /**
     * blipnet posts by keyword: POST /api/v1/blipnet/search.
     * Posts containing every word of each keyword, newest or most engaging first, over a period. Pages by depth, or by cursor for a single keyword. Credits: 2 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    blipnetSearch(params, options) {
        return this.call('blipnet.search', params, options);
    }
    /**
     * blipnet posts by hashtag: POST /api/v1/blipnet/hashtag/posts.
     * Posts of the last `days` days carrying each hashtag, newest first. Credits: 2 + 1 per post, plus enrichment. Request body: at most 1 MiB (413 beyond).
     */
    blipnetHashtagPosts(params, options) {
        return this.call('blipnet.hashtag_posts', params, options);
    }
    /**
     * Analyze texts: POST /api/v1/ml/analyze.
     * Runs the requested analyses on 1-100 texts. Credits per text: sentiment 0.5, topics 1, intent 1, keywords 0.5, the same with either llm_provider. Request body: at most 40 MiB (413 beyond).
     */
    analyze(params, options) {
        return this.call('ml.analyze', params, options);
    }
    /**
     * The key: balance, held credits and totals: GET /api/v1/account.
     * Free: nothing is charged. Figures are summed from the ledger.
     */
    account(options) {
        return this.read('/account', {}, options);
    }
    /**
     * Credits and calls of the key by UTC day and by endpoint over a period (default: the last 30 days): GET /api/v1/account/usage.
     * Free: nothing is charged. Figures are summed from the ledger.
     */
    usage(params = {}, options) {
        return this.read('/account/usage', params, options);
    }
    /**
     * The key's ledger entries (grants and debits), newest first, a page at a time: GET /api/v1/account/entries.
     * Free: nothing is charged. Figures are summed from the ledger.
     */
    entries(params = {}, options) {
        return this.read('/account/entries', params, options);
    }
}
