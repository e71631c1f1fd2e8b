export { API_PREFIX, API_VERSION, DEFAULT_BASE_URL, depthFor, ENDPOINT_PATHS, Gleaner, type GleanerOptions, itemsOf, MAX_DEPTH, MAX_PAGE_SIZE, type RetryInfo, VIDEOS_PER_DEPTH, } from './client.js';
export { type ClientErrorCode, GleanerAuthError, GleanerBadRequestError, GleanerError, type GleanerErrorKind, GleanerNetworkError, GleanerNotFoundError, GleanerPaymentError, GleanerRateLimitError, GleanerUpstreamError, } from './errors.js';
export { Endpoints } from './generated.js';
export { addCredits, type PageState, type PaginateOptions, Paginator, type StopReason } from './paginate.js';
export { backoffMs, DEFAULT_RETRY, parseRetryAfter, type RetryPolicy } from './retry.js';
export type * from './types.js';
