// picnet (photos, carousels and reels) served from the sandbox world.
import type { HashtagPost, PicnetPost, PostComment } from '../../contract/items.js';
import type { CommentsQuery, HashtagPostsQuery, Page, PicnetSource, UserPostsQuery } from '../interface.js';
import { normalizeHandle, notFound, type World } from './db.js';
import { dailyItems, SocialTables } from './social.js';
import { isoAt } from './time.js';

export function picnetPostUrl(shortcode: string, mediaType: string | null): string {
  return mediaType === 'video'
    ? `https://www.picnet.com/reel/${shortcode}/`
    : `https://www.picnet.com/p/${shortcode}/`;
}

export function createPicnetSource(world: World): PicnetSource {
  const t = new SocialTables(world, 'picnet');
  const itemOf = dailyItems(
    (row, clock): PicnetPost => ({
      id: row.id,
      shortcode: row.code,
      caption: row.caption,
      url: picnetPostUrl(row.code, row.media_type),
      timestamp: isoAt(clock, row.ts),
      media_type: (row.media_type ?? 'image') as PicnetPost['media_type'],
      stats: { likes: row.likes, comments: row.comments },
    }),
  );

  return {
    name: 'sandbox',
    kind: 'sandbox',

    async userPosts(q: UserPostsQuery): Promise<Page<PicnetPost>> {
      const name = normalizeHandle(q.username);
      const account = (/^\d+$/.test(name) ? t.accountByUserId(name) : undefined) ?? t.accountByHandle(name);
      if (!account) throw notFound(`picnet user ${q.username}`);
      const clock = world.clock();
      const page = t.postsPage(account, clock, q.limit, q.cursor);
      return {
        items: page.rows.map(({ row, cursor }) => ({ item: itemOf(row, clock), cursor })),
        hasMore: page.hasMore,
      };
    },

    async comments(q: CommentsQuery): Promise<PostComment[]> {
      const clock = world.clock();
      // a shortcode is the post's name in every URL form; a numeric post id works too
      const post = t.findPost(q.post, clock, 'code');
      if (!post) throw notFound(`picnet post ${q.post.input}`);
      return t.postComments(post, clock, q.limit, picnetPostUrl(post.code, post.media_type));
    },

    async hashtagPosts(q: HashtagPostsQuery): Promise<HashtagPost[]> {
      return t.hashtagPosts(q, world.clock(), (p) => picnetPostUrl(p.code, p.media_type));
    },
  };
}
