import type { EndpointId } from '../../src/contract/endpoints.js';

/** a valid body per endpoint that the fake sources answer with items */
export const VALID_BODIES: Record<EndpointId, Record<string, unknown>> = {
  'clipnet.posts': { username: 'alice', limit: 5 },
  'clipnet.comments': {
    post_urls: ['https://www.clipnet.com/@x/video/7123456789012345678'],
    limit_per_post: 5,
  },
  'clipnet.bulk_posts': { usernames: ['alice', 'bob'], limit_per_user: 2 },
  'clipnet.hashtag_posts': { hashtags: ['fun'], max_posts_per_hashtag: 5 },
  'picnet.posts': { username: 'alice', limit: 5 },
  'picnet.comments': { post_urls: ['https://www.picnet.com/p/AbCdEfGhIjK/'], limit_per_post: 5 },
  'picnet.hashtag_posts': { hashtags: ['travel'], max_posts_per_hashtag: 5 },
  'vidnet.search': { keywords: ['review'], max_posts_per_keyword: 5 },
  'vidnet.hashtag_search': { hashtags: ['gaming'], depth: 1 },
  'vidnet.comments': { post_urls: ['https://www.vidnet.com/watch?v=AbCdEfGhIjK'], limit_per_post: 5 },
  'vidnet.channel_videos': { browse_ids: ['UCabcdefghijklmnopqrstuv'], depth: 1 },
  'vidnet.channel_shorts': { browse_ids: ['UCabcdefghijklmnopqrstuv'] },
  'blipnet.posts': { username: 'alice', limit: 5 },
  'blipnet.comments': {
    post_urls: ['https://blipnet.app/profile/alice.blipnet.social/post/3kabcdefghijk'],
    limit_per_post: 5,
  },
  'blipnet.search': { keywords: ['review'], max_posts_per_keyword: 5 },
  'blipnet.hashtag_posts': { hashtags: ['fun'], max_posts_per_hashtag: 5 },
  'ml.analyze': { texts: ['I love it', 'meh'], enrich: ['sentiment'] },
};

/** the key of data holding the items, per endpoint */
export const ITEMS_KEY: Record<EndpointId, string> = {
  'clipnet.posts': 'posts',
  'clipnet.comments': 'comments',
  'clipnet.bulk_posts': 'users',
  'clipnet.hashtag_posts': 'posts',
  'picnet.posts': 'posts',
  'picnet.comments': 'comments',
  'picnet.hashtag_posts': 'posts',
  'vidnet.search': 'videos',
  'vidnet.hashtag_search': 'videos',
  'vidnet.comments': 'comments',
  'vidnet.channel_videos': 'videos',
  'vidnet.channel_shorts': 'shorts',
  'blipnet.posts': 'posts',
  'blipnet.comments': 'comments',
  'blipnet.search': 'posts',
  'blipnet.hashtag_posts': 'posts',
  'ml.analyze': 'results',
};
