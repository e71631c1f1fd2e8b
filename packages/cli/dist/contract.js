export const API_VERSION = '1.0.0';
export const ENDPOINTS = {
    'clipnet.posts': {
        path: '/clipnet/posts',
        fields: {
            username: {
                type: 'string',
                required: true,
            },
            limit: {
                type: 'integer',
                minimum: 1,
                maximum: 100,
                default: 10,
            },
            cursor: {
                type: 'string',
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'clipnet.comments': {
        path: '/clipnet/comments',
        fields: {
            post_urls: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 100,
            },
            limit_per_post: {
                type: 'integer',
                minimum: 1,
                maximum: 500,
                default: 50,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'clipnet.bulk_posts': {
        path: '/clipnet/bulk/posts',
        fields: {
            usernames: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 100,
            },
            limit_per_user: {
                type: 'integer',
                minimum: 1,
                maximum: 100,
                default: 10,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'clipnet.hashtag_posts': {
        path: '/clipnet/hashtag/posts',
        fields: {
            hashtags: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 10,
            },
            days: {
                type: 'integer',
                minimum: 1,
                maximum: 30,
                default: 7,
            },
            max_posts_per_hashtag: {
                type: 'integer',
                minimum: 1,
                maximum: 500,
                default: 100,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'picnet.posts': {
        path: '/picnet/posts',
        fields: {
            username: {
                type: 'string',
                required: true,
            },
            limit: {
                type: 'integer',
                minimum: 1,
                maximum: 100,
                default: 10,
            },
            cursor: {
                type: 'string',
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'picnet.comments': {
        path: '/picnet/comments',
        fields: {
            post_urls: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 100,
            },
            limit_per_post: {
                type: 'integer',
                minimum: 1,
                maximum: 500,
                default: 50,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'picnet.hashtag_posts': {
        path: '/picnet/hashtag/posts',
        fields: {
            hashtags: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 10,
            },
            days: {
                type: 'integer',
                minimum: 1,
                maximum: 30,
                default: 7,
            },
            max_posts_per_hashtag: {
                type: 'integer',
                minimum: 1,
                maximum: 500,
                default: 100,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'vidnet.search': {
        path: '/vidnet/search',
        fields: {
            keywords: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 10,
            },
            max_posts_per_keyword: {
                type: 'integer',
                minimum: 1,
                maximum: 500,
                default: 100,
            },
            depth: {
                type: 'integer',
                minimum: 1,
                maximum: 50,
                default: 30,
            },
            period: {
                type: 'string',
                default: 'today',
                enum: ['today', 'week', 'month', 'all'],
            },
            sorting: {
                type: 'string',
                default: 'relevance',
                enum: ['relevance', 'date', 'viewCount', 'rating'],
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'vidnet.hashtag_search': {
        path: '/vidnet/hashtag/search',
        fields: {
            hashtags: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 10,
            },
            depth: {
                type: 'integer',
                minimum: 1,
                maximum: 50,
                default: 1,
            },
            only_shorts: {
                type: 'boolean',
                default: false,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'vidnet.comments': {
        path: '/vidnet/comments',
        fields: {
            post_urls: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 100,
            },
            limit_per_post: {
                type: 'integer',
                minimum: 1,
                maximum: 500,
                default: 50,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'vidnet.channel_videos': {
        path: '/vidnet/channel/videos',
        fields: {
            browse_ids: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 10,
            },
            depth: {
                type: 'integer',
                minimum: 1,
                maximum: 50,
                default: 10,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'vidnet.channel_shorts': {
        path: '/vidnet/channel/shorts',
        fields: {
            browse_ids: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 10,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'blipnet.posts': {
        path: '/blipnet/posts',
        fields: {
            username: {
                type: 'string',
                required: true,
            },
            limit: {
                type: 'integer',
                minimum: 1,
                maximum: 100,
                default: 10,
            },
            cursor: {
                type: 'string',
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'blipnet.comments': {
        path: '/blipnet/comments',
        fields: {
            post_urls: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 100,
            },
            limit_per_post: {
                type: 'integer',
                minimum: 1,
                maximum: 500,
                default: 50,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'blipnet.search': {
        path: '/blipnet/search',
        fields: {
            keywords: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 10,
            },
            max_posts_per_keyword: {
                type: 'integer',
                minimum: 1,
                maximum: 500,
                default: 100,
            },
            depth: {
                type: 'integer',
                minimum: 1,
                maximum: 50,
                default: 4,
            },
            period: {
                type: 'string',
                default: 'week',
                enum: ['today', 'week', 'month', 'year', 'all'],
            },
            sorting: {
                type: 'string',
                default: 'latest',
                enum: ['latest', 'top'],
            },
            cursor: {
                type: 'string',
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'blipnet.hashtag_posts': {
        path: '/blipnet/hashtag/posts',
        fields: {
            hashtags: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 10,
            },
            days: {
                type: 'integer',
                minimum: 1,
                maximum: 30,
                default: 7,
            },
            max_posts_per_hashtag: {
                type: 'integer',
                minimum: 1,
                maximum: 500,
                default: 100,
            },
            enrich: {
                type: 'array',
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
    'ml.analyze': {
        path: '/ml/analyze',
        fields: {
            texts: {
                type: 'array',
                required: true,
                minItems: 1,
                maxItems: 100,
            },
            enrich: {
                type: 'array',
                minItems: 1,
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            analyses: {
                type: 'array',
                minItems: 1,
                maxItems: 4,
                enum: ['sentiment', 'topics', 'intent', 'keywords'],
            },
            categories: {
                type: 'object',
            },
            llm_provider: {
                type: 'string',
                enum: ['model-2.0-flash', 'model-1.5-pro'],
            },
        },
    },
};
export const ENRICHMENT_TYPES = ['sentiment', 'topics', 'intent', 'keywords'];
export const LLM_PROVIDERS = ['model-2.0-flash', 'model-1.5-pro'];
/** The server's price table, in millicredits (MILLI per credit). */
export const MILLI = 1000;
/** base charge and per-item charge of each endpoint, before enrichment */
export const RATES = {
    'clipnet.posts': {
        base: 1000,
        perItem: 1000,
    },
    'picnet.posts': {
        base: 1000,
        perItem: 1000,
    },
    'clipnet.comments': {
        base: 1000,
        perItem: 500,
    },
    'picnet.comments': {
        base: 1000,
        perItem: 500,
    },
    'vidnet.comments': {
        base: 1000,
        perItem: 500,
    },
    'clipnet.bulk_posts': {
        base: 2000,
        perItem: 1000,
    },
    'clipnet.hashtag_posts': {
        base: 2000,
        perItem: 1000,
    },
    'picnet.hashtag_posts': {
        base: 2000,
        perItem: 1000,
    },
    'vidnet.search': {
        base: 2000,
        perItem: 1000,
    },
    'vidnet.hashtag_search': {
        base: 2000,
        perItem: 1000,
    },
    'vidnet.channel_videos': {
        base: 2000,
        perItem: 1000,
    },
    'vidnet.channel_shorts': {
        base: 2000,
        perItem: 1000,
    },
    'blipnet.posts': {
        base: 1000,
        perItem: 1000,
    },
    'blipnet.comments': {
        base: 1000,
        perItem: 500,
    },
    'blipnet.search': {
        base: 2000,
        perItem: 1000,
    },
    'blipnet.hashtag_posts': {
        base: 2000,
        perItem: 1000,
    },
    'ml.analyze': {
        base: 0,
        perItem: 0,
    },
};
/** per returned item (per text on analyze), per enrichment type */
export const ENRICHMENT_RATES = {
    sentiment: 500,
    topics: 1000,
    intent: 1000,
    keywords: 500,
};
/** factor on the enrichment part of a charge */
export const PROVIDER_MULTIPLIER = {
    'model-2.0-flash': 1,
    'model-1.5-pro': 1,
};
export const BOUNDS = {
    'clipnet.posts': {
        cap: 'limit',
        unit: 1,
    },
    'picnet.posts': {
        cap: 'limit',
        unit: 1,
    },
    'clipnet.comments': {
        cap: 'limit_per_post',
        targets: 'post_urls',
        unit: 1,
    },
    'picnet.comments': {
        cap: 'limit_per_post',
        targets: 'post_urls',
        unit: 1,
    },
    'vidnet.comments': {
        cap: 'limit_per_post',
        targets: 'post_urls',
        unit: 1,
    },
    'clipnet.bulk_posts': {
        cap: 'limit_per_user',
        targets: 'usernames',
        unit: 1,
    },
    'clipnet.hashtag_posts': {
        cap: 'max_posts_per_hashtag',
        targets: 'hashtags',
        unit: 1,
    },
    'picnet.hashtag_posts': {
        cap: 'max_posts_per_hashtag',
        targets: 'hashtags',
        unit: 1,
    },
    'vidnet.search': {
        cap: 'max_posts_per_keyword',
        targets: 'keywords',
        unit: 1,
    },
    'vidnet.hashtag_search': {
        cap: 'depth',
        targets: 'hashtags',
        unit: 20,
    },
    'vidnet.channel_videos': {
        cap: 'depth',
        targets: 'browse_ids',
        unit: 20,
    },
    'vidnet.channel_shorts': {
        targets: 'browse_ids',
        unit: 1,
        fixed: 50,
    },
    'blipnet.posts': {
        cap: 'limit',
        unit: 1,
    },
    'blipnet.comments': {
        cap: 'limit_per_post',
        targets: 'post_urls',
        unit: 1,
    },
    'blipnet.search': {
        cap: 'max_posts_per_keyword',
        targets: 'keywords',
        unit: 1,
    },
    'blipnet.hashtag_posts': {
        cap: 'max_posts_per_hashtag',
        targets: 'hashtags',
        unit: 1,
    },
    'ml.analyze': {
        targets: 'texts',
        unit: 1,
        fixed: 1,
    },
};
