// The photo platform's own media item shapes, as the data providers pass them through: the app
// API shape ("items", media_type 1/2/8) and the web GraphQL shape ("node", __typename).
import { Type } from '@sinclair/typebox';
import type { HashtagPost, PicnetPost, PostComment } from '../../contract/items.js';
import { idString, unixToIso } from '../http/json.js';
import { SourceError } from '../interface.js';

const Id = Type.Union([Type.String(), Type.Integer()]);
const Count = Type.Integer({ minimum: 0 });

export const AppMedia = Type.Object({
  pk: Id,
  code: Type.String(),
  taken_at: Type.Integer(),
  media_type: Type.Integer(),
  caption: Type.Union([Type.Object({ text: Type.String() }), Type.Null()]),
  like_count: Count,
  comment_count: Count,
  user: Type.Object({ pk: Id, username: Type.String() }),
});
export type AppMedia = (typeof AppMedia)['static'];

export const AppComment = Type.Object({
  pk: Id,
  text: Type.String(),
  created_at: Type.Integer(),
  comment_like_count: Count,
  user: Type.Object({ username: Type.String() }),
});
export type AppComment = (typeof AppComment)['static'];

export function postUrl(shortcode: string): string {
  return `https://www.instagram.com/p/${shortcode}/`;
}

/** the app API's media_type: 1 photo, 2 video (reels too), 8 carousel */
export function appMediaType(t: number, backend: string): PicnetPost['media_type'] {
  if (t === 1) return 'image';
  if (t === 2) return 'video';
  if (t === 8) return 'carousel';
  throw new SourceError('upstream', `${backend} sent an unknown media_type ${t} (schema drift)`, { backend });
}

export function appMediaToPost(m: AppMedia, backend: string): PicnetPost {
  return {
    id: idString(m.pk),
    shortcode: m.code,
    caption: m.caption?.text ?? '',
    url: postUrl(m.code),
    timestamp: unixToIso(m.taken_at),
    media_type: appMediaType(m.media_type, backend),
    stats: { likes: m.like_count, comments: m.comment_count },
  };
}

export function appMediaToHashtagPost(m: AppMedia, hashtag: string): HashtagPost {
  return {
    post_id: idString(m.pk),
    post_text: m.caption?.text ?? '',
    post_time: String(m.taken_at),
    profile_id: idString(m.user.pk),
    profile_name: m.user.username,
    reaction_count: m.like_count,
    comment_count: m.comment_count,
    source_name: hashtag,
    post_url: postUrl(m.code),
  };
}

export function appComment(c: AppComment, url: string): PostComment {
  return {
    id: idString(c.pk),
    post_url: url,
    text: c.text,
    user: `@${c.user.username}`,
    timestamp: unixToIso(c.created_at),
    likes: c.comment_like_count,
  };
}

const SHORTCODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** a shortcode is the media id written in a base-64 alphabet: converts it back, exactly */
export function shortcodeToMediaId(shortcode: string): string | null {
  // longer codes carry a private-media suffix after the first 11 characters
  const code = shortcode.length > 11 ? shortcode.slice(0, 11) : shortcode;
  let id = 0n;
  for (const ch of code) {
    const v = SHORTCODE_ALPHABET.indexOf(ch);
    if (v < 0) return null;
    id = id * 64n + BigInt(v);
  }
  return id.toString();
}
