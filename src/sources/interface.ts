// What a content endpoint asks of a platform. Every platform backend (the embedded sandbox and
// the live ones) implements the interface of its platform; services/ picks one from config.
// Nothing here knows about HTTP status codes: failures are SourceError values with a kind, and
// errors.ts maps them to the envelope at the edge.
import type {
  BlipnetHashtagPost,
  BlipnetPost,
  BlipnetReply,
  BlipnetSearchPost,
  ClipnetPost,
  HashtagPost,
  PicnetPost,
  PostComment,
  VidnetChannelVideo,
  VidnetComment,
  VidnetHashtagVideo,
  VidnetVideo,
} from '../contract/items.js';

export type Platform = 'clipnet' | 'picnet' | 'vidnet' | 'blipnet';

export type SourceErrorKind =
  /** the user, post, video or channel does not exist (or is not public) */
  | 'not_found'
  /** the upstream rate-limited us; retryAfterSeconds when it said so */
  | 'throttled'
  /** the upstream answered with an error or a response we could not read */
  | 'upstream'
  /** the upstream did not answer in time */
  | 'timeout'
  /** the backend is switched off (circuit breaker open, not configured, overloaded) */
  | 'unavailable'
  /** the backend cannot do this operation at all (failover tries the next backend) */
  | 'unsupported'
  /** the cursor is malformed or was issued by another backend */
  | 'bad_cursor';

export class SourceError extends Error {
  override readonly name = 'SourceError';
  constructor(
    readonly kind: SourceErrorKind,
    message: string,
    readonly options: { retryAfterSeconds?: number; backend?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }
}

export interface SourceCallContext {
  /** aborted when the client goes away or the request deadline passes */
  signal?: AbortSignal;
  /** whether the deadline has passed, without creating the signal (a timer) to ask it */
  expired?: () => boolean;
  requestId?: string;
  /** told of each upstream item the backend could not read and left out (see drift.ts) */
  onSkip?: (skip: SkippedItem) => void;
}

/** An upstream item that a backend could not read (its layout changed) and left out of a page. */
export interface SkippedItem {
  backend: string;
  /** what the item was, in the singular ('video', 'comment', 'post') */
  what: string;
  /** why it could not be read */
  reason: string;
}

/** One page of a cursor-paged list. Each item carries the cursor that continues right after it,
 *  so that a result truncated by the caller's balance can still hand out an exact cursor. */
export interface Page<T> {
  items: Array<{ item: T; cursor: string }>;
  /** whether more items exist after the last item of this page */
  hasMore: boolean;
}

/** A post or video named by the caller, as parsed from a URL, a short link or a bare id. */
export interface PostRef {
  /** the id, shortcode or short-link code read from the caller's string */
  id: string;
  /** 'id': a canonical post/video id or shortcode; 'shortlink': a code from a short link that the
   *  backend must resolve */
  form: 'id' | 'shortlink';
  /** the caller's string, for warnings */
  input: string;
}

export interface UserPostsQuery {
  /** without a leading @; on picnet may be a numeric user id */
  username: string;
  limit: number;
  /** the backend's own cursor (the service unwraps the public one) */
  cursor?: string;
}

export interface CommentsQuery {
  post: PostRef;
  limit: number;
}

export interface HashtagPostsQuery {
  /** without the leading # */
  hashtag: string;
  days: number;
  max: number;
}

export interface SourceInfo {
  /** short backend name as used in CLIPNET_SOURCE etc. ('sandbox', 'youtubei', ...) */
  readonly name: string;
  /** reported to callers as metadata.source */
  readonly kind: 'sandbox' | 'live';
}

export interface ClipnetSource extends SourceInfo {
  userPosts(q: UserPostsQuery, ctx?: SourceCallContext): Promise<Page<ClipnetPost>>;
  comments(q: CommentsQuery, ctx?: SourceCallContext): Promise<PostComment[]>;
  /** hashtag posts carry share_count and play_count on clipnet */
  hashtagPosts(q: HashtagPostsQuery, ctx?: SourceCallContext): Promise<HashtagPost[]>;
}

export interface PicnetSource extends SourceInfo {
  userPosts(q: UserPostsQuery, ctx?: SourceCallContext): Promise<Page<PicnetPost>>;
  comments(q: CommentsQuery, ctx?: SourceCallContext): Promise<PostComment[]>;
  /** hashtag posts have no share_count or play_count on picnet */
  hashtagPosts(q: HashtagPostsQuery, ctx?: SourceCallContext): Promise<HashtagPost[]>;
}

export type VidnetPeriod = 'today' | 'week' | 'month' | 'all';
export type VidnetSorting = 'relevance' | 'date' | 'viewCount' | 'rating';

export interface VidnetSearchQuery {
  keyword: string;
  /** at most this many videos */
  max: number;
  /** upstream result pages to read (one page is about 20 videos) */
  depth: number;
  period: VidnetPeriod;
  sorting: VidnetSorting;
}

export interface VidnetSearchResult {
  videos: VidnetVideo[];
  /** 'native' when the platform sorted, 'emulated' when the backend sorted what it fetched */
  sortingApplied: 'native' | 'emulated';
}

export interface VidnetHashtagQuery {
  hashtag: string;
  depth: number;
  onlyShorts: boolean;
  max: number;
}

export interface VidnetChannelQuery {
  browseId: string;
  depth: number;
  max: number;
}

export interface VidnetSource extends SourceInfo {
  search(q: VidnetSearchQuery, ctx?: SourceCallContext): Promise<VidnetSearchResult>;
  hashtag(q: VidnetHashtagQuery, ctx?: SourceCallContext): Promise<VidnetHashtagVideo[]>;
  comments(q: { video: PostRef; limit: number }, ctx?: SourceCallContext): Promise<VidnetComment[]>;
  channelVideos(q: VidnetChannelQuery, ctx?: SourceCallContext): Promise<VidnetChannelVideo[]>;
  channelShorts(q: Omit<VidnetChannelQuery, 'depth'>, ctx?: SourceCallContext): Promise<VidnetChannelVideo[]>;
}

export type BlipnetPeriod = 'today' | 'week' | 'month' | 'year' | 'all';
export type BlipnetSorting = 'latest' | 'top';

export interface BlipnetUserPostsQuery {
  /** a handle without a leading @, or an account id (did:…) */
  username: string;
  limit: number;
  /** the backend's own cursor (the service unwraps the public one) */
  cursor?: string;
}

export interface BlipnetSearchQuery {
  keyword: string;
  /** at most this many posts */
  max: number;
  /** upstream result pages to read at most (one page is 25 posts) */
  depth: number;
  period: BlipnetPeriod;
  sorting: BlipnetSorting;
  /** the backend's own cursor, to continue a previous search of the same keyword */
  cursor?: string;
}

export interface BlipnetHashtagQuery {
  /** without the leading # */
  hashtag: string;
  days: number;
  max: number;
}

export interface BlipnetSource extends SourceInfo {
  /** the user's posts, replies and reposts, newest first */
  userPosts(q: BlipnetUserPostsQuery, ctx?: SourceCallContext): Promise<Page<BlipnetPost>>;
  /** the replies under a post, flattened depth first (parents before their replies) */
  replies(q: { post: PostRef; limit: number }, ctx?: SourceCallContext): Promise<BlipnetReply[]>;
  /** each item's cursor continues the same search right after it */
  search(q: BlipnetSearchQuery, ctx?: SourceCallContext): Promise<Page<BlipnetSearchPost>>;
  hashtagPosts(q: BlipnetHashtagQuery, ctx?: SourceCallContext): Promise<BlipnetHashtagPost[]>;
}

export interface Sources {
  clipnet: ClipnetSource;
  picnet: PicnetSource;
  vidnet: VidnetSource;
  blipnet: BlipnetSource;
  close(): Promise<void>;
}
