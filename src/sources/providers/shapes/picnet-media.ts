// The photo platform's own media item shapes, as the data providers pass them through: the app
// API shape ("items", media_type 1/2/8) and the web GraphQL shape ("node", __typename).
import { Type } from '@sinclair/typebox';
import type { HashtagPost, PicnetPost, PostComment } from '../../../contract/items.js';
import { idString, unixToIso } from '../../http/json.js';
import { SourceError } from '../../interface.js';

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

// ---- the web GraphQL shape ("node" objects, __typename), as some providers pass it through ----

const EdgeCount = Type.Object({ count: Type.Integer() });

export const WebMedia = Type.Object({
  id: Id,
  shortcode: Type.String(),
  __typename: Type.String(),
  taken_at_timestamp: Type.Integer(),
  edge_media_to_caption: Type.Object({
    edges: Type.Array(Type.Object({ node: Type.Object({ text: Type.String() }) })),
  }),
  edge_media_to_comment: EdgeCount,
  // one of the two like edges is present unless the owner hides like counts
  edge_media_preview_like: Type.Optional(EdgeCount),
  edge_liked_by: Type.Optional(EdgeCount),
  like_and_view_counts_disabled: Type.Optional(Type.Boolean()),
  owner: Type.Object({ id: Id, username: Type.Optional(Type.String()) }),
});
export type WebMedia = (typeof WebMedia)['static'];

export const WebComment = Type.Object({
  id: Id,
  text: Type.String(),
  created_at: Type.Integer(),
  owner: Type.Object({ id: Id, username: Type.Optional(Type.String()) }),
  // required: a comment's like count is not optional in the contract, and 0 would be a guess
  edge_liked_by: EdgeCount,
});
export type WebComment = (typeof WebComment)['static'];

/** __typename → media type; newer responses prefix the names with "XDT" */
export function webMediaType(typename: string, backend: string): PicnetPost['media_type'] {
  switch (typename.replace(/^XDT/, '')) {
    case 'GraphImage':
      return 'image';
    case 'GraphVideo':
      return 'video';
    case 'GraphSidecar':
      return 'carousel';
  }
  throw new SourceError(
    'upstream',
    `${backend} sent an unknown media __typename ${typename} (schema drift)`,
    {
      backend,
    },
  );
}

/** a like count the platform shows, or null when the owner hides it (−1 is how it says so) */
function webLikes(m: WebMedia): number | null {
  if (m.like_and_view_counts_disabled === true) return null;
  const n = (m.edge_media_preview_like ?? m.edge_liked_by)?.count;
  return n === undefined || n < 0 ? null : n;
}

function webCaption(m: WebMedia): string {
  return m.edge_media_to_caption.edges[0]?.node.text ?? '';
}

export function webMediaToPost(m: WebMedia, backend: string): PicnetPost {
  return {
    id: idString(m.id),
    shortcode: m.shortcode,
    caption: webCaption(m),
    url: postUrl(m.shortcode),
    timestamp: unixToIso(m.taken_at_timestamp),
    media_type: webMediaType(m.__typename, backend),
    stats: { likes: webLikes(m), comments: Math.max(0, m.edge_media_to_comment.count) },
  };
}

export function webMediaToHashtagPost(m: WebMedia, hashtag: string): HashtagPost {
  return {
    post_id: idString(m.id),
    post_text: webCaption(m),
    post_time: String(m.taken_at_timestamp),
    profile_id: idString(m.owner.id),
    // hashtag feeds name the owner only when the provider was asked for author details
    profile_name: m.owner.username ?? null,
    reaction_count: webLikes(m),
    comment_count: Math.max(0, m.edge_media_to_comment.count),
    source_name: hashtag,
    post_url: postUrl(m.shortcode),
  };
}

export function webComment(c: WebComment, url: string): PostComment {
  return {
    id: idString(c.id),
    post_url: url,
    text: c.text,
    user: c.owner.username === undefined ? null : `@${c.owner.username}`,
    timestamp: unixToIso(c.created_at),
    likes: Math.max(0, c.edge_liked_by.count),
  };
}
