// Resource shapes returned by the API. These schemas are the single source for response
// validation/serialization, the TypeScript types used by sources and services, the OpenAPI
// document and the client SDK.
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { StringEnum } from './string-enum.js';
import './formats.js';

/** the enrichment types, in their documented order (results and prompts follow it) */
export const ENRICHMENT_TYPES = ['sentiment', 'topics', 'intent', 'keywords'] as const;
export const EnrichmentType = StringEnum(ENRICHMENT_TYPES, { description: 'An enrichment type' });
export type EnrichmentType = Static<typeof EnrichmentType>;

export const LlmProvider = StringEnum(['model-2.0-flash', 'model-1.5-pro'], {
  description:
    'Analyzer: model-2.0-flash (default) or model-1.5-pro (a wider ensemble of the same kind of models; same price)',
});
export type LlmProvider = Static<typeof LlmProvider>;

/** the six intent labels and the three sentiment labels, in their documented order */
export const INTENTS = [
  'purchase_intent',
  'complaint',
  'question',
  'praise',
  'suggestion',
  'engagement',
] as const;
export const SENTIMENTS = ['positive', 'negative', 'neutral'] as const;

export const Intent = StringEnum(INTENTS);
export type Intent = Static<typeof Intent>;

export const Enrichment = Type.Object(
  {
    sentiment: Type.Optional(StringEnum(SENTIMENTS)),
    sentiment_score: Type.Optional(Type.Number({ minimum: -1, maximum: 1 })),
    topics: Type.Optional(Type.Array(Type.String(), { maxItems: 3 })),
    intent: Type.Optional(Intent),
    keywords: Type.Optional(Type.Array(Type.String(), { maxItems: 10 })),
  },
  { $id: 'Enrichment', description: 'Only the keys of the requested types are present' },
);
export type Enrichment = Static<typeof Enrichment>;

const enrichment = Type.Optional(Type.Ref('Enrichment'));
const isoTime = (description?: string) =>
  Type.String({ format: 'date-time', description: description ?? 'ISO 8601, UTC' });

export const ClipnetPost = Type.Object(
  {
    id: Type.String(),
    caption: Type.String(),
    url: Type.String(),
    timestamp: isoTime(),
    stats: Type.Object({
      views: Type.Integer(),
      likes: Type.Integer(),
      comments: Type.Integer(),
      shares: Type.Integer(),
    }),
    enrichment,
  },
  { $id: 'ClipnetPost' },
);
export type ClipnetPost = Static<typeof ClipnetPost>;

export const PicnetPost = Type.Object(
  {
    id: Type.String(),
    shortcode: Type.String(),
    caption: Type.String(),
    url: Type.String(),
    timestamp: isoTime(),
    media_type: StringEnum(['image', 'video', 'carousel']),
    stats: Type.Object({
      likes: Type.Union([Type.Integer(), Type.Null()], { description: 'null when the platform hides it' }),
      comments: Type.Integer(),
    }),
    enrichment,
  },
  { $id: 'PicnetPost' },
);
export type PicnetPost = Static<typeof PicnetPost>;

export const HashtagPost = Type.Object(
  {
    post_id: Type.String(),
    post_text: Type.String(),
    post_time: Type.String({ description: 'Unix time in seconds, as a string' }),
    profile_id: Type.Union([Type.String(), Type.Null()], {
      description: 'null when the platform does not say',
    }),
    profile_name: Type.Union([Type.String(), Type.Null()], {
      description: 'null when the platform does not say',
    }),
    reaction_count: Type.Union([Type.Integer(), Type.Null()], {
      description: 'null when the platform hides it',
    }),
    share_count: Type.Optional(Type.Integer({ description: 'clipnet only' })),
    play_count: Type.Optional(Type.Integer({ description: 'clipnet only' })),
    comment_count: Type.Integer(),
    source_name: Type.String({ description: 'The hashtag that produced the post' }),
    post_url: Type.String({ description: 'May lack the scheme prefix' }),
    enrichment,
  },
  { $id: 'HashtagPost' },
);
export type HashtagPost = Static<typeof HashtagPost>;

export const PostComment = Type.Object(
  {
    id: Type.String(),
    post_url: Type.String(),
    text: Type.String(),
    user: Type.Union([Type.String({ description: 'Prefixed with @' }), Type.Null()], {
      description: 'The author, prefixed with @; null when the platform does not name the author',
    }),
    timestamp: isoTime(),
    likes: Type.Integer(),
    enrichment,
  },
  { $id: 'PostComment' },
);
export type PostComment = Static<typeof PostComment>;

const videoStats = Type.Object({
  views: Type.Integer(),
  likes: Type.Union([Type.Integer(), Type.Null()], { description: 'null when the platform hides it' }),
  comments: Type.Union([Type.Integer(), Type.Null()], { description: 'null when the platform hides it' }),
});

const videoBase = {
  video_id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  channel_id: Type.String(),
  channel_title: Type.String(),
  published_at: isoTime(),
  thumbnail: Type.String(),
  stats: videoStats,
};

export const VidnetVideo = Type.Object(
  {
    ...videoBase,
    source_keyword: Type.String({ description: 'The keyword that produced the video' }),
    enrichment,
  },
  { $id: 'VidnetVideo' },
);
export type VidnetVideo = Static<typeof VidnetVideo>;

export const VidnetHashtagVideo = Type.Object(
  {
    ...videoBase,
    source_hashtag: Type.String({ description: 'The hashtag that produced the video' }),
    duration_seconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    is_short: Type.Optional(Type.Boolean()),
    enrichment,
  },
  { $id: 'VidnetHashtagVideo' },
);
export type VidnetHashtagVideo = Static<typeof VidnetHashtagVideo>;

export const VidnetChannelVideo = Type.Object(
  {
    ...videoBase,
    source_browse_id: Type.String({ description: 'The channel browse id that produced the video' }),
    duration_seconds: Type.Union([Type.Integer(), Type.Null()]),
    is_short: Type.Boolean(),
    enrichment,
  },
  { $id: 'VidnetChannelVideo' },
);
export type VidnetChannelVideo = Static<typeof VidnetChannelVideo>;

export const VidnetComment = Type.Object(
  {
    id: Type.String(),
    video_id: Type.String(),
    text: Type.String(),
    author: Type.String(),
    timestamp: isoTime(),
    likes: Type.Integer(),
    enrichment,
  },
  { $id: 'VidnetComment' },
);
export type VidnetComment = Static<typeof VidnetComment>;

// ---- blipnet (microblogging) ----

const nullable = <T extends TSchema>(t: T, description: string) =>
  Type.Union([t, Type.Null()], { description });

const BlipnetAuthor = Type.Object({
  id: Type.String({ description: 'The account id (on the live backend a DID, did:plc:…)' }),
  handle: Type.String({ description: 'The handle, without a leading @' }),
  display_name: nullable(Type.String(), 'null when the account has none'),
});

const blipnetCount = nullable(Type.Integer(), 'null when the platform does not give it');

const blipnetBase = {
  id: Type.String({
    description: 'The post id: its at:// URI (at://<author id>/app.bsky.feed.post/<record key>)',
  }),
  url: Type.String({ description: 'The post on the web client' }),
  text: Type.String(),
  timestamp: isoTime('When the author wrote it, ISO 8601 UTC'),
  author: BlipnetAuthor,
  stats: Type.Object({
    replies: blipnetCount,
    reposts: blipnetCount,
    likes: blipnetCount,
    quotes: blipnetCount,
  }),
  language: nullable(Type.String(), 'The first language the author declared (BCP 47); null when none'),
  links: Type.Array(Type.String(), {
    description: 'Links in the text and the linked card, in order, once each',
  }),
  media_urls: Type.Array(Type.String(), { description: 'Images (full size) and video playlists' }),
  hashtags: Type.Array(Type.String(), { description: 'Hashtags, without the #' }),
  mentions: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The mentioned account id' }),
      handle: nullable(Type.String(), 'The handle as written in the text, without the @'),
    }),
  ),
  parent_id: nullable(Type.String(), 'The id of the post this one replies to; null when it is no reply'),
  quote_of: nullable(Type.String(), 'The id of the post this one quotes; null when it quotes none'),
};

export const BlipnetPost = Type.Object(
  {
    ...blipnetBase,
    is_reply: Type.Boolean(),
    is_repost: Type.Boolean({
      description: "true when the user reposted someone's post: author is the original author",
    }),
    reposted_at: nullable(isoTime(), 'When the user reposted it; null for the user’s own posts'),
    enrichment,
  },
  { $id: 'BlipnetPost' },
);
export type BlipnetPost = Static<typeof BlipnetPost>;

export const BlipnetReply = Type.Object(
  {
    ...blipnetBase,
    parent_id: Type.String({ description: 'The id of the post this reply answers' }),
    post_url: Type.String({ description: 'The post asked for, as its web URL' }),
    depth: Type.Integer({ minimum: 1, description: '1 for a direct reply, 2 for a reply to it, …' }),
    enrichment,
  },
  { $id: 'BlipnetReply' },
);
export type BlipnetReply = Static<typeof BlipnetReply>;

export const BlipnetSearchPost = Type.Object(
  {
    ...blipnetBase,
    source_keyword: Type.String({ description: 'The keyword that produced the post' }),
    enrichment,
  },
  { $id: 'BlipnetSearchPost' },
);
export type BlipnetSearchPost = Static<typeof BlipnetSearchPost>;

export const BlipnetHashtagPost = Type.Object(
  {
    ...blipnetBase,
    source_hashtag: Type.String({ description: 'The hashtag that produced the post' }),
    enrichment,
  },
  { $id: 'BlipnetHashtagPost' },
);
export type BlipnetHashtagPost = Static<typeof BlipnetHashtagPost>;

/** what every blipnet item has, whichever endpoint returned it */
export type BlipnetItem = BlipnetPost | BlipnetReply | BlipnetSearchPost | BlipnetHashtagPost;

export const itemSchemas = [
  Enrichment,
  ClipnetPost,
  PicnetPost,
  HashtagPost,
  PostComment,
  VidnetVideo,
  VidnetHashtagVideo,
  VidnetChannelVideo,
  VidnetComment,
  BlipnetPost,
  BlipnetReply,
  BlipnetSearchPost,
  BlipnetHashtagPost,
];
