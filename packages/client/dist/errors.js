export function kindOf(code, status) {
    switch (code) {
        case 'BAD_REQUEST':
        case 'PAYLOAD_TOO_LARGE':
        case 'UNSUPPORTED_MEDIA_TYPE':
        case 'METHOD_NOT_ALLOWED':
            return 'bad_request';
        case 'UNAUTHORIZED':
            return 'auth';
        case 'PAYMENT_REQUIRED':
            return 'payment';
        case 'NOT_FOUND':
            return 'not_found';
        case 'RATE_LIMITED':
            return 'rate_limit';
        case 'EXTERNAL_API_ERROR':
        case 'SERVICE_UNAVAILABLE':
            return 'upstream';
        case 'IDEMPOTENCY_IN_PROGRESS':
        case 'IDEMPOTENCY_KEY_REUSED':
            return 'idempotency';
        case 'NETWORK_ERROR':
            return 'network';
        case 'TIMEOUT':
            return 'timeout';
        case 'INTERNAL_SERVER_ERROR':
            return 'server';
        default:
            return status === 429 ? 'rate_limit' : status === 502 || status === 503 ? 'upstream' : 'other';
    }
}
export class GleanerError extends Error {
    name = 'GleanerError';
    /** the API's `error.code`, or NETWORK_ERROR / TIMEOUT / INVALID_RESPONSE */
    code;
    /** HTTP status; 0 when no answer arrived */
    status;
    /** `error.details` of a 400: one `{ field, message }` per problem; [] otherwise */
    details;
    /** X-Request-Id of the failed attempt, to quote to the operator */
    requestId;
    /** Retry-After of the last answer, in seconds */
    retryAfterSeconds;
    /** attempts made before giving up */
    attempts;
    kind;
    constructor(init) {
        super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
        this.code = init.code;
        this.status = init.status;
        this.details = init.details ?? [];
        this.requestId = init.requestId;
        this.retryAfterSeconds = init.retryAfterSeconds;
        this.attempts = init.attempts ?? 1;
        this.kind = kindOf(init.code, init.status);
    }
}
/** 400 and other rejections of the request itself */
export class GleanerBadRequestError extends GleanerError {
    name = 'GleanerBadRequestError';
}
/** 401: missing, invalid or revoked key */
export class GleanerAuthError extends GleanerError {
    name = 'GleanerAuthError';
}
/** 402: the balance does not cover the call's minimum charge */
export class GleanerPaymentError extends GleanerError {
    name = 'GleanerPaymentError';
}
/** 404: a single target does not exist */
export class GleanerNotFoundError extends GleanerError {
    name = 'GleanerNotFoundError';
}
/** 429 still returned after the last retry */
export class GleanerRateLimitError extends GleanerError {
    name = 'GleanerRateLimitError';
}
/** 502/503: a platform failed or is switched off, still so after the last retry */
export class GleanerUpstreamError extends GleanerError {
    name = 'GleanerUpstreamError';
}
/** no answer: connection refused or reset, DNS, timeout */
export class GleanerNetworkError extends GleanerError {
    name = 'GleanerNetworkError';
}
/** The subclass of each kind; the other kinds are plain GleanerErrors. */
const CLASS_OF_KIND = {
    bad_request: GleanerBadRequestError,
    auth: GleanerAuthError,
    payment: GleanerPaymentError,
    not_found: GleanerNotFoundError,
    rate_limit: GleanerRateLimitError,
    upstream: GleanerUpstreamError,
    network: GleanerNetworkError,
    timeout: GleanerNetworkError,
};
/** The subclass matching an error's kind. */
export function createError(init) {
    const C = CLASS_OF_KIND[kindOf(init.code, init.status)] ?? GleanerError;
    return new C(init);
}
