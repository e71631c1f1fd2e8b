// picnet on the `datadepth` data provider (token query parameter, `{ data }` envelope; see
// ../clipnet/datadepth.ts). It passes the platform's *web* GraphQL items through ("node" objects
// with __typename), unlike scrapekit's app-API items. Endpoints used (GET):
//   /instagram/user/info?username=                               → { data: { pk, username, is_private } }
//   /instagram/user/posts?user_id=&depth=1&start_cursor=         → { data: { posts: [{ node }], last_cursor } }
//   /instagram/post/comments?media_id=&sorting=recent&cursor=    → { data: { comments: [{ node }], nextCursor } }
//   /instagram/hashtag/posts?name=&get_author_info=true&cursor=  → { data: { top_posts, recent_posts, nextCursor } }
// User posts are read by numeric user id: a username costs one extra user/info request per call
// (the resolved id then rides inside our cursor, so continuations do not pay it again).
// Comments are read by media id, computed exactly from the shortcode.
import { Type } from '@sinclair/typebox';
import type { HashtagPost, PicnetPost, PostComment } from '../../../contract/items.js';
import { collectPages, readPages } from '../../cursor.js';
import { idString } from '../../http/json.js';
import {
  type CommentsQuery,
  type HashtagPostsQuery,
  type Page,
  type PicnetSource,
  type SourceCallContext,
  SourceError,
  type UserPostsQuery,
} from '../../interface.js';
import { ProviderCursor as Cursor, cursorOf, withinDays } from '../data-provider.js';
import {
  postUrl,
  shortcodeToMediaId,
  WebComment,
  WebMedia,
  webComment,
  webMediaToHashtagPost,
  webMediaToPost,
} from '../shapes/picnet-media.js';
import { DatadepthSource } from './clipnet.js';

const Id = Type.Union([Type.String(), Type.Integer()]);
// items are checked one by one (readItems): one unreadable item does not fail its page
const Nodes = Type.Array(Type.Unknown());
const MediaNode = Type.Object({ node: WebMedia });
const CommentNode = Type.Object({ node: WebComment });

const UserInfo = Type.Object({
  data: Type.Object({ pk: Id, username: Type.String(), is_private: Type.Optional(Type.Boolean()) }),
});
const UserPosts = Type.Object({
  data: Type.Object({ posts: Nodes, last_cursor: Cursor }),
});
const Comments = Type.Object({
  data: Type.Object({ comments: Nodes, nextCursor: Cursor }),
});
const HashtagPosts = Type.Object({
  data: Type.Object({
    top_posts: Type.Optional(Nodes),
    recent_posts: Nodes,
    nextCursor: Cursor,
  }),
});

export class DatadepthPicnetSource extends DatadepthSource implements PicnetSource {
  async userPosts(q: UserPostsQuery, ctx?: SourceCallContext): Promise<Page<PicnetPost>> {
    // our page cursor is "<user id>:<provider cursor>" (the provider cursor may be empty)
    return readPages(q.cursor, q.limit, { backend: this.name, shape: 'user-id:provider' }, async (page) => {
      let userId: string;
      let start: string | undefined;
      if (page === null) {
        userId = /^\d+$/.test(q.username) ? q.username : await this.#userId(q.username, ctx);
      } else {
        // the shape "<digits>:<provider cursor>" is checked before this runs (cursor.ts)
        const sep = page.indexOf(':');
        userId = page.slice(0, sep);
        start = page.slice(sep + 1) || undefined;
      }
      const res = await this.get(
        UserPosts,
        'instagram/user/posts',
        '/instagram/user/posts',
        { user_id: userId, depth: 1, start_cursor: start },
        ctx,
      );
      const last = cursorOf(res.data.last_cursor);
      const more = last !== null && res.data.posts.length > 0;
      return {
        items: this.items(res.data.posts, MediaNode, 'post', ctx, (p) => webMediaToPost(p.node, this.name)),
        next: more ? `${userId}:${last}` : null,
        // a cursor inside the first page carries the resolved id too
        self: `${userId}:${start ?? ''}`,
        hasMore: more,
      };
    });
  }

  async comments(q: CommentsQuery, ctx?: SourceCallContext): Promise<PostComment[]> {
    const mediaId = shortcodeToMediaId(q.post.id);
    if (mediaId === null) {
      throw new SourceError('not_found', `${q.post.input} is not a post shortcode`, { backend: this.name });
    }
    const url = postUrl(q.post.id);
    return collectPages(q.limit, async (page) => {
      const res = await this.get(
        Comments,
        'instagram/post/comments',
        '/instagram/post/comments',
        { media_id: mediaId, sorting: 'recent', cursor: page ?? undefined },
        ctx,
      );
      const next = cursorOf(res.data.nextCursor);
      return {
        items: this.items(res.data.comments, CommentNode, 'comment', ctx, (c) => webComment(c.node, url)),
        next,
        hasMore: next !== null && res.data.comments.length > 0,
      };
    });
  }

  async hashtagPosts(q: HashtagPostsQuery, ctx?: SourceCallContext): Promise<HashtagPost[]> {
    const now = this.now();
    const seen = new Set<string>();
    return collectPages(q.max, async (page) => {
      const res = await this.get(
        HashtagPosts,
        'instagram/hashtag/posts',
        '/instagram/hashtag/posts',
        { name: q.hashtag, get_author_info: 'true', cursor: page ?? undefined },
        ctx,
      );
      // top posts (first page only) may repeat in the recent feed; both may be older than `days`
      const items = this.items(
        [...(res.data.top_posts ?? []), ...res.data.recent_posts],
        MediaNode,
        'post',
        ctx,
        ({ node: m }) => {
          const id = idString(m.id);
          if (seen.has(id) || !withinDays(m.taken_at_timestamp, q.days, now)) return undefined;
          seen.add(id);
          return webMediaToHashtagPost(m, q.hashtag);
        },
      );
      const next = cursorOf(res.data.nextCursor);
      return {
        items,
        next,
        hasMore: next !== null && res.data.recent_posts.length > 0,
      };
    });
  }

  async #userId(username: string, ctx?: SourceCallContext): Promise<string> {
    const res = await this.get(UserInfo, 'instagram/user/info', '/instagram/user/info', { username }, ctx);
    if (res.data.is_private === true) {
      throw new SourceError('not_found', `${username} is a private account`, { backend: this.name });
    }
    return idString(res.data.pk);
  }
}
