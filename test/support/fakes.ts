// Test doubles at the two seams: platform sources and the enricher. A fake can play a local
// source ('sandbox' kind: one-step charge) or a remote one ('live' kind: hold → settle).
import type {
  BlipnetPost,
  ClipnetPost,
  Enrichment,
  HashtagPost,
  PicnetPost,
  PostComment,
  VidnetChannelVideo,
  VidnetComment,
  VidnetVideo,
} from '../../src/contract/items.js';
import type { Enricher, EnrichRequest } from '../../src/enrichment/interface.js';
import {
  type BlipnetSource,
  type ClipnetSource,
  type Page,
  type PicnetSource,
  SourceError,
  type Sources,
  type VidnetSource,
} from '../../src/sources/interface.js';

export interface FakeOptions {
  kind?: 'sandbox' | 'live';
  /** target (username, post id, hashtag, keyword, browse id) → error thrown for it */
  failures?: Map<string, SourceError>;
  /** called before every source call (to delay or count) */
  onCall?: (op: string, target: string) => Promise<void> | void;
}

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 15, 12);
const iso = (i: number) => new Date(T0 - i * 3600_000).toISOString();

export const USERS: Record<string, number> = { alice: 25, bob: 3, empty: 0 };

function clipnetPost(user: string, i: number): ClipnetPost {
  return {
    id: `7${String(i).padStart(18, '0')}`,
    caption: `${user} post ${i} I love this #fun`,
    url: `https://www.clipnet.com/@${user}/video/7${String(i).padStart(18, '0')}`,
    timestamp: iso(i),
    stats: { views: 1000 - i, likes: 100, comments: 10, shares: 1 },
  };
}

function picnetPost(user: string, i: number): PicnetPost {
  const code = `${user.slice(0, 3)}${String(i).padStart(8, '0')}`;
  return {
    id: `${1000 + i}`,
    shortcode: code,
    caption: `${user} photo ${i} awful service`,
    url: `https://www.picnet.com/p/${code}/`,
    timestamp: iso(i),
    media_type: 'image',
    stats: { likes: 5, comments: 1 },
  };
}

function page<T>(all: T[], limit: number, cursor?: string): Page<T> {
  let start = 0;
  if (cursor !== undefined) {
    if (!/^\d+$/.test(cursor)) throw new SourceError('bad_cursor', 'malformed cursor');
    start = Number(cursor);
  }
  const slice = all.slice(start, start + limit);
  return {
    items: slice.map((item, i) => ({ item, cursor: String(start + i + 1) })),
    hasMore: start + slice.length < all.length,
  };
}

function comments(postUrl: string, n: number): PostComment[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    post_url: postUrl,
    text: `comment ${i} love it`,
    user: `@fan${i}`,
    timestamp: iso(i),
    likes: i,
  }));
}

function video(id: string, extra: Record<string, unknown>, i: number): VidnetVideo {
  return {
    video_id: id,
    title: `Video ${i} review`,
    description: 'a review',
    channel_id: 'UCaaaaaaaaaaaaaaaaaaaaaa',
    channel_title: 'Chan',
    published_at: iso(i),
    thumbnail: `https://img.vidnet.com/${id}.jpg`,
    stats: { views: 100 * i, likes: i, comments: i },
    source_keyword: '',
    ...extra,
  } as VidnetVideo;
}

export function fakeSources(opts: FakeOptions = {}): Sources & { calls: string[] } {
  const kind = opts.kind ?? 'sandbox';
  const calls: string[] = [];
  const check = async (op: string, target: string) => {
    calls.push(`${op}:${target}`);
    await opts.onCall?.(op, target);
    const f = opts.failures?.get(target);
    if (f) throw f;
  };
  const user = (u: string) => {
    const n = USERS[u.toLowerCase()];
    if (n === undefined) throw new SourceError('not_found', `user ${u} not found`);
    return n;
  };
  const clipnet: ClipnetSource = {
    name: 'fake',
    kind,
    async userPosts(q) {
      await check('userPosts', q.username);
      const n = user(q.username);
      return page(
        Array.from({ length: n }, (_, i) => clipnetPost(q.username, i)),
        q.limit,
        q.cursor,
      );
    },
    async comments(q) {
      await check('comments', q.post.id);
      if (q.post.id.startsWith('9')) throw new SourceError('not_found', 'post not found');
      return comments(`https://www.clipnet.com/@x/video/${q.post.id}`, Math.min(q.limit, 30));
    },
    async hashtagPosts(q) {
      await check('hashtag', q.hashtag);
      if (q.hashtag === 'nothing') return [];
      return Array.from(
        { length: Math.min(q.max, 40) },
        (_, i): HashtagPost => ({
          post_id: `${q.hashtag}-${i}`,
          post_text: `post about #${q.hashtag} ${i}`,
          post_time: String(Math.floor((T0 - i * DAY) / 1000)),
          profile_id: '1',
          profile_name: 'someone',
          reaction_count: i,
          share_count: 1,
          play_count: 10,
          comment_count: 2,
          source_name: q.hashtag,
          post_url: `www.clipnet.com/@someone/video/${i}`,
        }),
      );
    },
  };
  const picnet: PicnetSource = {
    name: 'fake',
    kind,
    async userPosts(q) {
      await check('userPosts', q.username);
      const n = /^\d+$/.test(q.username) ? 4 : user(q.username);
      return page(
        Array.from({ length: n }, (_, i) => picnetPost(q.username, i)),
        q.limit,
        q.cursor,
      );
    },
    async comments(q) {
      await check('comments', q.post.id);
      if (q.post.id.startsWith('zz')) throw new SourceError('not_found', 'post not found');
      return comments(`https://www.picnet.com/p/${q.post.id}/`, Math.min(q.limit, 30));
    },
    async hashtagPosts(q) {
      await check('hashtag', q.hashtag);
      return Array.from(
        { length: Math.min(q.max, 40) },
        (_, i): HashtagPost => ({
          post_id: `${q.hashtag}-${i}`,
          post_text: `photo #${q.hashtag} ${i}`,
          post_time: String(Math.floor((T0 - i * DAY) / 1000)),
          profile_id: '1',
          profile_name: 'someone',
          reaction_count: i,
          comment_count: 2,
          source_name: q.hashtag,
          post_url: `www.picnet.com/p/abc${i}/`,
        }),
      );
    },
  };
  const channel = (q: { browseId: string; max: number }, shorts: boolean): VidnetChannelVideo[] => {
    if (!q.browseId.startsWith('UC')) throw new SourceError('not_found', 'channel not found');
    if (shorts && q.browseId === 'UCnoshorts') return [];
    return Array.from({ length: Math.min(q.max, 30) }, (_, i) => ({
      ...video(`ch${String(i).padStart(9, '0')}`, {}, i),
      source_keyword: undefined,
      source_browse_id: q.browseId,
      duration_seconds: shorts ? 30 : 600,
      is_short: shorts,
    })) as unknown as VidnetChannelVideo[];
  };
  const vidnet: VidnetSource = {
    name: 'fake',
    kind,
    async search(q) {
      await check('search', q.keyword);
      const n = Math.min(q.max, q.depth * 20, 45);
      return {
        videos: Array.from({ length: n }, (_, i) =>
          video(`v${String(i).padStart(10, '0')}`, { source_keyword: q.keyword }, i),
        ),
        sortingApplied: 'native',
      };
    },
    async hashtag(q) {
      await check('vhashtag', q.hashtag);
      const n = Math.min(q.max, q.depth * 20);
      return Array.from({ length: n }, (_, i) => {
        const v = video(`h${String(i).padStart(10, '0')}`, {}, i) as Record<string, unknown>;
        delete v.source_keyword;
        return { ...v, source_hashtag: q.hashtag, is_short: q.onlyShorts, duration_seconds: 30 } as never;
      });
    },
    async comments(q) {
      await check('vcomments', q.video.id);
      if (q.video.id === 'missingvid0') throw new SourceError('not_found', 'video not found');
      return Array.from(
        { length: Math.min(q.limit, 30) },
        (_, i): VidnetComment => ({
          id: `vc${i}`,
          video_id: q.video.id,
          text: `nice ${i}`,
          author: 'someone',
          timestamp: iso(i),
          likes: i,
        }),
      );
    },
    async channelVideos(q) {
      await check('channel', q.browseId);
      return channel(q, false);
    },
    async channelShorts(q) {
      await check('shorts', q.browseId);
      return channel(q, true);
    },
  };
  const blip = (user: string, i: number): BlipnetPost => ({
    id: `at://did:plc:${user}/app.bsky.feed.post/3k${String(i).padStart(11, '0')}`,
    url: `https://blipnet.app/profile/${user}.blipnet.social/post/3k${String(i).padStart(11, '0')}`,
    text: `${user} blip ${i} I love this #fun`,
    timestamp: iso(i),
    author: { id: `did:plc:${user}`, handle: `${user}.blipnet.social`, display_name: null },
    stats: { replies: 1, reposts: 2, likes: 3, quotes: null },
    language: 'en',
    links: [],
    media_urls: [],
    hashtags: ['fun'],
    mentions: [],
    parent_id: null,
    quote_of: null,
    is_reply: false,
    is_repost: i % 5 === 4,
    reposted_at: i % 5 === 4 ? iso(i) : null,
  });
  const { is_reply: _r, is_repost: _p, reposted_at: _a, ...blipBase } = blip('x', 0);
  const blipnet: BlipnetSource = {
    name: 'fake',
    kind,
    async userPosts(q) {
      await check('userPosts', q.username);
      const name = q.username.replace(/\.blipnet\.social$/, '');
      const n = user(name);
      return page(
        Array.from({ length: n }, (_, i) => blip(name, i)),
        q.limit,
        q.cursor,
      );
    },
    async replies(q) {
      await check('replies', q.post.id);
      if (q.post.id.includes('/gone')) throw new SourceError('not_found', 'post not found');
      return Array.from({ length: Math.min(q.limit, 30) }, (_, i) => ({
        ...blipBase,
        id: `${q.post.id}-r${i}`,
        text: `reply ${i} love it`,
        parent_id: q.post.id,
        post_url: q.post.input,
        depth: 1,
      }));
    },
    async search(q) {
      await check('bsearch', q.keyword);
      const all = Array.from({ length: Math.min(q.max, q.depth * 25, 45) }, (_, i) => ({
        ...blipBase,
        id: `${blipBase.id}-${q.keyword}-${i}`,
        source_keyword: q.keyword,
      }));
      return page(all, all.length, q.cursor);
    },
    async hashtagPosts(q) {
      await check('bhashtag', q.hashtag);
      if (q.hashtag === 'nothing') return [];
      return Array.from({ length: Math.min(q.max, 40) }, (_, i) => ({
        ...blipBase,
        id: `${blipBase.id}-${q.hashtag}-${i}`,
        source_hashtag: q.hashtag,
      }));
    },
  };
  return { clipnet, picnet, vidnet, blipnet, calls, async close() {} };
}

export interface FakeEnricherOptions {
  local?: boolean;
  fail?: Error;
}

export function fakeEnricher(opts: FakeEnricherOptions = {}): Enricher & { requests: EnrichRequest[] } {
  const requests: EnrichRequest[] = [];
  return {
    requests,
    async enrich(req) {
      requests.push(req);
      if (opts.fail) throw opts.fail;
      return req.texts.map((t): Enrichment => {
        const e: Enrichment = {};
        const positive = /love|great/i.test(t);
        if (req.types.includes('sentiment')) {
          e.sentiment = positive ? 'positive' : 'neutral';
          e.sentiment_score = positive ? 0.8 : 0;
        }
        if (req.types.includes('topics')) e.topics = req.categories?.topic ? [] : ['general'];
        if (req.types.includes('intent')) e.intent = 'engagement';
        if (req.types.includes('keywords')) e.keywords = t.toLowerCase().split(/\s+/).slice(0, 3);
        return e;
      });
    },
    isLocal: () => opts.local ?? true,
    async close() {},
  };
}
