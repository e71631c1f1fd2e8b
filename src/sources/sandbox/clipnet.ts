// clipnet (short videos) served from the sandbox world.
import type { ClipnetPost, HashtagPost, PostComment } from '../../contract/items.js';
import type { ClipnetSource, CommentsQuery, HashtagPostsQuery, Page, UserPostsQuery } from '../interface.js';
import { normalizeHandle, notFound, type World } from './db.js';
import { dailyItems, SocialTables } from './social.js';
import { isoAt } from './time.js';

export function clipnetPostUrl(handle: string, id: string): string {
  return `https://www.clipnet.com/@${handle}/video/${id}`;
}

export function clipnetShortUrl(code: string): string {
  return `https://vm.clipnet.com/${code}/`;
}

export function createClipnetSource(world: World): ClipnetSource {
  const t = new SocialTables(world, 'clipnet');
  const itemOf = dailyItems(
    (row, clock): ClipnetPost => ({
      id: row.id,
      caption: row.caption,
      url: clipnetPostUrl(row.handle, row.id),
      timestamp: isoAt(clock, row.ts),
      stats: { views: row.views, likes: row.likes, comments: row.comments, shares: row.shares },
    }),
  );

  return {
    name: 'sandbox',
    kind: 'sandbox',

    async userPosts(q: UserPostsQuery): Promise<Page<ClipnetPost>> {
      const account = t.accountByHandle(normalizeHandle(q.username));
      if (!account) throw notFound(`clipnet user ${q.username}`);
      const clock = world.clock();
      const page = t.postsPage(account, clock, q.limit, q.cursor);
      return {
        items: page.rows.map(({ row, cursor }) => ({ item: itemOf(row, clock), cursor })),
        hasMore: page.hasMore,
      };
    },

    async comments(q: CommentsQuery): Promise<PostComment[]> {
      const clock = world.clock();
      const post = t.findPost(q.post, clock, q.post.form === 'shortlink' ? 'code' : 'id');
      if (!post) throw notFound(`clipnet post ${q.post.input}`);
      return t.postComments(post, clock, q.limit, clipnetPostUrl(post.handle, post.id));
    },

    async hashtagPosts(q: HashtagPostsQuery): Promise<HashtagPost[]> {
      return t.hashtagPosts(
        q,
        world.clock(),
        // hashtag search answers carry the URL without its scheme, as the platform's own does
        (p) => `www.clipnet.com/@${p.handle}/video/${p.id}`,
        (p) => ({ share_count: p.shares, play_count: p.views }),
      );
    },
  };
}
