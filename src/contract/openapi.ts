// The OpenAPI 3.1 document, generated from the contract schemas. Served at
// /api/v1/openapi.json and committed as docs/openapi.json (npm run gen:openapi; CI checks drift).
import type { TSchema } from '@sinclair/typebox';
import { CreateKeyBody, GrantBody } from './admin.js';
import { ErrorEnvelope, Metadata, successEnvelope } from './common.js';
import { API_PREFIX, ENDPOINTS } from './endpoints.js';
import { itemSchemas } from './items.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** plain JSON with TypeBox refs pointed at components and inner $ids dropped */
function clean(schema: unknown, keepId = false): Json {
  const walk = (v: unknown, top: boolean): Json => {
    if (Array.isArray(v)) return v.map((x) => walk(x, false));
    if (v && typeof v === 'object') {
      const out: Record<string, Json> = {};
      for (const [k, x] of Object.entries(v)) {
        if (k === '$id' && !(top && keepId)) continue;
        if (k === '$ref' && typeof x === 'string' && !x.startsWith('#')) out[k] = `#/components/schemas/${x}`;
        else out[k] = walk(x, false);
      }
      return out;
    }
    return v as Json;
  };
  return walk(JSON.parse(JSON.stringify(schema)), true);
}

const ERRORS: Array<{ status: number; code: string; message: string; when: string }> = [
  {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Invalid request: limit must be <= 100',
    when: 'Invalid body',
  },
  { status: 401, code: 'UNAUTHORIZED', message: 'API key is required', when: 'Missing or invalid API key' },
  {
    status: 402,
    code: 'PAYMENT_REQUIRED',
    message: 'Insufficient credits',
    when: 'The balance does not cover the minimum charge',
  },
  { status: 404, code: 'NOT_FOUND', message: 'user not found', when: 'A single target does not exist' },
  {
    status: 409,
    code: 'IDEMPOTENCY_IN_PROGRESS',
    message: 'A request with this Idempotency-Key is still running',
    when: 'Idempotency-Key in use',
  },
  {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'Request body is larger than 1 MiB',
    when: 'Body over 1 MiB',
  },
  {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Content-Type must be application/json',
    when: 'Not JSON',
  },
  {
    status: 422,
    code: 'IDEMPOTENCY_KEY_REUSED',
    message: 'This Idempotency-Key was already used with a different request',
    when: 'Idempotency-Key reused with another body',
  },
  { status: 429, code: 'RATE_LIMITED', message: 'Too many requests', when: 'Rate limit (see Retry-After)' },
  {
    status: 500,
    code: 'INTERNAL_SERVER_ERROR',
    message: 'Internal server error (request req_…)',
    when: 'Unexpected failure',
  },
  {
    status: 502,
    code: 'EXTERNAL_API_ERROR',
    message: 'the platform answered with an error',
    when: 'The platform failed or timed out',
  },
  {
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    message: 'the platform is temporarily unavailable; retry later',
    when: 'Backend switched off or overloaded (see Retry-After)',
  },
];

function errorResponses(codes: number[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const e of ERRORS.filter((x) => codes.includes(x.status))) {
    const example: Json = {
      success: false,
      error: {
        code: e.code,
        message: e.message,
        ...(e.status === 400 ? { details: [{ field: 'limit', message: 'must be <= 100' }] } : {}),
      },
      metadata: { credits_used: 0, processing_time: 0.001 },
    };
    out[String(e.status)] = {
      description: `${e.code}: ${e.when}`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example } },
    };
  }
  return out;
}

const PAID_ERRORS = [400, 401, 402, 404, 409, 413, 415, 422, 429, 500, 502, 503];

export function buildOpenApi(): Record<string, Json> {
  const schemas: Record<string, Json> = {};
  for (const s of [...itemSchemas, Metadata, ErrorEnvelope] as TSchema[]) schemas[s.$id as string] = clean(s);
  const paths: Record<string, Json> = {};
  for (const e of ENDPOINTS) {
    paths[`${API_PREFIX}${e.path}`] = {
      post: {
        operationId: e.id.replace('.', '_'),
        tags: [e.tag],
        summary: e.summary,
        description: e.description,
        security: [{ ApiKey: [] }],
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'A retry with the same key and body replays the stored response and is not charged again',
            schema: { type: 'string', maxLength: 255 },
          },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: clean(e.body), example: e.example as Json } },
        },
        responses: {
          '200': {
            description: 'Success',
            headers: {
              'X-Credits-Used': { schema: { type: 'number' } },
              'X-Credits-Remaining': { schema: { type: 'number' } },
              'X-Request-Id': { schema: { type: 'string' } },
            },
            content: { 'application/json': { schema: clean(successEnvelope(e.data)) } },
          },
          ...errorResponses(PAID_ERRORS),
        },
      },
    };
  }
  const admin = (summary: string, extra: Record<string, Json> = {}): Json => ({
    tags: ['admin'],
    summary,
    security: [{ AdminToken: [] }],
    responses: { '200': { description: 'Success' }, ...errorResponses([400, 401, 404]) },
    ...extra,
  });
  const idParam: Json = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  paths['/admin/v1/keys'] = {
    get: admin('List keys with balances'),
    post: admin('Create a key (the only time the key is shown)', {
      requestBody: { required: true, content: { 'application/json': { schema: clean(CreateKeyBody) } } },
    }),
  };
  paths['/admin/v1/keys/{id}'] = { get: admin('A key and its balance', { parameters: [idParam] }) };
  paths['/admin/v1/keys/{id}/revoke'] = { post: admin('Revoke a key', { parameters: [idParam] }) };
  paths['/admin/v1/keys/{id}/credits'] = {
    post: admin('Grant credits to a key', {
      parameters: [idParam],
      requestBody: { required: true, content: { 'application/json': { schema: clean(GrantBody) } } },
    }),
  };
  paths['/admin/v1/keys/{id}/ledger'] = {
    get: admin("A key's ledger entries, newest first", { parameters: [idParam] }),
  };
  paths['/admin/v1/reconcile'] = {
    get: admin('Check every balance against its ledger (409 on a difference)'),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gleaner API',
      version: '1.0.0',
      description:
        'Public content from clipnet, picnet and vidnet with optional enrichment (sentiment, topics, intent, keywords), and text analysis. Every call is billed in credits; see docs/billing.md.',
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'clipnet', description: 'Short-video platform' },
      { name: 'picnet', description: 'Photo platform' },
      { name: 'vidnet', description: 'Video platform' },
      { name: 'ml', description: 'Text analysis' },
      { name: 'admin', description: 'Operator API (enabled by ADMIN_TOKEN)' },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        AdminToken: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
