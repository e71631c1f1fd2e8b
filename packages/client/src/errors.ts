// Typed exceptions. Every failure of a call is a GleanerError: the API's own errors carry the
// server's `code`, HTTP `status`, `details` and request id; failures that never got an answer
// (network, timeout, an unreadable body) have status 0 or the HTTP status and a client-side code.
import type { ErrorCode, ErrorDetail } from './types.js';

/** Codes the client adds to the API's own error codes. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'INVALID_RESPONSE';

/** A coarse class of failure, to switch on without listing codes. */
export type GleanerErrorKind =
  | 'bad_request'
  | 'auth'
  | 'payment'
  | 'not_found'
  | 'rate_limit'
  | 'upstream'
  | 'idempotency'
  | 'network'
  | 'timeout'
  | 'server'
  | 'other';

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

export function kindOf(code: string, status: number): GleanerErrorKind {
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
  override name = 'GleanerError';
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

  constructor(init: GleanerErrorInit) {
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
  override name = 'GleanerBadRequestError';
}
/** 401: missing, invalid or revoked key */
export class GleanerAuthError extends GleanerError {
  override name = 'GleanerAuthError';
}
/** 402: the balance does not cover the call's minimum charge */
export class GleanerPaymentError extends GleanerError {
  override name = 'GleanerPaymentError';
}
/** 404: a single target does not exist */
export class GleanerNotFoundError extends GleanerError {
  override name = 'GleanerNotFoundError';
}
/** 429 still returned after the last retry */
export class GleanerRateLimitError extends GleanerError {
  override name = 'GleanerRateLimitError';
}
/** 502/503: a platform failed or is switched off, still so after the last retry */
export class GleanerUpstreamError extends GleanerError {
  override name = 'GleanerUpstreamError';
}
/** no answer: connection refused or reset, DNS, timeout */
export class GleanerNetworkError extends GleanerError {
  override name = 'GleanerNetworkError';
}

/** The subclass of each kind; the other kinds are plain GleanerErrors. */
const CLASS_OF_KIND: Partial<Record<GleanerErrorKind, typeof GleanerError>> = {
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
export function createError(init: GleanerErrorInit): GleanerError {
  const C = CLASS_OF_KIND[kindOf(init.code, init.status)] ?? GleanerError;
  return new C(init);
}
