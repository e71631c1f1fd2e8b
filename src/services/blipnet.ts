// The verbs behind the blipnet endpoints. They follow their siblings in content.ts (a user's
// posts cursor-paged, replies of several posts, search by keyword, posts by hashtag) and share
// its mechanics: the billed call, several targets in one request, deduplicated targets.
import type {
  BlipnetCommentsBody,
  BlipnetPostsBody,
  BlipnetSearchBody,
  HashtagPostsBody,
} from '../contract/endpoints.js';
import type { BlipnetHashtagPost, BlipnetPost, BlipnetReply, BlipnetSearchPost } from '../contract/items.js';
import { dedupeBy } from '../dedupe.js';
import { badRequest } from '../errors.js';
import type { Page } from '../sources/interface.js';
import {
  type CallContext,
  enrichOptions,
  type Reply,
  runBilledCall,
  SkipTally,
  sourceContext,
} from './billed-call.js';
import { type ContentDeps, caseless, commentsCall, multiTarget, stripAt, stripHash } from './content.js';

/** one unit of `depth` on blipnet search: one upstream results page */
export const BLIPNET_PAGE_SIZE = 25;

const text = (p: { text: string }) => p.text;

/** handles compare without case; account ids (did:…) are case-sensitive */
const actorKey = (u: string) => (u.startsWith('did:') ? u : u.toLowerCase());

export function blipnetPosts(deps: ContentDeps, ctx: CallContext, body: BlipnetPostsBody): Promise<Reply> {
  const source = deps.sources.blipnet;
  let page: Page<BlipnetPost> | undefined;
  const skips = new SkipTally();
  return runBilledCall(deps, ctx, {
    source: source.kind,
    enrich: enrichOptions(body),
    maxItems: body.limit,
    minItems: 0,
    fetch: async (cap) => {
      page = await source.userPosts(
        { username: actorKey(stripAt(body.username)), limit: Math.max(1, cap), cursor: body.cursor },
        sourceContext(ctx, true, skips.onSkip),
      );
      const skipped = skips.warning(body.username);
      return { items: page.items.map((p) => p.item), warnings: skipped ? [skipped] : [] };
    },
    text,
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

export function blipnetComments(
  deps: ContentDeps,
  ctx: CallContext,
  body: BlipnetCommentsBody,
): Promise<Reply> {
  const source = deps.sources.blipnet;
  return commentsCall(
    deps,
    ctx,
    'blipnet',
    body,
    (post, limit, sctx): Promise<BlipnetReply[]> => source.replies({ post, limit }, sctx),
  );
}

export function blipnetSearch(deps: ContentDeps, ctx: CallContext, body: BlipnetSearchBody): Promise<Reply> {
  const source = deps.sources.blipnet;
  const keywords = dedupeBy(
    body.keywords.map((k) => k.trim()),
    (k) => caseless(k.replace(/\s+/g, ' ')),
  );
  if (body.cursor !== undefined && keywords.length > 1) {
    const message = 'a cursor continues the search of one keyword: pass exactly one keyword with it';
    throw badRequest(message, [{ field: 'cursor', message }]);
  }
  const single = keywords.length === 1;
  const perKeyword = Math.min(body.max_posts_per_keyword, body.depth * BLIPNET_PAGE_SIZE);
  const pages = new Map<number, Page<BlipnetSearchPost>>();
  return multiTarget(deps, ctx, {
    source,
    body,
    targets: keywords,
    perTarget: perKeyword,
    what: 'posts',
    run: async (keyword, i, max, sctx) => {
      const page = await source.search(
        {
          keyword,
          max,
          depth: body.depth,
          period: body.period,
          sorting: body.sorting,
          cursor: single ? body.cursor : undefined,
        },
        sctx,
      );
      pages.set(i, page);
      return page;
    },
    items: (page: Page<BlipnetSearchPost>) => page.items.map((p) => p.item),
    text,
    data: (posts) => {
      let cursor: string | null = null;
      let hasMore: boolean;
      const first = pages.get(0);
      if (single && first) {
        // like a user's posts: a result cut short continues right after its last returned post
        const count = posts.length;
        const complete = count >= first.items.length;
        hasMore = complete ? first.hasMore : true;
        cursor = hasMore ? (count > 0 ? first.items[count - 1]!.cursor : (body.cursor ?? null)) : null;
      } else {
        const returned = posts.length;
        const read = [...pages.values()].reduce((n, p) => n + p.items.length, 0);
        hasMore = returned < read || [...pages.values()].some((p) => p.hasMore);
      }
      return { posts, keywords, total_posts: posts.length, cursor, has_more: hasMore };
    },
  });
}

export function blipnetHashtagPosts(
  deps: ContentDeps,
  ctx: CallContext,
  body: HashtagPostsBody,
): Promise<Reply> {
  const source = deps.sources.blipnet;
  const tags = dedupeBy(body.hashtags.map(stripHash), caseless);
  return multiTarget(deps, ctx, {
    source,
    body,
    targets: tags,
    perTarget: body.max_posts_per_hashtag,
    what: 'posts',
    run: (hashtag, _i, max, sctx) => source.hashtagPosts({ hashtag, days: body.days, max }, sctx),
    items: (posts: BlipnetHashtagPost[]) => posts,
    text,
    data: (posts) => ({ posts, hashtags: tags, days: body.days, total_posts: posts.length }),
  });
}
