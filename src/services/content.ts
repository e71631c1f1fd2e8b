// The verbs behind the content endpoints: turn a validated request into a billed call against
// the platform source. One function per endpoint; the shared mechanics live in billed-call.ts
// (money) and targets.ts (several targets in one request).

import type { Metadata } from '../contract/common.js';
import type {
  BlipnetCommentsBody,
  BulkPostsBody,
  ChannelShortsBody,
  ChannelVideosBody,
  HashtagPostsBody,
  PostCommentsBody,
  UserPostsBody,
  VidnetCommentsBody,
  VidnetHashtagBody,
  VidnetSearchBody,
} from '../contract/endpoints.js';
import type {
  ClipnetPost,
  Enrichment,
  HashtagPost,
  PicnetPost,
  PostComment,
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
} from '../contract/items.js';
import { badRequest } from '../errors.js';
import type {
  ClipnetSource,
  Page,
  PicnetSource,
  Platform,
  PostRef,
  SourceCallContext,
  SourceInfo,
  Sources,
  VidnetSearchResult,
} from '../sources/interface.js';
import {
  type CallContext,
  type CallDeps,
  enrichOptions,
  type Reply,
  runBilledCall,
  SkipTally,
  sourceContext,
} from './billed-call.js';

type EnrichBody = Parameters<typeof enrichOptions>[0];

import { dedupeBy } from '../dedupe.js';
import { parsePostRef } from './post-refs.js';
import { collectTargets } from './targets.js';

export interface ContentDeps extends CallDeps {
  sources: Sources;
}

export const stripAt = (u: string) => u.replace(/^@/, '');
export const stripHash = (h: string) => h.replace(/^#/, '');
// Targets are deduplicated before pricing, keeping the caller's first spelling: handles,
// hashtags and keywords compare without case, post URLs by the post they name.
export const caseless = (s: string) => s.toLowerCase();
const videoText = (v: { title: string; description: string }) =>
  v.description ? `${v.title}\n${v.description}` : v.title;

function parseRefs(platform: Platform, urls: string[]): PostRef[] {
  const refs: PostRef[] = [];
  const details: Array<{ field: string; message: string }> = [];
  urls.forEach((u, i) => {
    const ref = parsePostRef(platform, u);
    if (ref) refs.push(ref);
    else details.push({ field: `post_urls[${i}]`, message: `no ${platform} post id can be read from it` });
  });
  if (details.length > 0) throw badRequest('Some post_urls name no post', details);
  return refs;
}

// ---- user posts (clipnet, picnet) ----

export function userPosts(
  deps: ContentDeps,
  ctx: CallContext,
  platform: 'clipnet' | 'picnet',
  body: UserPostsBody,
): Promise<Reply> {
  const source: ClipnetSource | PicnetSource = deps.sources[platform];
  let page: Page<ClipnetPost | PicnetPost> | undefined;
  const skips = new SkipTally();
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: body.limit,
    minItems: 0,
    fetch: async (cap) => {
      page = await source.userPosts(
        { username: stripAt(body.username), limit: Math.max(1, cap), cursor: body.cursor },
        sourceContext(ctx, true, skips.onSkip),
      );
      const items = page.items.map((p) => p.item);
      const skipped = skips.warning(body.username);
      return { items, warnings: skipped ? [skipped] : [] };
    },
    text: (p) => p.caption,
    data: (items, _f, count) => {
      const all = page?.items ?? [];
      // a result cut short by the balance continues right after its last returned item
      const complete = count >= all.length;
      const cursor = count > 0 ? all[count - 1]!.cursor : (body.cursor ?? null);
      const hasMore = complete ? (page?.hasMore ?? false) : true;
      return { posts: items, cursor: hasMore ? cursor : null, has_more: hasMore };
    },
  });
}

// ---- calls naming several targets ----

export interface MultiTargetCall<R, T, D> {
  source: SourceInfo;
  body: EnrichBody;
  targets: readonly string[];
  /** the most items one target can give */
  perTarget: number;
  /** what the items are, for the warning of a target that gave none */
  what: string;
  /** `sctx` is the source context of this target (it tallies the items the backend left out) */
  run: (target: string, index: number, max: number, sctx: SourceCallContext) => Promise<R>;
  items: (result: R) => T[];
  text: (item: T) => string;
  data: (items: Array<T & { enrichment?: Enrichment }>) => D;
  meta?: (results: R[]) => Partial<Metadata>;
}

/** Asks each target for at most what the balance covers, keeps the items in target order, and
 *  warns about each target that produced nothing. */
export function multiTarget<R, T, D>(
  deps: ContentDeps,
  ctx: CallContext,
  call: MultiTargetCall<R, T, D>,
): Promise<Reply> {
  return runBilledCall(deps, ctx, {
    source: call.source.kind,
    enrich: enrichOptions(call.body),
    maxItems: call.targets.length * call.perTarget,
    minItems: 0,
    fetch: async (cap) => {
      const max = Math.max(1, Math.min(call.perTarget, cap));
      const tallies = call.targets.map(() => new SkipTally());
      const c = await collectTargets(call.targets, (t, i) =>
        call.run(t, i, max, sourceContext(ctx, false, tallies[i]!.onSkip)),
      );
      const empty = c.results
        .filter((r) => call.items(r.value).length === 0)
        .map((r) => ({ target: r.target, code: 'NO_RESULTS', message: `no ${call.what} found` }));
      const skipped = call.targets.flatMap((t, i) => tallies[i]!.warning(t) ?? []);
      return {
        items: c.results.flatMap((r) => call.items(r.value)).slice(0, Math.max(1, cap)),
        warnings: [...c.warnings, ...empty, ...skipped],
        meta: call.meta?.(c.results.map((r) => r.value)),
      };
    },
    text: call.text,
    data: call.data,
  });
}

// ---- comments (clipnet, picnet, vidnet) ----

/** comments of every post a request names, each post a target */
export function commentsCall<C extends { text: string }>(
  deps: ContentDeps,
  ctx: CallContext,
  platform: Platform,
  body: PostCommentsBody | VidnetCommentsBody | BlipnetCommentsBody,
  fetch: (ref: PostRef, limit: number, sctx: SourceCallContext) => Promise<C[]>,
): Promise<Reply> {
  // one post named in several URL forms is one target
  const refs = dedupeBy(parseRefs(platform, body.post_urls), (r) => `${r.form}:${r.id}`);
  return multiTarget(deps, ctx, {
    source: deps.sources[platform],
    body,
    targets: refs.map((r) => r.input),
    perTarget: body.limit_per_post,
    what: 'comments',
    run: (_t, i, limit, sctx) => fetch(refs[i]!, limit, sctx),
    items: (comments: C[]) => comments,
    text: (c) => c.text,
    data: (comments) => ({ comments }),
  });
}

export function postComments(
  deps: ContentDeps,
  ctx: CallContext,
  platform: 'clipnet' | 'picnet',
  body: PostCommentsBody,
): Promise<Reply> {
  const source = deps.sources[platform];
  return commentsCall(
    deps,
    ctx,
    platform,
    body,
    (post, limit, sctx): Promise<PostComment[]> => source.comments({ post, limit }, sctx),
  );
}

export function vidnetComments(
  deps: ContentDeps,
  ctx: CallContext,
  body: VidnetCommentsBody,
): Promise<Reply> {
  const source = deps.sources.vidnet;
  return commentsCall(
    deps,
    ctx,
    'vidnet',
    body,
    (video, limit, sctx): Promise<VidnetComment[]> => source.comments({ video, limit }, sctx),
  );
}

// ---- bulk posts (clipnet) ----

export function bulkPosts(deps: ContentDeps, ctx: CallContext, body: BulkPostsBody): Promise<Reply> {
  const source = deps.sources.clipnet;
  return multiTarget(deps, ctx, {
    source,
    body,
    targets: dedupeBy(body.usernames.map(stripAt), caseless),
    perTarget: body.limit_per_user,
    what: 'posts',
    run: async (username, _i, limit, sctx) => ({
      username,
      page: await source.userPosts({ username, limit }, sctx),
    }),
    items: (r: { username: string; page: Page<ClipnetPost> }) =>
      r.page.items.map((p) => ({ owner: r.username, post: p.item })),
    text: (i) => i.post.caption,
    data: (items) => {
      const users: Array<{ username: string; posts: ClipnetPost[] }> = [];
      for (const { owner, post, enrichment } of items) {
        const p = enrichment ? { ...post, enrichment } : post;
        const last = users[users.length - 1];
        if (last && last.username === owner) last.posts.push(p);
        else users.push({ username: owner, posts: [p] });
      }
      return { users };
    },
  });
}

// ---- hashtag posts (clipnet, picnet) ----

export function hashtagPosts(
  deps: ContentDeps,
  ctx: CallContext,
  platform: 'clipnet' | 'picnet',
  body: HashtagPostsBody,
): Promise<Reply> {
  const source = deps.sources[platform];
  const tags = dedupeBy(body.hashtags.map(stripHash), caseless);
  return multiTarget(deps, ctx, {
    source,
    body,
    targets: tags,
    perTarget: body.max_posts_per_hashtag,
    what: 'posts',
    run: (hashtag, _i, max, sctx) => source.hashtagPosts({ hashtag, days: body.days, max }, sctx),
    items: (posts: HashtagPost[]) => posts,
    text: (p) => p.post_text,
    data: (posts) => ({ posts, hashtags: tags, days: body.days, total_posts: posts.length }),
  });
}

// ---- vidnet ----

/** one unit of depth is one upstream results page of about 20 videos */
const PAGE_SIZE = 20;

export function vidnetSearch(deps: ContentDeps, ctx: CallContext, body: VidnetSearchBody): Promise<Reply> {
  const source = deps.sources.vidnet;
  const keywords = dedupeBy(
    body.keywords.map((k) => k.trim()),
    (k) => caseless(k.replace(/\s+/g, ' ')),
  );
  return multiTarget(deps, ctx, {
    source,
    body,
    targets: keywords,
    perTarget: body.max_posts_per_keyword,
    what: 'videos',
    run: (keyword, _i, max, sctx) =>
      source.search({ keyword, max, depth: body.depth, period: body.period, sorting: body.sorting }, sctx),
    items: (r: VidnetSearchResult) => r.videos,
    text: videoText,
    data: (videos) => ({ videos, keywords, total_videos: videos.length }),
    meta: (results) => ({
      sorting_applied: results.some((r) => r.sortingApplied === 'emulated') ? 'emulated' : 'native',
    }),
  });
}

export function vidnetHashtag(deps: ContentDeps, ctx: CallContext, body: VidnetHashtagBody): Promise<Reply> {
  const source = deps.sources.vidnet;
  const tags = dedupeBy(body.hashtags.map(stripHash), caseless);
  return multiTarget(deps, ctx, {
    source,
    body,
    targets: tags,
    perTarget: body.depth * PAGE_SIZE,
    what: 'videos',
    run: (hashtag, _i, max, sctx) =>
      source.hashtag({ hashtag, depth: body.depth, onlyShorts: body.only_shorts, max }, sctx),
    items: (videos: VidnetHashtagVideo[]) => videos,
    text: videoText,
    data: (videos) => ({ videos, hashtags: tags, total_videos: videos.length }),
  });
}

export function channelVideos(deps: ContentDeps, ctx: CallContext, body: ChannelVideosBody): Promise<Reply> {
  const source = deps.sources.vidnet;
  const ids = [...new Set(body.browse_ids)];
  return multiTarget(deps, ctx, {
    source,
    body,
    targets: ids,
    perTarget: body.depth * PAGE_SIZE,
    what: 'videos',
    run: (browseId, _i, max, sctx) => source.channelVideos({ browseId, depth: body.depth, max }, sctx),
    items: (videos: VidnetChannelVideo[]) => videos,
    text: videoText,
    data: (videos) => ({ videos, browse_ids: ids, total_videos: videos.length }),
  });
}

/** Shorts per channel asked of the platform: one page of the channel's Shorts tab */
export const SHORTS_PER_CHANNEL = 50;

export function channelShorts(deps: ContentDeps, ctx: CallContext, body: ChannelShortsBody): Promise<Reply> {
  const source = deps.sources.vidnet;
  const ids = [...new Set(body.browse_ids)];
  return multiTarget(deps, ctx, {
    source,
    body,
    targets: ids,
    perTarget: SHORTS_PER_CHANNEL,
    what: 'Shorts',
    run: (browseId, _i, max, sctx) => source.channelShorts({ browseId, max }, sctx),
    items: (shorts: VidnetChannelVideo[]) => shorts,
    text: videoText,
    data: (shorts) => ({ shorts, browse_ids: ids, total_shorts: shorts.length }),
  });
}
