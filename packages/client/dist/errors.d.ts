import type { ErrorCode, ErrorDetail } from './types.js';
/** Codes the client adds to the API's own error codes. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'INVALID_RESPONSE';
/** A coarse class of failure, to switch on without listing codes. */
export type GleanerErrorKind = 'bad_request' | 'auth' | 'payment' | 'not_found' | 'rate_limit' | 'upstream' | 'idempotency' | 'network' | 'timeout' | 'server' | 'other';
export interface GleanerErrorInit {
    code: ErrorCode | ClientErrorCode;
    status: number;
    message: string;
    details?: ErrorDetail[];
    requestId?: string;
    retryAfterSeconds?: number;
    attempts?: number;
    cause?: unknown;
}
export declare function kindOf(code: string, status: number): GleanerErrorKind;
export declare class GleanerError extends Error {
    name: string;
    /** the API's `error.code`, or NETWORK_ERROR / TIMEOUT / INVALID_RESPONSE */
    readonly code: ErrorCode | ClientErrorCode;
    /** HTTP status; 0 when no answer arrived */
    readonly status: number;
    /** `error.details` of a 400: one `{ field, message }` per problem; [] otherwise */
    readonly details: ErrorDetail[];
    /** X-Request-Id of the failed attempt, to quote to the operator */
    readonly requestId: string | undefined;
    /** Retry-After of the last answer, in seconds */
    readonly retryAfterSeconds: number | undefined;
    /** attempts made before giving up */
    readonly attempts: number;
    readonly kind: GleanerErrorKind;
    constructor(init: GleanerErrorInit);
}
/** 400 and other rejections of the request itself */
export declare class GleanerBadRequestError extends GleanerError {
    name: string;
}
/** 401: missing, invalid or revoked key */
export declare class GleanerAuthError extends GleanerError {
    name: string;
}
/** 402: the balance does not cover the call's minimum charge */
export declare class GleanerPaymentError extends GleanerError {
    name: string;
}
/** 404: a single target does not exist */
export declare class GleanerNotFoundError extends GleanerError {
    name: string;
}
/** 429 still returned after the last retry */
export declare class GleanerRateLimitError extends GleanerError {
    name: string;
}
/** 502/503: a platform failed or is switched off, still so after the last retry */
export declare class GleanerUpstreamError extends GleanerError {
    name: string;
}
/** no answer: connection refused or reset, DNS, timeout */
export declare class GleanerNetworkError extends GleanerError {
    name: string;
}
/** The subclass matching an error's kind. */
export declare function createError(init: GleanerErrorInit): GleanerError;
