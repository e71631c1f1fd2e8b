// The verbs behind the content endpoints: turn a validated request into a billed call against
// the platform source. One function per endpoint; the shared mechanics live in billed-call.ts
// (money) and targets.ts (several targets in one request).
import type {
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
  HashtagPost,
  PicnetPost,
  PostComment,
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../contract/items.js';
import { badRequest } from '../errors.js';
import type { ClipnetSource, Page, PicnetSource, Platform, PostRef, Sources } from '../sources/interface.js';
import { type CallContext, type CallDeps, enrichOptions, type Reply, runBilledCall } from './billed-call.js';
import { parsePostRef } from './post-refs.js';
import { collectTargets, emptyTargetWarnings } from './targets.js';

export interface ContentDeps extends CallDeps {
  sources: Sources;
}

const stripAt = (u: string) => u.replace(/^@/, '');
const stripHash = (h: string) => h.replace(/^#/, '');
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
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: body.limit,
    minItems: 0,
    fetch: async (cap) => {
      page = await source.userPosts(
        { username: stripAt(body.username), limit: Math.max(1, cap), cursor: body.cursor },
        { signal: ctx.signal, requestId: ctx.requestId },
      );
      const items = cap === 0 ? [] : page.items.map((p) => p.item);
      return { items, warnings: [] };
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

// ---- comments (clipnet, picnet, vidnet) ----

export function postComments(
  deps: ContentDeps,
  ctx: CallContext,
  platform: 'clipnet' | 'picnet',
  body: PostCommentsBody,
): Promise<Reply> {
  const refs = parseRefs(platform, body.post_urls);
  const source = deps.sources[platform];
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: refs.length * body.limit_per_post,
    minItems: 0,
    fetch: async (cap) => {
      const per = Math.max(1, Math.min(body.limit_per_post, cap));
      const c = await collectTargets(
        refs.map((r) => r.input),
        (_t, i) => source.comments({ post: refs[i]!, limit: per }, { signal: ctx.signal }),
      );
      const items: PostComment[] = c.results.flatMap((r) => r.value).slice(0, cap);
      return { items, warnings: [...c.warnings, ...emptyTargetWarnings(c, 'comments')] };
    },
    text: (c) => c.text,
    data: (comments) => ({ comments }),
  });
}

export function vidnetComments(
  deps: ContentDeps,
  ctx: CallContext,
  body: VidnetCommentsBody,
): Promise<Reply> {
  const refs = parseRefs('vidnet', body.post_urls);
  const source = deps.sources.vidnet;
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: refs.length * body.limit_per_post,
    minItems: 0,
    fetch: async (cap) => {
      const per = Math.max(1, Math.min(body.limit_per_post, cap));
      const c = await collectTargets(
        refs.map((r) => r.input),
        (_t, i) => source.comments({ video: refs[i]!, limit: per }, { signal: ctx.signal }),
      );
      const items: VidnetComment[] = c.results.flatMap((r) => r.value).slice(0, cap);
      return { items, warnings: [...c.warnings, ...emptyTargetWarnings(c, 'comments')] };
    },
    text: (c) => c.text,
    data: (comments) => ({ comments }),
  });
}

// ---- bulk posts (clipnet) ----

export function bulkPosts(deps: ContentDeps, ctx: CallContext, body: BulkPostsBody): Promise<Reply> {
  const source = deps.sources.clipnet;
  const usernames = [...new Set(body.usernames.map(stripAt))];
  let owners: string[] = [];
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: usernames.length * body.limit_per_user,
    minItems: 0,
    fetch: async (cap) => {
      const per = Math.max(1, Math.min(body.limit_per_user, cap));
      const c = await collectTargets(usernames, (u) =>
        source.userPosts({ username: u, limit: per }, { signal: ctx.signal }),
      );
      const items: ClipnetPost[] = [];
      owners = [];
      for (const r of c.results)
        for (const p of r.value.items) {
          items.push(p.item);
          owners.push(r.target);
        }
      const warnings = [
        ...c.warnings,
        ...c.results
          .filter((r) => r.value.items.length === 0)
          .map((r) => ({ target: r.target, code: 'NO_RESULTS', message: 'the user has no posts' })),
      ];
      return { items: items.slice(0, cap), warnings };
    },
    text: (p) => p.caption,
    data: (items) => {
      const users: Array<{ username: string; posts: ClipnetPost[] }> = [];
      items.forEach((p, i) => {
        const username = owners[i]!;
        const last = users[users.length - 1];
        if (last && last.username === username) last.posts.push(p);
        else users.push({ username, posts: [p] });
      });
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
  const tags = [...new Set(body.hashtags.map(stripHash))];
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: tags.length * body.max_posts_per_hashtag,
    minItems: 0,
    fetch: async (cap) => {
      const max = Math.max(1, Math.min(body.max_posts_per_hashtag, cap));
      const c = await collectTargets(tags, (hashtag) =>
        source.hashtagPosts({ hashtag, days: body.days, max }, { signal: ctx.signal }),
      );
      const items: HashtagPost[] = c.results.flatMap((r) => r.value).slice(0, cap);
      return { items, warnings: [...c.warnings, ...emptyTargetWarnings(c, 'posts')] };
    },
    text: (p) => p.post_text,
    data: (posts) => ({ posts, hashtags: tags, days: body.days, total_posts: posts.length }),
  });
}

// ---- vidnet ----

export function vidnetSearch(deps: ContentDeps, ctx: CallContext, body: VidnetSearchBody): Promise<Reply> {
  const source = deps.sources.vidnet;
  const keywords = [...new Set(body.keywords.map((k) => k.trim()))];
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: keywords.length * body.max_posts_per_keyword,
    minItems: 0,
    fetch: async (cap) => {
      const max = Math.max(1, Math.min(body.max_posts_per_keyword, cap));
      const c = await collectTargets(keywords, (keyword) =>
        source.search(
          { keyword, max, depth: body.depth, period: body.period, sorting: body.sorting },
          { signal: ctx.signal },
        ),
      );
      const items: VidnetVideo[] = c.results.flatMap((r) => r.value.videos).slice(0, cap);
      const emulated = c.results.some((r) => r.value.sortingApplied === 'emulated');
      const empty = c.results
        .filter((r) => r.value.videos.length === 0)
        .map((r) => ({ target: r.target, code: 'NO_RESULTS', message: 'no videos found' }));
      return {
        items,
        warnings: [...c.warnings, ...empty],
        meta: { sorting_applied: emulated ? 'emulated' : 'native' },
      };
    },
    text: videoText,
    data: (videos) => ({ videos, keywords, total_videos: videos.length }),
  });
}

export function vidnetHashtag(deps: ContentDeps, ctx: CallContext, body: VidnetHashtagBody): Promise<Reply> {
  const source = deps.sources.vidnet;
  const tags = [...new Set(body.hashtags.map(stripHash))];
  // one unit of depth is one upstream results page of about 20 videos
  const perTag = body.depth * 20;
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: tags.length * perTag,
    minItems: 0,
    fetch: async (cap) => {
      const max = Math.max(1, Math.min(perTag, cap));
      const c = await collectTargets(tags, (hashtag) =>
        source.hashtag(
          { hashtag, depth: body.depth, onlyShorts: body.only_shorts, max },
          { signal: ctx.signal },
        ),
      );
      const items: VidnetHashtagVideo[] = c.results.flatMap((r) => r.value).slice(0, cap);
      return { items, warnings: [...c.warnings, ...emptyTargetWarnings(c, 'videos')] };
    },
    text: videoText,
    data: (videos) => ({ videos, hashtags: tags, total_videos: videos.length }),
  });
}

export function channelVideos(deps: ContentDeps, ctx: CallContext, body: ChannelVideosBody): Promise<Reply> {
  const source = deps.sources.vidnet;
  const ids = [...new Set(body.browse_ids)];
  const perChannel = body.depth * 20;
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: ids.length * perChannel,
    minItems: 0,
    fetch: async (cap) => {
      const max = Math.max(1, Math.min(perChannel, cap));
      const c = await collectTargets(ids, (browseId) =>
        source.channelVideos({ browseId, depth: body.depth, max }, { signal: ctx.signal }),
      );
      const items: VidnetChannelVideo[] = c.results.flatMap((r) => r.value).slice(0, cap);
      return { items, warnings: [...c.warnings, ...emptyTargetWarnings(c, 'videos')] };
    },
    text: videoText,
    data: (videos) => ({ videos, browse_ids: ids, total_videos: videos.length }),
  });
}

/** Shorts per channel asked of the platform: one page of the channel's Shorts tab */
export const SHORTS_PER_CHANNEL = 50;

export function channelShorts(deps: ContentDeps, ctx: CallContext, body: ChannelShortsBody): Promise<Reply> {
  const source = deps.sources.vidnet;
  const ids = [...new Set(body.browse_ids)];
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: ids.length * SHORTS_PER_CHANNEL,
    minItems: 0,
    fetch: async (cap) => {
      const max = Math.max(1, Math.min(SHORTS_PER_CHANNEL, cap));
      const c = await collectTargets(ids, (browseId) =>
        source.channelShorts({ browseId, max }, { signal: ctx.signal }),
      );
      const items: VidnetChannelVideo[] = c.results.flatMap((r) => r.value).slice(0, cap);
      return { items, warnings: [...c.warnings, ...emptyTargetWarnings(c, 'Shorts')] };
    },
    text: videoText,
    data: (shorts) => ({ shorts, browse_ids: ids, total_shorts: shorts.length }),
  });
}
