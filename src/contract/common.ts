// Shared building blocks of request and response bodies.
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { EnrichmentType, LlmProvider } from './items.js';
import { StringEnum } from './string-enum.js';

export const Categories = Type.Object(
  {
    topic: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 50,
        description: 'Custom topic labels; topics are then chosen only from these (possibly none)',
      }),
    ),
  },
  { description: 'Custom categories for the topics enrichment', additionalProperties: false },
);
export type Categories = Static<typeof Categories>;

/** `enrich`, `categories` and `llm_provider`, accepted by every endpoint that enriches. */
export const enrichParams = {
  enrich: Type.Optional(
    Type.Array(EnrichmentType, {
      maxItems: 4,
      description: 'Enrichment types to add to every returned item',
    }),
  ),
  categories: Type.Optional(Categories),
  llm_provider: Type.Optional(LlmProvider),
};

export const Warning = Type.Object({
  target: Type.String({ description: 'The target (URL, user, hashtag, keyword, channel) as given' }),
  code: Type.String({ description: 'Error code this target alone would have produced' }),
  message: Type.String(),
});
export type Warning = Static<typeof Warning>;

export const Metadata = Type.Object(
  {
    credits_used: Type.Number({ description: 'Credits charged for this call (0.5 steps exist)' }),
    credits_remaining: Type.Optional(Type.Number({ description: 'Balance of the key after this call' })),
    processing_time: Type.Number({ description: 'Seconds spent serving the call' }),
    source: Type.Optional(StringEnum(['sandbox', 'live'])),
    enrichments: Type.Optional(Type.Array(EnrichmentType, { description: 'Enrichment types applied' })),
    enrichments_applied: Type.Optional(
      Type.Array(EnrichmentType, { description: 'Same as `enrichments` (both names are served)' }),
    ),
    llm_provider: Type.Optional(LlmProvider),
    truncated: Type.Optional(
      Type.Boolean({ description: 'true when the balance covered only part of the result' }),
    ),
    sorting_applied: Type.Optional(
      StringEnum(['native', 'emulated'], {
        description: 'vidnet search: whether the platform or the service sorted the results',
      }),
    ),
    warnings: Type.Optional(Type.Array(Warning, { description: 'Targets that produced nothing, and why' })),
  },
  { $id: 'Metadata' },
);
export type Metadata = Static<typeof Metadata>;

export const ErrorDetail = Type.Object({ field: Type.String(), message: Type.String() });
export type ErrorDetail = Static<typeof ErrorDetail>;

export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'PAYMENT_REQUIRED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'IDEMPOTENCY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'EXTERNAL_API_ERROR',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_SERVER_ERROR',
] as const;
export const ErrorCode = StringEnum(ERROR_CODES);
export type ErrorCode = Static<typeof ErrorCode>;

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: ErrorCode,
      message: Type.String(),
      details: Type.Optional(Type.Array(ErrorDetail)),
    }),
    metadata: Type.Object({
      credits_used: Type.Literal(0),
      processing_time: Type.Number(),
    }),
  },
  { $id: 'ErrorEnvelope' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

export function successEnvelope<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Literal(true), data, metadata: Type.Ref('Metadata') });
}
