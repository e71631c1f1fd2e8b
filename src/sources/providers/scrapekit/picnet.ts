// picnet on the `scrapekit` data provider (x-api-key header), which passes the platform's app
// API items through. Endpoints used (GET, JSON):
//   /v2/instagram/user/posts?handle=|user_id=&next_max_id=  → { items[], next_max_id, more_available }
//   /v2/instagram/post/comments?url=&cursor=                → { comments[], cursor, has_more }
//   /v2/instagram/hashtag/posts?hashtag=&cursor=            → { items[], cursor, more_available }
// An unknown user, post or hashtag is an HTTP 404. Response shapes: docs/backends/picnet.md.
import { Type } from '@sinclair/typebox';
import type { HashtagPost, PicnetPost, PostComment } from '../../../contract/items.js';
import { collectPages, readPages } from '../../cursor.js';
import type {
  CommentsQuery,
  HashtagPostsQuery,
  Page,
  PicnetSource,
  SourceCallContext,
  UserPostsQuery,
} from '../../interface.js';
import { ProviderCursor as Cursor, cursorOf, ProviderFlag as Flag, withinDays } from '../data-provider.js';
import {
  AppComment,
  AppMedia,
  appComment,
  appMediaToHashtagPost,
  appMediaToPost,
  postUrl,
} from '../shapes/picnet-media.js';
import { ScrapekitSource } from './clipnet.js';

// items are checked one by one (readItems): one unreadable item does not fail its page
const MediaPage = Type.Object({
  items: Type.Array(Type.Unknown()),
  next_max_id: Cursor,
  cursor: Cursor,
  more_available: Flag,
});
const CommentPage = Type.Object({
  comments: Type.Array(Type.Unknown()),
  cursor: Cursor,
  has_more: Flag,
});

export class ScrapekitPicnetSource extends ScrapekitSource implements PicnetSource {
  async userPosts(q: UserPostsQuery, ctx?: SourceCallContext): Promise<Page<PicnetPost>> {
    const who = /^\d+$/.test(q.username) ? { user_id: q.username } : { handle: q.username };
    return readPages(q.cursor, q.limit, { backend: this.name, shape: 'provider' }, async (page) => {
      const res = await this.get(
        MediaPage,
        'user/posts',
        '/v2/instagram/user/posts',
        { ...who, next_max_id: page ?? undefined },
        ctx,
      );
      return {
        items: this.items(res.items, AppMedia, 'post', ctx, (m) => appMediaToPost(m, this.name)),
        next: cursorOf(res.next_max_id),
        hasMore: Boolean(res.more_available),
      };
    });
  }

  async comments(q: CommentsQuery, ctx?: SourceCallContext): Promise<PostComment[]> {
    const url = postUrl(q.post.id);
    return collectPages(q.limit, async (page) => {
      const res = await this.get(
        CommentPage,
        'post/comments',
        '/v2/instagram/post/comments',
        { url, cursor: page ?? undefined },
        ctx,
      );
      return {
        items: this.items(res.comments, AppComment, 'comment', ctx, (c) => appComment(c, url)),
        next: cursorOf(res.cursor),
        hasMore: Boolean(res.has_more),
      };
    });
  }

  async hashtagPosts(q: HashtagPostsQuery, ctx?: SourceCallContext): Promise<HashtagPost[]> {
    const now = this.now();
    return collectPages(q.max, async (page) => {
      const res = await this.get(
        MediaPage,
        'hashtag/posts',
        '/v2/instagram/hashtag/posts',
        { hashtag: q.hashtag, cursor: page ?? undefined },
        ctx,
      );
      return {
        items: this.items(res.items, AppMedia, 'post', ctx, (m) =>
          withinDays(m.taken_at, q.days, now) ? appMediaToHashtagPost(m, q.hashtag) : undefined,
        ),
        next: cursorOf(res.cursor),
        hasMore: Boolean(res.more_available),
      };
    });
  }
}
