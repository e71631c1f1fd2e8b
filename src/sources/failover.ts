// Several backends may serve one platform (CLIPNET_SOURCE=provider,research …). The composed
// source tries them in order and moves on when one is throttled, broken, timed out, switched off
// or lacks the operation; a "not found" or a bad cursor is an answer, not a failure, and is
// returned as is. Cursors are wrapped with the issuing backend's name (see cursor.ts) and a
// continuation goes only to that backend.
import { unwrapCursor, wrapCursor } from './cursor.js';
import {
  type BlipnetSource,
  type ClipnetSource,
  type Page,
  type PicnetSource,
  type Platform,
  type SourceCallContext,
  SourceError,
  type UserPostsQuery,
  type VidnetSource,
} from './interface.js';

type SourceOf<P extends Platform> = P extends 'clipnet'
  ? ClipnetSource
  : P extends 'picnet'
    ? PicnetSource
    : P extends 'blipnet'
      ? BlipnetSource
      : VidnetSource;

const FAILOVER_KINDS = new Set(['throttled', 'unavailable', 'upstream', 'timeout', 'unsupported']);

export function isFailoverError(e: unknown): e is SourceError {
  return e instanceof SourceError && FAILOVER_KINDS.has(e.kind);
}

async function tryInOrder<S extends { name: string }, T>(
  backends: readonly S[],
  ctx: SourceCallContext | undefined,
  call: (b: S) => Promise<T>,
): Promise<T> {
  let last: unknown;
  for (const b of backends) {
    if (ctx?.expired ? ctx.expired() : ctx?.signal?.aborted) break;
    try {
      return await call(b);
    } catch (e) {
      if (!isFailoverError(e)) throw e;
      last = e;
    }
  }
  if (last === undefined) throw new SourceError('timeout', 'the request was cancelled');
  throw last;
}

function wrapPage<T>(backend: string, page: Page<T>): Page<T> {
  return {
    hasMore: page.hasMore,
    items: page.items.map(({ item, cursor }) => ({ item, cursor: wrapCursor(backend, cursor) })),
  };
}

function pagedUserPosts<S extends { name: string }, T, Q extends { cursor?: string } = UserPostsQuery>(
  platform: Platform,
  backends: readonly S[],
  read: (b: S, q: Q, ctx?: SourceCallContext) => Promise<Page<T>>,
) {
  return async (q: Q, ctx?: SourceCallContext): Promise<Page<T>> => {
    if (q.cursor !== undefined && q.cursor !== '') {
      const { backend, cursor } = unwrapCursor(q.cursor);
      const owner = backends.find((b) => b.name === backend);
      if (!owner) {
        throw new SourceError(
          'bad_cursor',
          `this cursor was issued by backend ${backend}, which does not serve ${platform} here`,
        );
      }
      return wrapPage(owner.name, await read(owner, { ...q, cursor }, ctx));
    }
    return tryInOrder(backends, ctx, async (b) =>
      wrapPage(b.name, await read(b, { ...q, cursor: undefined }, ctx)),
    );
  };
}

function closeAll(backends: readonly object[]): () => Promise<void> {
  return async () => {
    await Promise.allSettled(
      backends.map((b) => (b as { close?: () => Promise<void> }).close?.() ?? Promise.resolve()),
    );
  };
}

export function composeSources(platform: 'clipnet', backends: readonly ClipnetSource[]): ClipnetSource;
export function composeSources(platform: 'picnet', backends: readonly PicnetSource[]): PicnetSource;
export function composeSources(platform: 'vidnet', backends: readonly VidnetSource[]): VidnetSource;
export function composeSources(platform: 'blipnet', backends: readonly BlipnetSource[]): BlipnetSource;
export function composeSources<P extends Platform>(
  platform: P,
  backends: readonly SourceOf<P>[],
): SourceOf<P>;
export function composeSources(
  platform: Platform,
  backends: readonly (ClipnetSource | PicnetSource | VidnetSource | BlipnetSource)[],
): ClipnetSource | PicnetSource | VidnetSource | BlipnetSource {
  const first = backends[0];
  if (!first) throw new Error(`no backend configured for ${platform}`);
  const names = new Set<string>();
  for (const b of backends) {
    if (names.has(b.name)) throw new Error(`backend ${b.name} is listed twice for ${platform}`);
    names.add(b.name);
  }
  const info = {
    name: first.name,
    kind: first.kind,
    backends: backends.map((b) => b.name),
    close: closeAll(backends),
  };
  if (platform === 'vidnet') {
    const bs = backends as readonly VidnetSource[];
    const composed: VidnetSource & typeof info = {
      ...info,
      search: (q, ctx) => tryInOrder(bs, ctx, (b) => b.search(q, ctx)),
      hashtag: (q, ctx) => tryInOrder(bs, ctx, (b) => b.hashtag(q, ctx)),
      comments: (q, ctx) => tryInOrder(bs, ctx, (b) => b.comments(q, ctx)),
      channelVideos: (q, ctx) => tryInOrder(bs, ctx, (b) => b.channelVideos(q, ctx)),
      channelShorts: (q, ctx) => tryInOrder(bs, ctx, (b) => b.channelShorts(q, ctx)),
    };
    return composed;
  }
  if (platform === 'blipnet') {
    const bs = backends as readonly BlipnetSource[];
    const composed: BlipnetSource & typeof info = {
      ...info,
      // a cursor (of a user's posts or of a search) goes back to the backend that issued it
      userPosts: pagedUserPosts(platform, bs, (b, q, ctx) => b.userPosts(q, ctx)),
      search: pagedUserPosts(platform, bs, (b, q: Parameters<BlipnetSource['search']>[0], ctx) =>
        b.search(q, ctx),
      ),
      replies: (q, ctx) => tryInOrder(bs, ctx, (b) => b.replies(q, ctx)),
      hashtagPosts: (q, ctx) => tryInOrder(bs, ctx, (b) => b.hashtagPosts(q, ctx)),
    };
    return composed;
  }
  const bs = backends as readonly (ClipnetSource | PicnetSource)[];
  const composed = {
    ...info,
    userPosts: pagedUserPosts(platform, bs, (b, q, ctx) => b.userPosts(q, ctx) as Promise<Page<unknown>>),
    comments: (q: Parameters<ClipnetSource['comments']>[0], ctx?: SourceCallContext) =>
      tryInOrder(bs, ctx, (b) => b.comments(q, ctx)),
    hashtagPosts: (q: Parameters<ClipnetSource['hashtagPosts']>[0], ctx?: SourceCallContext) =>
      tryInOrder(bs, ctx, (b) => b.hashtagPosts(q, ctx)),
  };
  return composed as ClipnetSource | PicnetSource;
}
