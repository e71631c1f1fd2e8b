// clipnet on the `datadepth` data provider: a token-in-the-query social data API (GET requests,
// `?token=`), whose successful answers are wrapped as `{ "data": … }` and whose errors are
// `{ "detail": "…" }`. It passes the platform's own app-API items ("aweme") through.
// Endpoints used:
//   /tt/user/posts?username=&depth=1&start_cursor=  → { data: [aweme], nextCursor }   (top level)
//   /tt/post/comments?aweme_id=&cursor=             → { data: { comments: [], nextCursor, total } }
//   /tt/hashtag/posts?name=&cursor=                 → { data: { data: [aweme], nextCursor } }
// Paging ends when nextCursor is absent, null or 0 (there is no has_more flag). An unknown
// user, post or hashtag is an HTTP 404. Response shapes: docs/backends/clipnet.md.
import { type TSchema, Type } from '@sinclair/typebox';
import type { ClipnetPost, HashtagPost, PostComment } from '../../../contract/items.js';
import { collectPages, readPages } from '../../cursor.js';
import type { HttpClient, HttpResponse } from '../../http/client.js';
import {
  type ClipnetSource,
  type CommentsQuery,
  type HashtagPostsQuery,
  type Page,
  type SourceCallContext,
  SourceError,
  type UserPostsQuery,
} from '../../interface.js';
import {
  ProviderCursor as Cursor,
  cursorOf,
  ProviderSource,
  providerGetShaped,
  withinDays,
} from '../data-provider.js';
import {
  Aweme,
  AwemeComment,
  awemeComment,
  awemeToHashtagPost,
  awemeToPost,
  clipnetPostUrl,
} from '../shapes/aweme.js';

export const DATADEPTH_NAME = 'datadepth';

/** the provider's own status for an unknown or revoked token */
const TOKEN_NOT_FOUND = 491;

// items are checked one by one (readItems): one unreadable item does not fail its page
const UserPosts = Type.Object({ data: Type.Array(Type.Unknown()), nextCursor: Cursor });
const Comments = Type.Object({
  data: Type.Object({
    comments: Type.Union([Type.Array(Type.Unknown()), Type.Null()]),
    nextCursor: Cursor,
  }),
});
const HashtagPosts = Type.Object({
  data: Type.Object({ data: Type.Array(Type.Unknown()), nextCursor: Cursor }),
});

export interface DatadepthOptions {
  token: string;
  baseUrl: string;
  now?: () => Date;
}

/**
 * One GET against the provider, checked against the part of the documented shape the caller
 * relies on. The token travels as a query parameter, as the provider requires; the HTTP layer
 * masks it (by value and by the `token=` name) in every log line and error message.
 */
async function datadepthGet<T extends TSchema>(
  http: HttpClient,
  opts: DatadepthOptions,
  schema: T,
  op: string,
  path: string,
  query: Record<string, string | number | undefined>,
  ctx?: SourceCallContext,
): Promise<T['static']> {
  return providerGetShaped(
    http,
    schema,
    {
      op,
      baseUrl: opts.baseUrl,
      path,
      query: { ...query, token: opts.token },
      classify: (res) => classify(http, res),
    },
    ctx,
  );
}

function classify(http: HttpClient, res: HttpResponse): SourceError | undefined {
  if (res.status === TOKEN_NOT_FOUND) {
    return new SourceError(
      'upstream',
      `${http.backend}: HTTP ${res.status} (${http.upstreamMessage(res.text) || 'token not found'}): the provider rejected our token`,
      { backend: http.backend },
    );
  }
  return undefined;
}

/** A source on this provider, for any platform: its name and its one way of asking. */
export abstract class DatadepthSource extends ProviderSource<DatadepthOptions> {
  readonly name = DATADEPTH_NAME;

  protected get<T extends TSchema>(
    schema: T,
    op: string,
    path: string,
    query: Record<string, string | number | undefined>,
    ctx?: SourceCallContext,
  ): Promise<T['static']> {
    return datadepthGet(this.http, this.opts, schema, op, path, query, ctx);
  }
}

export class DatadepthClipnetSource extends DatadepthSource implements ClipnetSource {
  async userPosts(q: UserPostsQuery, ctx?: SourceCallContext): Promise<Page<ClipnetPost>> {
    // nextCursor is a time in milliseconds
    return readPages(q.cursor, q.limit, { backend: this.name, shape: 'digits' }, async (page) => {
      const res = await this.get(
        UserPosts,
        'tt/user/posts',
        '/tt/user/posts',
        // depth=1: one upstream page per request, so every request stays inside the per-attempt
        // timeout and a short limit does not pay for pages it will not return
        { username: q.username, depth: 1, start_cursor: page ?? undefined },
        ctx,
      );
      const next = cursorOf(res.nextCursor);
      return { items: this.items(res.data, Aweme, 'post', ctx, awemeToPost), next, hasMore: next !== null };
    });
  }

  async comments(q: CommentsQuery, ctx?: SourceCallContext): Promise<PostComment[]> {
    if (q.post.form === 'shortlink') {
      // the provider takes a numeric post id only and resolves no short links
      throw new SourceError(
        'unsupported',
        `${this.name} cannot resolve short links; pass the full post URL`,
        {
          backend: this.name,
        },
      );
    }
    const postUrl = clipnetPostUrl(q.post);
    return collectPages(q.limit, async (page) => {
      const res = await this.get(
        Comments,
        'tt/post/comments',
        '/tt/post/comments',
        { aweme_id: q.post.id, cursor: page ?? undefined },
        ctx,
      );
      const next = cursorOf(res.data.nextCursor);
      const comments = res.data.comments ?? [];
      return {
        items: this.items(comments, AwemeComment, 'comment', ctx, (c) => awemeComment(c, postUrl)),
        next,
        hasMore: next !== null && comments.length > 0,
      };
    });
  }

  async hashtagPosts(q: HashtagPostsQuery, ctx?: SourceCallContext): Promise<HashtagPost[]> {
    const now = this.now();
    return collectPages(q.max, async (page) => {
      const res = await this.get(
        HashtagPosts,
        'tt/hashtag/posts',
        '/tt/hashtag/posts',
        { name: q.hashtag, cursor: page ?? undefined },
        ctx,
      );
      const next = cursorOf(res.data.nextCursor);
      return {
        // the feed is not ordered by date, so a page may mix recent and older posts
        items: this.items(res.data.data, Aweme, 'post', ctx, (a) =>
          withinDays(a.create_time, q.days, now) ? awemeToHashtagPost(a, q.hashtag) : undefined,
        ),
        next,
        hasMore: next !== null && res.data.data.length > 0,
      };
    });
  }
}
