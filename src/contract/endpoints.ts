// The API contract: every endpoint with its path, request body and response data schemas.
// Routes, the OpenAPI document, tests and the client SDK all read this one list.
import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
import { Categories, enrichParams } from './common.js';
import { EnrichmentType, LlmProvider } from './items.js';
import { StringEnum } from './string-enum.js';

const int = (min: number, max: number, dflt: number, description: string) =>
  Type.Integer({ minimum: min, maximum: max, default: dflt, description: `${description} (${min}-${max})` });

const Username = Type.String({
  minLength: 1,
  maxLength: 101,
  pattern: '^@?[A-Za-z0-9._-]{1,100}$',
  description: 'Username, without a leading @ (a leading @ is accepted and stripped)',
});
const Hashtag = Type.String({
  minLength: 1,
  maxLength: 101,
  pattern: '^#?[\\p{L}\\p{N}_]{1,100}$',
  description: 'A hashtag, with or without the leading #',
});
const PostUrl = Type.String({ minLength: 1, maxLength: 2048 });
const Cursor = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Cursor from the previous response',
});
const BrowseId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Keyword = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: 'A search keyword',
});

const ref = (id: string) => Type.Ref(id);

// ---- request bodies ----

/** request bodies take only their documented fields: a typo is a 400, never run (or billed) as
 *  something else */
const STRICT = { additionalProperties: false } as const;

export const UserPostsBody = Type.Object(
  {
    username: Username,
    limit: int(1, 100, 10, 'Posts to return'),
    cursor: Type.Optional(Cursor),
    ...enrichParams,
  },
  STRICT,
);
export type UserPostsBody = Static<typeof UserPostsBody>;

export const PicnetUserPostsBody = Type.Object(
  {
    ...UserPostsBody.properties,
    username: Type.String({
      ...Username,
      description: 'Username (a leading @ is stripped) or numeric user id',
    }),
  },
  STRICT,
);

export const PostCommentsBody = Type.Object(
  {
    post_urls: Type.Array(PostUrl, {
      minItems: 1,
      maxItems: 100,
      description: 'Post URLs (full, without scheme, short links) or bare ids; formats may be mixed',
    }),
    limit_per_post: int(1, 500, 50, 'Comments per post'),
    ...enrichParams,
  },
  STRICT,
);
export type PostCommentsBody = Static<typeof PostCommentsBody>;

export const BulkPostsBody = Type.Object(
  {
    usernames: Type.Array(Username, { minItems: 1, maxItems: 100 }),
    limit_per_user: int(1, 100, 10, 'Posts per user'),
    ...enrichParams,
  },
  STRICT,
);
export type BulkPostsBody = Static<typeof BulkPostsBody>;

export const HashtagPostsBody = Type.Object(
  {
    hashtags: Type.Array(Hashtag, { minItems: 1, maxItems: 10 }),
    days: int(1, 30, 7, 'Look-back period in days'),
    max_posts_per_hashtag: int(1, 500, 100, 'Posts per hashtag'),
    ...enrichParams,
  },
  STRICT,
);
export type HashtagPostsBody = Static<typeof HashtagPostsBody>;

export const VidnetSearchBody = Type.Object(
  {
    keywords: Type.Array(Keyword, { minItems: 1, maxItems: 10 }),
    max_posts_per_keyword: int(1, 500, 100, 'Videos per keyword'),
    depth: int(1, 50, 30, 'Result pages to read per keyword (one page is about 20 videos)'),
    period: StringEnum(['today', 'week', 'month', 'all'], {
      default: 'today',
      description: 'Publish-time window',
    }),
    sorting: StringEnum(['relevance', 'date', 'viewCount', 'rating'], { default: 'relevance' }),
    ...enrichParams,
  },
  STRICT,
);
export type VidnetSearchBody = Static<typeof VidnetSearchBody>;

export const VidnetHashtagBody = Type.Object(
  {
    hashtags: Type.Array(Hashtag, { minItems: 1, maxItems: 10 }),
    depth: int(1, 50, 1, 'Result pages to read per hashtag (one page is about 20 videos)'),
    only_shorts: Type.Boolean({ default: false, description: 'Restrict results to Shorts' }),
    ...enrichParams,
  },
  STRICT,
);
export type VidnetHashtagBody = Static<typeof VidnetHashtagBody>;

export const VidnetCommentsBody = Type.Object(
  {
    post_urls: Type.Array(PostUrl, {
      minItems: 1,
      maxItems: 100,
      description: 'Watch URLs, short links, /shorts/ URLs or bare video ids; formats may be mixed',
    }),
    limit_per_post: int(1, 500, 50, 'Comments per video'),
    ...enrichParams,
  },
  STRICT,
);
export type VidnetCommentsBody = Static<typeof VidnetCommentsBody>;

export const ChannelVideosBody = Type.Object(
  {
    browse_ids: Type.Array(BrowseId, { minItems: 1, maxItems: 10, description: 'Channel browse ids' }),
    depth: int(1, 50, 10, 'Pages of videos per channel (one page is about 20 videos)'),
    ...enrichParams,
  },
  STRICT,
);
export type ChannelVideosBody = Static<typeof ChannelVideosBody>;

export const ChannelShortsBody = Type.Object(
  {
    browse_ids: Type.Array(BrowseId, { minItems: 1, maxItems: 10, description: 'Channel browse ids' }),
    ...enrichParams,
  },
  STRICT,
);
export type ChannelShortsBody = Static<typeof ChannelShortsBody>;

// ---- blipnet ----

/** a handle (alice.blipnet.social) or an account id (a DID: did:plc:…, did:web:…) */
const BlipnetActor = Type.String({
  minLength: 1,
  maxLength: 2049,
  pattern: '^@?(?:[A-Za-z0-9][A-Za-z0-9._-]{0,252}|did:[a-z]+:[A-Za-z0-9._:%-]{1,2040})$',
  description: 'Handle (a leading @ is accepted and stripped) or account id (did:plc:…)',
});

export const BlipnetPostsBody = Type.Object(
  {
    username: BlipnetActor,
    limit: int(1, 100, 10, 'Posts to return'),
    cursor: Type.Optional(Cursor),
    ...enrichParams,
  },
  STRICT,
);
export type BlipnetPostsBody = Static<typeof BlipnetPostsBody>;

export const BlipnetCommentsBody = Type.Object(
  {
    post_urls: Type.Array(PostUrl, {
      minItems: 1,
      maxItems: 100,
      description:
        'Post URLs of the web client (…/profile/<handle or id>/post/<key>) or post ids (at:// URIs); formats may be mixed',
    }),
    limit_per_post: int(1, 500, 50, 'Replies per post, across every depth of the thread'),
    ...enrichParams,
  },
  STRICT,
);
export type BlipnetCommentsBody = Static<typeof BlipnetCommentsBody>;

export const BLIPNET_PERIODS = ['today', 'week', 'month', 'year', 'all'] as const;

export const BlipnetSearchBody = Type.Object(
  {
    keywords: Type.Array(Keyword, { minItems: 1, maxItems: 10 }),
    max_posts_per_keyword: int(1, 500, 100, 'Posts per keyword'),
    depth: int(1, 50, 4, 'Result pages to read per keyword (one page is 25 posts)'),
    period: StringEnum(BLIPNET_PERIODS, { default: 'week', description: 'Posting-time window' }),
    sorting: StringEnum(['latest', 'top'], {
      default: 'latest',
      description: 'latest: newest first; top: most engagement first',
    }),
    cursor: Type.Optional(
      Type.String({
        ...Cursor,
        description: 'Cursor from the previous response; only with a single keyword',
      }),
    ),
    ...enrichParams,
  },
  STRICT,
);
export type BlipnetSearchBody = Static<typeof BlipnetSearchBody>;

export const AnalyzeBody = Type.Object(
  {
    texts: Type.Array(Type.String({ maxLength: 100_000 }), {
      minItems: 1,
      maxItems: 100,
      description: 'Texts to analyze (1-100, each at most 100,000 characters)',
    }),
    enrich: Type.Optional(
      Type.Array(EnrichmentType, {
        minItems: 1,
        maxItems: 4,
        description: 'Analysis types to run (required)',
      }),
    ),
    analyses: Type.Optional(
      Type.Array(EnrichmentType, { minItems: 1, maxItems: 4, description: 'Alias of `enrich`' }),
    ),
    categories: Type.Optional(Categories),
    llm_provider: Type.Optional(LlmProvider),
  },
  STRICT,
);
export type AnalyzeBody = Static<typeof AnalyzeBody>;

// ---- response data ----

export const UserPostsData = (item: string) =>
  Type.Object({
    posts: Type.Array(ref(item)),
    cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass it on the next call while has_more is true',
    }),
    has_more: Type.Boolean(),
  });
export const CommentsData = (item: string) => Type.Object({ comments: Type.Array(ref(item)) });
export const BulkPostsData = Type.Object({
  users: Type.Array(Type.Object({ username: Type.String(), posts: Type.Array(ref('ClipnetPost')) })),
});
export const HashtagPostsData = Type.Object({
  posts: Type.Array(ref('HashtagPost')),
  hashtags: Type.Array(Type.String()),
  days: Type.Integer(),
  total_posts: Type.Integer(),
});
export const VidnetSearchData = Type.Object({
  videos: Type.Array(ref('VidnetVideo')),
  keywords: Type.Array(Type.String()),
  total_videos: Type.Integer(),
});
export const VidnetHashtagData = Type.Object({
  videos: Type.Array(ref('VidnetHashtagVideo')),
  hashtags: Type.Array(Type.String()),
  total_videos: Type.Integer(),
});
export const ChannelVideosData = Type.Object({
  videos: Type.Array(ref('VidnetChannelVideo')),
  browse_ids: Type.Array(Type.String()),
  total_videos: Type.Integer(),
});
export const ChannelShortsData = Type.Object({
  shorts: Type.Array(ref('VidnetChannelVideo'), { description: 'Always present; empty when none' }),
  browse_ids: Type.Array(Type.String()),
  total_shorts: Type.Integer(),
});
export const AnalyzeData = Type.Object({
  results: Type.Array(Type.Object({ text: Type.String(), enrichment: ref('Enrichment') })),
});

export const BlipnetSearchData = Type.Object({
  posts: Type.Array(ref('BlipnetSearchPost')),
  keywords: Type.Array(Type.String()),
  total_posts: Type.Integer(),
  cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'With a single keyword: pass it on the next call while has_more is true',
  }),
  has_more: Type.Boolean({ description: 'Whether a keyword has more posts than were read' }),
});
export const BlipnetHashtagData = Type.Object({
  posts: Type.Array(ref('BlipnetHashtagPost')),
  hashtags: Type.Array(Type.String()),
  days: Type.Integer(),
  total_posts: Type.Integer(),
});

/** the largest request body of an endpoint, unless it says otherwise */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** /ml/analyze takes up to 100 texts of 100,000 characters. A character (a code point, as the
 *  schema counts them) is at most 4 bytes of UTF-8, so the largest valid body written as raw UTF-8
 *  is about 40,000,000 bytes; 40 MiB leaves room for the rest of it. JSON escapes (`\u00e9`)
 *  take more bytes per character and count against the limit. */
export const ANALYZE_BODY_LIMIT = 40 * 1024 * 1024;

/** deepest nesting of objects and arrays in a body (the contract's deepest is 3,
 *  `categories.topic[i]`); a deeper body is answered 400 before it is parsed */
export const MAX_BODY_DEPTH = 32;
/** values (objects, arrays, members and elements) in a body; the largest valid body holds a few
 *  hundred. More is answered 400 before the body is parsed. */
export const MAX_BODY_VALUES = 10_000;

/** a byte count as operators write it (1 MiB, 16 KiB) */
export function formatBytes(n: number): string {
  const MiB = 1024 * 1024;
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

export interface EndpointDef {
  id: EndpointId;
  path: string;
  summary: string;
  description: string;
  tag: 'clipnet' | 'picnet' | 'vidnet' | 'blipnet' | 'ml';
  body: TObject;
  data: TSchema;
  /** a valid example request body */
  example: Record<string, unknown>;
  /** the largest request body in bytes (a larger one is answered 413) */
  bodyLimit: number;
}

export type EndpointId =
  | 'clipnet.posts'
  | 'clipnet.comments'
  | 'clipnet.bulk_posts'
  | 'clipnet.hashtag_posts'
  | 'picnet.posts'
  | 'picnet.comments'
  | 'picnet.hashtag_posts'
  | 'vidnet.search'
  | 'vidnet.hashtag_search'
  | 'vidnet.comments'
  | 'vidnet.channel_videos'
  | 'vidnet.channel_shorts'
  | 'blipnet.posts'
  | 'blipnet.comments'
  | 'blipnet.search'
  | 'blipnet.hashtag_posts'
  | 'ml.analyze';

export const ENDPOINTS: readonly EndpointDef[] = [
  {
    id: 'clipnet.posts',
    path: '/clipnet/posts',
    tag: 'clipnet',
    summary: 'Posts of a clipnet user',
    description: 'Newest first, cursor-paged. Credits: 1 + 1 per post, plus enrichment.',
    body: UserPostsBody,
    data: UserPostsData('ClipnetPost'),
    example: { username: 'example_user', limit: 10, enrich: ['sentiment'] },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'clipnet.comments',
    path: '/clipnet/comments',
    tag: 'clipnet',
    summary: 'Comments of clipnet posts',
    description: 'Credits: 1 + 0.5 per comment, plus enrichment.',
    body: PostCommentsBody,
    data: CommentsData('PostComment'),
    example: {
      post_urls: ['https://www.clipnet.com/@example_user/video/7300000000000000001'],
      limit_per_post: 20,
    },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'clipnet.bulk_posts',
    path: '/clipnet/bulk/posts',
    tag: 'clipnet',
    summary: 'Posts of several clipnet users',
    description: 'Credits: 2 + 1 per post, plus enrichment.',
    body: BulkPostsBody,
    data: BulkPostsData,
    example: { usernames: ['example_user', 'another_user'], limit_per_user: 5 },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'clipnet.hashtag_posts',
    path: '/clipnet/hashtag/posts',
    tag: 'clipnet',
    summary: 'clipnet posts by hashtag',
    description:
      'Posts of the last `days` days carrying each hashtag. Credits: 2 + 1 per post, plus enrichment.',
    body: HashtagPostsBody,
    data: HashtagPostsData,
    example: { hashtags: ['fitness'], days: 7, max_posts_per_hashtag: 20, enrich: ['sentiment', 'topics'] },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'picnet.posts',
    path: '/picnet/posts',
    tag: 'picnet',
    summary: 'Posts of a picnet user',
    description:
      'By username or numeric user id; newest first, cursor-paged. Credits: 1 + 1 per post, plus enrichment.',
    body: PicnetUserPostsBody,
    data: UserPostsData('PicnetPost'),
    example: { username: 'example_user', limit: 10 },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'picnet.comments',
    path: '/picnet/comments',
    tag: 'picnet',
    summary: 'Comments of picnet posts',
    description:
      'Each item is a full post URL, a URL without the scheme or a bare shortcode. Credits: 1 + 0.5 per comment, plus enrichment.',
    body: PostCommentsBody,
    data: CommentsData('PostComment'),
    example: { post_urls: ['https://www.picnet.com/p/AbCdEfGhIjK/', 'AbCdEfGhIjK'], limit_per_post: 20 },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'picnet.hashtag_posts',
    path: '/picnet/hashtag/posts',
    tag: 'picnet',
    summary: 'picnet posts by hashtag',
    description: 'Credits: 2 + 1 per post, plus enrichment.',
    body: HashtagPostsBody,
    data: HashtagPostsData,
    example: { hashtags: ['travel'], days: 7, max_posts_per_hashtag: 20 },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'vidnet.search',
    path: '/vidnet/search',
    tag: 'vidnet',
    summary: 'vidnet videos by keyword',
    description: 'Credits: 2 + 1 per video, plus enrichment.',
    body: VidnetSearchBody,
    data: VidnetSearchData,
    example: { keywords: ['review'], period: 'month', sorting: 'viewCount', max_posts_per_keyword: 20 },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'vidnet.hashtag_search',
    path: '/vidnet/hashtag/search',
    tag: 'vidnet',
    summary: 'vidnet videos by hashtag',
    description: 'Credits: 2 + 1 per video, plus enrichment.',
    body: VidnetHashtagBody,
    data: VidnetHashtagData,
    example: { hashtags: ['gaming'], depth: 1, only_shorts: true },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'vidnet.comments',
    path: '/vidnet/comments',
    tag: 'vidnet',
    summary: 'Comments of vidnet videos',
    description: 'Credits: 1 + 0.5 per comment, plus enrichment.',
    body: VidnetCommentsBody,
    data: CommentsData('VidnetComment'),
    example: { post_urls: ['https://www.vidnet.com/watch?v=AbCdEfGhIjK', 'AbCdEfGhIjK'], limit_per_post: 20 },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'vidnet.channel_videos',
    path: '/vidnet/channel/videos',
    tag: 'vidnet',
    summary: 'Videos of vidnet channels',
    description: 'Credits: 2 + 1 per video, plus enrichment.',
    body: ChannelVideosBody,
    data: ChannelVideosData,
    example: { browse_ids: ['UCabcdefghijklmnopqrstuv'], depth: 1 },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'vidnet.channel_shorts',
    path: '/vidnet/channel/shorts',
    tag: 'vidnet',
    summary: 'Shorts of vidnet channels',
    description: 'Credits: 2 + 1 per Short, plus enrichment.',
    body: ChannelShortsBody,
    data: ChannelShortsData,
    example: { browse_ids: ['UCabcdefghijklmnopqrstuv'] },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'blipnet.posts',
    path: '/blipnet/posts',
    tag: 'blipnet',
    summary: 'Posts of a blipnet user',
    description:
      'By handle or account id; newest first, cursor-paged, with replies and reposts flagged. Credits: 1 + 1 per post, plus enrichment.',
    body: BlipnetPostsBody,
    data: UserPostsData('BlipnetPost'),
    example: { username: 'example.blipnet.social', limit: 10 },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'blipnet.comments',
    path: '/blipnet/comments',
    tag: 'blipnet',
    summary: 'Replies to blipnet posts',
    description:
      'The thread under each post, flattened depth first: each reply names the post it answers (parent_id) and its depth. Credits: 1 + 0.5 per reply, plus enrichment.',
    body: BlipnetCommentsBody,
    data: CommentsData('BlipnetReply'),
    example: {
      post_urls: ['https://blipnet.app/profile/example.blipnet.social/post/3lbq2a7xk2c2a'],
      limit_per_post: 20,
    },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'blipnet.search',
    path: '/blipnet/search',
    tag: 'blipnet',
    summary: 'blipnet posts by keyword',
    description:
      'Posts containing every word of each keyword, newest or most engaging first, over a period. Pages by depth, or by cursor for a single keyword. Credits: 2 + 1 per post, plus enrichment.',
    body: BlipnetSearchBody,
    data: BlipnetSearchData,
    example: { keywords: ['coffee'], period: 'week', sorting: 'top', max_posts_per_keyword: 20 },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'blipnet.hashtag_posts',
    path: '/blipnet/hashtag/posts',
    tag: 'blipnet',
    summary: 'blipnet posts by hashtag',
    description:
      'Posts of the last `days` days carrying each hashtag, newest first. Credits: 2 + 1 per post, plus enrichment.',
    body: HashtagPostsBody,
    data: BlipnetHashtagData,
    example: { hashtags: ['coffee'], days: 7, max_posts_per_hashtag: 20 },
    bodyLimit: DEFAULT_BODY_LIMIT,
  },
  {
    id: 'ml.analyze',
    path: '/ml/analyze',
    tag: 'ml',
    summary: 'Analyze texts',
    description:
      'Runs the requested analyses on 1-100 texts. Credits per text: sentiment 0.5, topics 1, intent 1, keywords 0.5, the same with either llm_provider.',
    body: AnalyzeBody,
    data: AnalyzeData,
    example: { texts: ['I love this phone, but the battery is awful'], enrich: ['sentiment', 'intent'] },
    bodyLimit: ANALYZE_BODY_LIMIT,
  },
];

export const API_PREFIX = '/api/v1';
/** the spec's overview shows the same paths without the version; they are served as aliases */
export const ALIAS_PREFIX = '/api';

export function endpoint(id: EndpointId): EndpointDef {
  const e = ENDPOINTS.find((x) => x.id === id);
  if (!e) throw new Error(`unknown endpoint ${id}`);
  return e;
}
