// picnet on the `scrapekit` data provider (x-api-key header), which passes the platform's app
// API items through. Endpoints used (GET, JSON):
//   /v2/instagram/user/posts?handle=|user_id=&next_max_id=  → { items[], next_max_id, more_available }
//   /v2/instagram/post/comments?url=&cursor=                → { comments[], cursor, has_more }
//   /v2/instagram/hashtag/posts?hashtag=&cursor=            → { items[], cursor, more_available }
// An unknown user, post or hashtag is an HTTP 404. Response shapes: docs/backends/picnet.md.
import { Type } from '@sinclair/typebox';
import type { HashtagPost, PicnetPost, PostComment } from '../../contract/items.js';
import { cursorOf, type ProviderOptions, providerGet } from '../clipnet/scrapekit.js';
import { collectPages, readPages } from '../cursor.js';
import type { HttpClient } from '../http/client.js';
import { expectShape } from '../http/json.js';
import type {
  CommentsQuery,
  HashtagPostsQuery,
  Page,
  PicnetSource,
  SourceCallContext,
  UserPostsQuery,
} from '../interface.js';
import { AppComment, AppMedia, appComment, appMediaToHashtagPost, appMediaToPost, postUrl } from './media.js';

export const SCRAPEKIT_NAME = 'scrapekit';

const Cursor = Type.Optional(Type.Union([Type.String(), Type.Integer(), Type.Null()]));
const Flag = Type.Union([Type.Boolean(), Type.Integer()]);
const MediaPage = Type.Object({
  items: Type.Array(AppMedia),
  next_max_id: Cursor,
  cursor: Cursor,
  more_available: Flag,
});
const CommentPage = Type.Object({ comments: Type.Array(AppComment), cursor: Cursor, has_more: Flag });

export class ScrapekitPicnetSource implements PicnetSource {
  readonly name = SCRAPEKIT_NAME;
  readonly kind = 'live' as const;
  readonly #now: () => Date;

  constructor(
    private readonly opts: ProviderOptions,
    private readonly http: HttpClient,
  ) {
    this.#now = opts.now ?? (() => new Date());
  }

  async userPosts(q: UserPostsQuery, ctx?: SourceCallContext): Promise<Page<PicnetPost>> {
    const who = /^\d+$/.test(q.username) ? { user_id: q.username } : { handle: q.username };
    return readPages(q.cursor, q.limit, async (page) => {
      const res = expectShape(
        MediaPage,
        await providerGet(
          this.http,
          this.opts,
          'user/posts',
          '/v2/instagram/user/posts',
          { ...who, next_max_id: page ?? undefined },
          ctx,
        ),
        this.name,
        'user/posts',
      );
      return {
        items: res.items.map((m) => appMediaToPost(m, this.name)),
        next: cursorOf(res.next_max_id),
        hasMore: Boolean(res.more_available),
      };
    });
  }

  async comments(q: CommentsQuery, ctx?: SourceCallContext): Promise<PostComment[]> {
    const url = postUrl(q.post.id);
    return collectPages(q.limit, async (page) => {
      const res = expectShape(
        CommentPage,
        await providerGet(
          this.http,
          this.opts,
          'post/comments',
          '/v2/instagram/post/comments',
          { url, cursor: page ?? undefined },
          ctx,
        ),
        this.name,
        'post/comments',
      );
      return {
        items: res.comments.map((c) => appComment(c, url)),
        next: cursorOf(res.cursor),
        hasMore: Boolean(res.has_more),
      };
    });
  }

  async hashtagPosts(q: HashtagPostsQuery, ctx?: SourceCallContext): Promise<HashtagPost[]> {
    const since = Math.floor(this.#now().getTime() / 1000) - q.days * 86_400;
    return collectPages(q.max, async (page) => {
      const res = expectShape(
        MediaPage,
        await providerGet(
          this.http,
          this.opts,
          'hashtag/posts',
          '/v2/instagram/hashtag/posts',
          { hashtag: q.hashtag, cursor: page ?? undefined },
          ctx,
        ),
        this.name,
        'hashtag/posts',
      );
      return {
        items: res.items.filter((m) => m.taken_at >= since).map((m) => appMediaToHashtagPost(m, q.hashtag)),
        next: cursorOf(res.cursor),
        hasMore: Boolean(res.more_available),
      };
    });
  }
}
