// The short-video platform's own item shape ("aweme"), which the data providers pass through
// from the platform's app API: shared by the provider backends.
import { Type } from '@sinclair/typebox';
import type { ClipnetPost, HashtagPost, PostComment } from '../../../contract/items.js';
import { idString, unixToIso } from '../../http/json.js';
import type { PostRef } from '../../interface.js';

const Id = Type.Union([Type.String(), Type.Integer()]);
const Count = Type.Integer({ minimum: 0 });

export const Aweme = Type.Object({
  aweme_id: Id,
  desc: Type.String(),
  create_time: Type.Integer(),
  author: Type.Object({ uid: Id, unique_id: Type.String() }),
  statistics: Type.Object({ play_count: Count, digg_count: Count, comment_count: Count, share_count: Count }),
});
export type Aweme = (typeof Aweme)['static'];

export const AwemeComment = Type.Object({
  cid: Id,
  text: Type.String(),
  create_time: Type.Integer(),
  digg_count: Count,
  user: Type.Object({ unique_id: Type.String() }),
});
export type AwemeComment = (typeof AwemeComment)['static'];

export function awemeUrl(a: Aweme): string {
  return `https://www.tiktok.com/@${a.author.unique_id}/video/${idString(a.aweme_id)}`;
}

export function awemeToPost(a: Aweme): ClipnetPost {
  return {
    id: idString(a.aweme_id),
    caption: a.desc,
    url: awemeUrl(a),
    timestamp: unixToIso(a.create_time),
    stats: {
      views: a.statistics.play_count,
      likes: a.statistics.digg_count,
      comments: a.statistics.comment_count,
      shares: a.statistics.share_count,
    },
  };
}

export function awemeToHashtagPost(a: Aweme, hashtag: string): HashtagPost {
  return {
    post_id: idString(a.aweme_id),
    post_text: a.desc,
    post_time: String(a.create_time),
    profile_id: idString(a.author.uid),
    profile_name: a.author.unique_id,
    reaction_count: a.statistics.digg_count,
    share_count: a.statistics.share_count,
    play_count: a.statistics.play_count,
    comment_count: a.statistics.comment_count,
    source_name: hashtag,
    post_url: awemeUrl(a),
  };
}

export function awemeComment(c: AwemeComment, postUrl: string): PostComment {
  return {
    id: idString(c.cid),
    post_url: postUrl,
    text: c.text,
    user: `@${c.user.unique_id}`,
    timestamp: unixToIso(c.create_time),
    likes: c.digg_count,
  };
}

/** the URL a provider is given for a caller's post, and the one reported on its comments */
export function clipnetPostUrl(ref: PostRef): string {
  if (ref.form === 'shortlink') return `https://vm.tiktok.com/${ref.id}/`;
  return `https://www.tiktok.com/@/video/${ref.id}`;
}
