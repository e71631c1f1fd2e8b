// Request and response types of every endpoint, derived from the contract schemas in src/contract.
// Only types are imported (`import type`), so the client carries no schema library at run time.
import type { Static } from '@sinclair/typebox';
import type { ErrorCode, ErrorDetail, Metadata, Warning } from '../../../src/contract/common.js';
import type {
  AnalyzeBody,
  AnalyzeData,
  BulkPostsBody,
  BulkPostsData,
  ChannelShortsBody,
  ChannelShortsData,
  ChannelVideosBody,
  ChannelVideosData,
  CommentsData,
  EndpointId,
  HashtagPostsBody,
  HashtagPostsData,
  PicnetUserPostsBody,
  PostCommentsBody,
  UserPostsBody,
  UserPostsData,
  VidnetCommentsBody,
  VidnetHashtagBody,
  VidnetHashtagData,
  VidnetSearchBody,
  VidnetSearchData,
} from '../../../src/contract/endpoints.js';
import type {
  ClipnetPost as ClipnetPostSchema,
  Enrichment,
  EnrichmentType,
  HashtagPost as HashtagPostSchema,
  LlmProvider,
  PicnetPost as PicnetPostSchema,
  PostComment as PostCommentSchema,
  VidnetChannelVideo as VidnetChannelVideoSchema,
  VidnetComment as VidnetCommentSchema,
  VidnetHashtagVideo as VidnetHashtagVideoSchema,
  VidnetVideo as VidnetVideoSchema,
} from '../../../src/contract/items.js';

/** The item schemas point at the Enrichment schema by reference, which a static type cannot
 *  follow; this puts the Enrichment type back. */
type WithEnrichment<T> = Omit<T, 'enrichment'> & { enrichment?: Enrichment };
export type ClipnetPost = WithEnrichment<ClipnetPostSchema>;
export type PicnetPost = WithEnrichment<PicnetPostSchema>;
export type HashtagPost = WithEnrichment<HashtagPostSchema>;
export type PostComment = WithEnrichment<PostCommentSchema>;
export type VidnetVideo = WithEnrichment<VidnetVideoSchema>;
export type VidnetHashtagVideo = WithEnrichment<VidnetHashtagVideoSchema>;
export type VidnetChannelVideo = WithEnrichment<VidnetChannelVideoSchema>;
export type VidnetComment = WithEnrichment<VidnetCommentSchema>;

export type {
  EndpointId,
  Enrichment,
  EnrichmentType,
  ErrorCode,
  ErrorDetail,
  LlmProvider,
  Metadata,
  Warning,
};

/** Body fields that have a server-side default: optional for the caller. */
type Defaulted =
  | 'limit'
  | 'limit_per_post'
  | 'limit_per_user'
  | 'days'
  | 'max_posts_per_hashtag'
  | 'max_posts_per_keyword'
  | 'depth'
  | 'period'
  | 'sorting'
  | 'only_shorts';
type Input<T> = Omit<T, Defaulted & keyof T> & Partial<Pick<T, Defaulted & keyof T>>;

/** The contract's data schemas point at item schemas by reference, which a static type cannot
 *  follow; these put the item type back in place of the reference. */
type With<T, K extends keyof T, Item> = Omit<T, K> & { [P in K]: Item[] };

export type ClipnetPostsParams = Input<Static<typeof UserPostsBody>>;
export type PicnetPostsParams = Input<Static<typeof PicnetUserPostsBody>>;
export type PostCommentsParams = Input<Static<typeof PostCommentsBody>>;
export type BulkPostsParams = Input<Static<typeof BulkPostsBody>>;
export type HashtagPostsParams = Input<Static<typeof HashtagPostsBody>>;
export type VidnetSearchParams = Input<Static<typeof VidnetSearchBody>>;
export type VidnetHashtagParams = Input<Static<typeof VidnetHashtagBody>>;
export type VidnetCommentsParams = Input<Static<typeof VidnetCommentsBody>>;
export type ChannelVideosParams = Input<Static<typeof ChannelVideosBody>>;
export type ChannelShortsParams = Input<Static<typeof ChannelShortsBody>>;
export type AnalyzeParams = Input<Static<typeof AnalyzeBody>>;

type UserPosts = Static<ReturnType<typeof UserPostsData>>;
type Comments = Static<ReturnType<typeof CommentsData>>;
export type ClipnetPostsData = With<UserPosts, 'posts', ClipnetPost>;
export type PicnetPostsData = With<UserPosts, 'posts', PicnetPost>;
export type PostCommentsData = With<Comments, 'comments', PostComment>;
export type VidnetCommentsData = With<Comments, 'comments', VidnetComment>;
export type BulkPostsResult = {
  users: Array<With<Static<typeof BulkPostsData>['users'][number], 'posts', ClipnetPost>>;
};
export type HashtagPostsResult = With<Static<typeof HashtagPostsData>, 'posts', HashtagPost>;
export type VidnetSearchResult = With<Static<typeof VidnetSearchData>, 'videos', VidnetVideo>;
export type VidnetHashtagResult = With<Static<typeof VidnetHashtagData>, 'videos', VidnetHashtagVideo>;
export type ChannelVideosResult = With<Static<typeof ChannelVideosData>, 'videos', VidnetChannelVideo>;
export type ChannelShortsResult = With<Static<typeof ChannelShortsData>, 'shorts', VidnetChannelVideo>;
export type AnalyzeResult = {
  results: Array<
    Omit<Static<typeof AnalyzeData>['results'][number], 'enrichment'> & { enrichment: Enrichment }
  >;
};

/** Body and data type of each endpoint. */
export interface EndpointTypes {
  'clipnet.posts': { params: ClipnetPostsParams; data: ClipnetPostsData };
  'clipnet.comments': { params: PostCommentsParams; data: PostCommentsData };
  'clipnet.bulk_posts': { params: BulkPostsParams; data: BulkPostsResult };
  'clipnet.hashtag_posts': { params: HashtagPostsParams; data: HashtagPostsResult };
  'picnet.posts': { params: PicnetPostsParams; data: PicnetPostsData };
  'picnet.comments': { params: PostCommentsParams; data: PostCommentsData };
  'picnet.hashtag_posts': { params: HashtagPostsParams; data: HashtagPostsResult };
  'vidnet.search': { params: VidnetSearchParams; data: VidnetSearchResult };
  'vidnet.hashtag_search': { params: VidnetHashtagParams; data: VidnetHashtagResult };
  'vidnet.comments': { params: VidnetCommentsParams; data: VidnetCommentsData };
  'vidnet.channel_videos': { params: ChannelVideosParams; data: ChannelVideosResult };
  'vidnet.channel_shorts': { params: ChannelShortsParams; data: ChannelShortsResult };
  'ml.analyze': { params: AnalyzeParams; data: AnalyzeResult };
}
export type ParamsOf<Id extends EndpointId> = EndpointTypes[Id]['params'];
export type DataOf<Id extends EndpointId> = EndpointTypes[Id]['data'];

/** What every endpoint method resolves to. */
export interface ApiResult<D> {
  data: D;
  /** the response's metadata, with `enrichments` and `enrichments_applied` both filled in */
  metadata: Metadata;
  /** credits charged for this logical call, once, whatever the number of attempts (a replayed
   *  answer reports what the original attempt was charged) */
  creditsUsed: number;
  /** the key's balance after this call, when the server reported it */
  creditsRemaining: number | undefined;
  /** the server's request id (X-Request-Id) */
  requestId: string | undefined;
  /** the enrichment types applied, whichever of the two metadata names the server used */
  enrichments: EnrichmentType[];
  /** targets that produced nothing (`metadata.warnings`), or [] */
  warnings: Warning[];
  /** true when the balance covered only part of the result (`metadata.truncated`) */
  truncated: boolean;
  /** true when the server answered from its idempotency store (a retry of a call it had served) */
  replayed: boolean;
  /** the Idempotency-Key sent with every attempt of this call */
  idempotencyKey: string;
  /** attempts made (1 when the first one succeeded) */
  attempts: number;
}
