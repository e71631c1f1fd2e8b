// clipnet on the `scrapekit` data provider: a header-key social data API (x-api-key) that
// passes the platform's own app-API items through. Endpoints used (GET, JSON):
//   /v3/tiktok/profile/videos?handle=&max_cursor=   → { aweme_list[], max_cursor, has_more }
//   /v1/tiktok/video/comments?url=&cursor=          → { comments[], cursor, has_more }
//   /v1/tiktok/search/hashtag?hashtag=&cursor=      → { aweme_list[], cursor, has_more }
// An unknown user, video or hashtag is an HTTP 404. Response shapes: docs/backends/clipnet.md.
import { Type } from '@sinclair/typebox';
import type { ClipnetPost, HashtagPost, PostComment } from '../../contract/items.js';
import { collectPages, readPages } from '../cursor.js';
import type { HttpClient } from '../http/client.js';
import { expectShape } from '../http/json.js';
import type {
  ClipnetSource,
  CommentsQuery,
  HashtagPostsQuery,
  Page,
  SourceCallContext,
  UserPostsQuery,
} from '../interface.js';
import {
  Aweme,
  AwemeComment,
  awemeComment,
  awemeToHashtagPost,
  awemeToPost,
  clipnetPostUrl,
  withinDays,
} from './aweme.js';

export const SCRAPEKIT_NAME = 'scrapekit';

const Flag = Type.Union([Type.Boolean(), Type.Integer()]);
const Cursor = Type.Optional(Type.Union([Type.String(), Type.Integer(), Type.Null()]));
const AwemePage = Type.Object({
  aweme_list: Type.Array(Aweme),
  max_cursor: Cursor,
  cursor: Cursor,
  has_more: Flag,
});
const CommentPage = Type.Object({
  comments: Type.Union([Type.Array(AwemeComment), Type.Null()]),
  cursor: Cursor,
  has_more: Flag,
});

export interface ProviderOptions {
  apiKey: string;
  baseUrl: string;
  now?: () => Date;
}

export class ScrapekitClipnetSource implements ClipnetSource {
  readonly name = SCRAPEKIT_NAME;
  readonly kind = 'live' as const;
  readonly #now: () => Date;

  constructor(
    private readonly opts: ProviderOptions,
    private readonly http: HttpClient,
  ) {
    this.#now = opts.now ?? (() => new Date());
  }

  async userPosts(q: UserPostsQuery, ctx?: SourceCallContext): Promise<Page<ClipnetPost>> {
    return readPages(q.cursor, q.limit, async (page) => {
      const res = expectShape(
        AwemePage,
        await this.#get(
          'profile/videos',
          '/v3/tiktok/profile/videos',
          { handle: q.username, max_cursor: page ?? undefined },
          ctx,
        ),
        this.name,
        'profile/videos',
      );
      return {
        items: res.aweme_list.map(awemeToPost),
        next: cursorOf(res.max_cursor),
        hasMore: Boolean(res.has_more),
      };
    });
  }

  async comments(q: CommentsQuery, ctx?: SourceCallContext): Promise<PostComment[]> {
    const url = clipnetPostUrl(q.post);
    const postUrl = q.post.form === 'shortlink' ? q.post.input : url;
    return collectPages(q.limit, async (page) => {
      const res = expectShape(
        CommentPage,
        await this.#get(
          'video/comments',
          '/v1/tiktok/video/comments',
          { url, cursor: page ?? undefined },
          ctx,
        ),
        this.name,
        'video/comments',
      );
      return {
        items: (res.comments ?? []).map((c) => awemeComment(c, postUrl)),
        next: cursorOf(res.cursor),
        hasMore: Boolean(res.has_more),
      };
    });
  }

  async hashtagPosts(q: HashtagPostsQuery, ctx?: SourceCallContext): Promise<HashtagPost[]> {
    const now = this.#now();
    return collectPages(q.max, async (page) => {
      const res = expectShape(
        AwemePage,
        await this.#get(
          'search/hashtag',
          '/v1/tiktok/search/hashtag',
          { hashtag: q.hashtag, cursor: page ?? undefined },
          ctx,
        ),
        this.name,
        'search/hashtag',
      );
      return {
        items: res.aweme_list
          .filter((a) => withinDays(a.create_time, q.days, now))
          .map((a) => awemeToHashtagPost(a, q.hashtag)),
        next: cursorOf(res.cursor),
        hasMore: Boolean(res.has_more),
      };
    });
  }

  #get(op: string, path: string, query: Record<string, string | undefined>, ctx?: SourceCallContext) {
    return providerGet(this.http, this.opts, op, path, query, ctx);
  }
}

export function providerGet(
  http: HttpClient,
  opts: ProviderOptions,
  op: string,
  path: string,
  query: Record<string, string | undefined>,
  ctx?: SourceCallContext,
): Promise<unknown> {
  return http.json(
    {
      op,
      url: `${opts.baseUrl.replace(/\/+$/, '')}${path}`,
      query,
      headers: { 'x-api-key': opts.apiKey },
      signal: ctx?.signal,
    },
    { lossless: true },
  );
}

export function cursorOf(v: string | number | null | undefined): string | null {
  if (v === undefined || v === null || v === '' || v === 0 || v === '0') return null;
  return String(v);
}
