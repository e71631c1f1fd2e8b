// clipnet on the `scrapekit` data provider: a header-key social data API (x-api-key) that
// passes the platform's own app-API items through. Endpoints used (GET, JSON):
//   /v3/tiktok/profile/videos?handle=&max_cursor=   → { aweme_list[], max_cursor, has_more }
//   /v1/tiktok/video/comments?url=&cursor=          → { comments[], cursor, has_more }
//   /v1/tiktok/search/hashtag?hashtag=&cursor=      → { aweme_list[], cursor, has_more }
// An unknown user, video or hashtag is an HTTP 404. Response shapes: docs/backends/clipnet.md.
import { type TSchema, Type } from '@sinclair/typebox';
import type { ClipnetPost, HashtagPost, PostComment } from '../../../contract/items.js';
import { collectPages, readPages } from '../../cursor.js';
import type { HttpClient } from '../../http/client.js';
import type {
  ClipnetSource,
  CommentsQuery,
  HashtagPostsQuery,
  Page,
  SourceCallContext,
  UserPostsQuery,
} from '../../interface.js';
import {
  ProviderCursor as Cursor,
  cursorOf,
  ProviderFlag as Flag,
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

export const SCRAPEKIT_NAME = 'scrapekit';

// items are checked one by one (readItems): one unreadable item does not fail its page
const AwemePage = Type.Object({
  aweme_list: Type.Union([Type.Array(Type.Unknown()), Type.Null()]),
  max_cursor: Cursor,
  cursor: Cursor,
  has_more: Flag,
});
const CommentPage = Type.Object({
  comments: Type.Union([Type.Array(Type.Unknown()), Type.Null()]),
  cursor: Cursor,
  has_more: Flag,
});

export interface ProviderOptions {
  apiKey: string;
  baseUrl: string;
  now?: () => Date;
}

/** A source on this provider, for any platform: its name and its one way of asking. */
export abstract class ScrapekitSource extends ProviderSource<ProviderOptions> {
  readonly name = SCRAPEKIT_NAME;

  protected get<T extends TSchema>(
    schema: T,
    op: string,
    path: string,
    query: Record<string, string | undefined>,
    ctx?: SourceCallContext,
  ): Promise<T['static']> {
    return scrapekitGet(this.http, this.opts, schema, op, path, query, ctx);
  }
}

export class ScrapekitClipnetSource extends ScrapekitSource implements ClipnetSource {
  async userPosts(q: UserPostsQuery, ctx?: SourceCallContext): Promise<Page<ClipnetPost>> {
    // max_cursor is a time in milliseconds
    return readPages(q.cursor, q.limit, { backend: this.name, shape: 'digits' }, async (page) => {
      const res = await this.get(
        AwemePage,
        'profile/videos',
        '/v3/tiktok/profile/videos',
        { handle: q.username, max_cursor: page ?? undefined },
        ctx,
      );
      return {
        items: this.items(res.aweme_list, Aweme, 'post', ctx, awemeToPost),
        next: cursorOf(res.max_cursor),
        hasMore: Boolean(res.has_more),
      };
    });
  }

  async comments(q: CommentsQuery, ctx?: SourceCallContext): Promise<PostComment[]> {
    const url = clipnetPostUrl(q.post);
    const postUrl = q.post.form === 'shortlink' ? q.post.input : url;
    return collectPages(q.limit, async (page) => {
      const res = await this.get(
        CommentPage,
        'video/comments',
        '/v1/tiktok/video/comments',
        { url, cursor: page ?? undefined },
        ctx,
      );
      return {
        items: this.items(res.comments, AwemeComment, 'comment', ctx, (c) => awemeComment(c, postUrl)),
        next: cursorOf(res.cursor),
        hasMore: Boolean(res.has_more),
      };
    });
  }

  async hashtagPosts(q: HashtagPostsQuery, ctx?: SourceCallContext): Promise<HashtagPost[]> {
    const now = this.now();
    return collectPages(q.max, async (page) => {
      const res = await this.get(
        AwemePage,
        'search/hashtag',
        '/v1/tiktok/search/hashtag',
        { hashtag: q.hashtag, cursor: page ?? undefined },
        ctx,
      );
      return {
        items: this.items(res.aweme_list, Aweme, 'post', ctx, (a) =>
          withinDays(a.create_time, q.days, now) ? awemeToHashtagPost(a, q.hashtag) : undefined,
        ),
        next: cursorOf(res.cursor),
        hasMore: Boolean(res.has_more),
      };
    });
  }
}

/**
 * One GET against the provider, checked against the part of the documented shape the caller
 * relies on. The key travels in the x-api-key header.
 */
function scrapekitGet<T extends TSchema>(
  http: HttpClient,
  opts: ProviderOptions,
  schema: T,
  op: string,
  path: string,
  query: Record<string, string | undefined>,
  ctx?: SourceCallContext,
): Promise<T['static']> {
  return providerGetShaped(
    http,
    schema,
    { op, baseUrl: opts.baseUrl, path, query, headers: { 'x-api-key': opts.apiKey } },
    ctx,
  );
}
