// @gleaner/client: the Gleaner API client. See README.md.
export { API_PREFIX, API_VERSION, DEFAULT_BASE_URL, depthFor, ENDPOINT_PATHS, Gleaner, itemsOf, MAX_DEPTH, MAX_PAGE_SIZE, VIDEOS_PER_DEPTH, } from './client.js';
export { GleanerAuthError, GleanerBadRequestError, GleanerError, GleanerNetworkError, GleanerNotFoundError, GleanerPaymentError, GleanerRateLimitError, GleanerUpstreamError, } from './errors.js';
export { Endpoints } from './generated.js';
export { addCredits, Paginator } from './paginate.js';
export { backoffMs, DEFAULT_RETRY, parseRetryAfter } from './retry.js';
