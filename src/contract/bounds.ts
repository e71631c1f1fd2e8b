// How many items a request can return at most, from its body: the bounds the server itself caps
// a request at (src/services/content.ts). With the price table they give a request's worst-case
// cost (the CLI's --max-credits, the dashboard's playground).
import type { EndpointId } from './endpoints.js';

/** One upstream page per unit of `depth` is about 20 videos; the server caps it at exactly 20. */
const PER_DEPTH = 20;
/** The server asks at most one page of 50 Shorts per channel (SHORTS_PER_CHANNEL). */
const SHORTS_PER_CHANNEL = 50;

/** How a request's item count is bounded: `targets × unit × body[cap]`, or a fixed count. */
export interface Bound {
  /** the body field that caps items per target, and that --max-credits may lower */
  cap?: string;
  /** list field whose length multiplies the bound */
  targets?: string;
  unit: number;
  /** a fixed per-target bound when there is no cap field */
  fixed?: number;
}

export const BOUNDS: Record<EndpointId, Bound> = {
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
  'blipnet.posts': { cap: 'limit', unit: 1 },
  'blipnet.comments': { cap: 'limit_per_post', targets: 'post_urls', unit: 1 },
  'blipnet.search': { cap: 'max_posts_per_keyword', targets: 'keywords', unit: 1 },
  'blipnet.hashtag_posts': { cap: 'max_posts_per_hashtag', targets: 'hashtags', unit: 1 },
  'ml.analyze': { targets: 'texts', unit: 1, fixed: 1 },
};
