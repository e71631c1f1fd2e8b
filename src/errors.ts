// Domain errors and the one mapper that turns any error into the error envelope and a status.
// Services throw AppError (or let SourceError/EnrichmentError through); only toHttpError knows
// about HTTP statuses.
import { JsonTooDeepError } from './canonical-json.js';
import type { ErrorCode, ErrorDetail } from './contract/common.js';
import { DEFAULT_BODY_LIMIT, formatBytes } from './contract/endpoints.js';
import { EnrichmentError } from './enrichment/interface.js';
import { SourceError } from './sources/interface.js';

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { details?: ErrorDetail[]; retryAfterSeconds?: number; allow?: string } = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) =>
  new AppError('BAD_REQUEST', message, { details });
/** a 402 saying what the call needs at least and what the key has available (millicredits; the
 *  balance less its open holds), when known */
export function insufficientCredits(needMilli?: number, availableMilli?: number): AppError {
  if (needMilli === undefined) return new AppError('PAYMENT_REQUIRED', 'Insufficient credits');
  const need = needMilli / 1000;
  const have = availableMilli === undefined ? undefined : Math.max(0, availableMilli) / 1000;
  const tail = have === undefined ? '' : `; the key has ${have} available`;
  return new AppError('PAYMENT_REQUIRED', `Insufficient credits: this call needs at least ${need}${tail}`, {
    details: [{ field: 'credits', message: `needs at least ${need}${tail}` }],
  });
}

const STATUS: { readonly [K in ErrorCode]: number } = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  EXTERNAL_API_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
};

export interface HttpError {
  status: number;
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  headers: Record<string, string>;
  /** true for errors the caller did not cause (logged at error level) */
  internal: boolean;
}

/** SourceError and EnrichmentError kinds as API errors */
export function fromUpstream(e: SourceError | EnrichmentError, what: string): AppError {
  const retry = e.options.retryAfterSeconds;
  switch (e.kind) {
    case 'not_found':
      return new AppError('NOT_FOUND', e.message);
    case 'bad_cursor':
      return badRequest(e.message, [{ field: 'cursor', message: e.message }]);
    case 'throttled':
      return new AppError('RATE_LIMITED', `${what} is rate-limiting requests; retry later`, {
        retryAfterSeconds: retry ?? 30,
      });
    case 'unavailable':
      return new AppError('SERVICE_UNAVAILABLE', `${what} is temporarily unavailable; retry later`, {
        retryAfterSeconds: retry ?? 30,
      });
    case 'timeout':
      return new AppError('EXTERNAL_API_ERROR', `${what} did not answer in time`);
    case 'unsupported':
      return new AppError('EXTERNAL_API_ERROR', e.message);
    default:
      return new AppError('EXTERNAL_API_ERROR', `${what} answered with an error`);
  }
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  validation?: Array<{
    instancePath: string;
    keyword?: string;
    message?: string;
    params: Record<string, unknown>;
    /** with ajv's `verbose`: the object schema holding the property */
    parentSchema?: { properties?: Record<string, unknown> };
  }>;
  validationContext?: string;
}

const MAX_DETAILS = 100;

/** ajv's instance path (/hashtags/3) as a field name (hashtags[3]) */
function fieldName(instancePath: string, missing?: unknown): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (typeof missing === 'string') parts.push(missing);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || 'body';
}

/** edit distance of two short strings (insertions, deletions, substitutions) */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** the known field a mistyped one most likely meant: close in spelling, or one contains the other
 *  (`enrichment` → `enrich`) */
function closest(name: string, known: readonly string[]): string | undefined {
  const n = name.toLowerCase().slice(0, 64);
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const score = n.startsWith(k) || k.startsWith(n) ? 0.5 : distance(n, k);
    if (score < bestScore && score <= Math.max(1, Math.floor(k.length / 3))) {
      best = k;
      bestScore = score;
    }
  }
  return best;
}

export function validationDetails(validation: NonNullable<FastifyLikeError['validation']>): ErrorDetail[] {
  // one entry per field, its problems joined
  const byField = new Map<string, string[]>();
  for (const v of validation) {
    const unknown = v.keyword === 'additionalProperties' ? v.params.additionalProperty : undefined;
    const field = fieldName(v.instancePath, v.params.missingProperty ?? unknown);
    let message = v.message ?? 'is invalid';
    if (typeof unknown === 'string') {
      const near = closest(unknown, Object.keys(v.parentSchema?.properties ?? {}));
      message = `is not a field of this request${near ? `; did you mean \`${near}\`?` : ''}`;
    } else if (v.params.missingProperty !== undefined) message = 'is required';
    else if (Array.isArray(v.params.allowedValues))
      message = `must be one of: ${v.params.allowedValues.join(', ')}`;
    const list = byField.get(field) ?? [];
    if (!list.includes(message)) list.push(message);
    byField.set(field, list);
  }
  const details = [...byField].map(([field, messages]) => ({ field, message: messages.join('; ') }));
  if (details.length > MAX_DETAILS) {
    const more = details.length - MAX_DETAILS;
    details.length = MAX_DETAILS;
    details.push({ field: 'body', message: `…and ${more} more problems` });
  }
  return details;
}

/** `bodyLimit`: the body limit of the route that was called, named in a 413 */
export function toHttpError(err: unknown, requestId: string, bodyLimit = DEFAULT_BODY_LIMIT): HttpError {
  let e: AppError | undefined;
  if (err instanceof AppError) e = err;
  else if (err instanceof JsonTooDeepError)
    e = badRequest(`Request body is ${err.message}`, [{ field: 'body', message: `is ${err.message}` }]);
  else if (err instanceof SourceError) e = fromUpstream(err, 'the platform');
  else if (err instanceof EnrichmentError) e = fromUpstream(err, 'the enrichment backend');
  else {
    const f = err as FastifyLikeError;
    if (f && Array.isArray(f.validation)) {
      const details = validationDetails(f.validation);
      e = badRequest(
        `Invalid request: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`.slice(0, 500),
        details,
      );
    } else if (f?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      e = new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${formatBytes(bodyLimit)}`);
    } else if (f?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      e = new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    } else if (
      f?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      f?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      (f?.statusCode === 400 && err instanceof SyntaxError) ||
      (f?.statusCode === 400 && String((err as Error).message).includes('prototype'))
    ) {
      e = badRequest('Request body is not valid JSON', [{ field: 'body', message: 'is not valid JSON' }]);
    } else if (f?.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' || f?.statusCode === 400) {
      e = badRequest('Malformed request', [{ field: 'body', message: 'could not be read' }]);
    }
  }
  if (!e) {
    return {
      status: 500,
      code: 'INTERNAL_SERVER_ERROR',
      message: `Internal server error (request ${requestId})`,
      headers: {},
      internal: true,
    };
  }
  const headers: Record<string, string> = {};
  if (e.extra.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(Math.ceil(e.extra.retryAfterSeconds));
  if (e.extra.allow) headers.allow = e.extra.allow;
  const status = STATUS[e.code];
  return {
    status,
    code: e.code,
    message: e.message,
    details: e.extra.details,
    headers,
    internal: status >= 500 && e.code !== 'EXTERNAL_API_ERROR' && e.code !== 'SERVICE_UNAVAILABLE',
  };
}
