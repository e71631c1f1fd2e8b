// The OpenAPI 3.1 document, generated from the contract schemas. Served at
// /api/v1/openapi.json and committed as docs/openapi.json (npm run gen:openapi; CI checks drift).
import { type TSchema, Type } from '@sinclair/typebox';
import { Account, Entries, EntriesQuery, Entry, Usage, UsageQuery } from './account.js';
import { CreateKeyBody, GrantBody } from './admin.js';
import { ErrorEnvelope, Metadata, successEnvelope } from './common.js';
import {
  ANALYZE_BODY_LIMIT,
  API_PREFIX,
  DEFAULT_BODY_LIMIT,
  ENDPOINTS,
  type EndpointId,
  formatBytes,
  MAX_BODY_DEPTH,
  MAX_BODY_VALUES,
} from './endpoints.js';
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

/** A request body as clients see it: a field that has a default may be left out (the server
 *  fills it in), so it is not listed as required. The server's validator reads the contract's own
 *  schema, where such a field is required after defaults apply. */
function requestSchema(schema: unknown): Json {
  const walk = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const o = v as Record<string, Json>;
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(o)) out[k] = walk(x);
    const props = o.properties as Record<string, Record<string, Json>> | undefined;
    if (props && Array.isArray(o.required)) {
      const required = (o.required as string[]).filter((name) => props[name]?.default === undefined);
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
    return out;
  };
  return walk(clean(schema));
}

const ERRORS: Array<{ status: number; code: string; message: string; when: string }> = [
  {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'Invalid request: limit must be <= 100',
    when: `Invalid body: not JSON, not valid UTF-8, nested more than ${MAX_BODY_DEPTH} levels deep or over ${MAX_BODY_VALUES.toLocaleString('en-US')} values, or not matching the schema`,
  },
  {
    status: 401,
    code: 'UNAUTHORIZED',
    message: 'API key is required',
    when: 'Missing or invalid credentials',
  },
  {
    status: 402,
    code: 'PAYMENT_REQUIRED',
    message: 'Insufficient credits',
    when: 'The balance does not cover the minimum charge',
  },
  {
    status: 404,
    code: 'NOT_FOUND',
    message: 'clipnet user example_user not found',
    when: 'A single target does not exist',
  },
  {
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    message: 'Method GET is not allowed on /api/v1/clipnet/posts; use POST',
    when: 'Another method than POST (with an Allow header)',
  },
  {
    status: 409,
    code: 'IDEMPOTENCY_IN_PROGRESS',
    message: 'A request with this Idempotency-Key is still running',
    when: 'Idempotency-Key in use',
  },
  {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `Request body is larger than ${formatBytes(DEFAULT_BODY_LIMIT)}`,
    when: `Body over ${formatBytes(DEFAULT_BODY_LIMIT)}`,
  },
  {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Content-Type must be application/json',
    when: 'Not JSON, or a charset other than UTF-8',
  },
  {
    status: 422,
    code: 'IDEMPOTENCY_KEY_REUSED',
    message: 'This Idempotency-Key was already used with a different request',
    when: 'Idempotency-Key reused with another body',
  },
  {
    status: 429,
    code: 'RATE_LIMITED',
    message: 'Too many requests',
    when: 'Rate limit, or too many failed authentications from this address (see Retry-After)',
  },
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

/** `bodyLimit`: the operation's body limit, named by its 413 */
function errorResponses(codes: number[], bodyLimit = DEFAULT_BODY_LIMIT): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const listed of ERRORS.filter((x) => codes.includes(x.status))) {
    const e =
      listed.status === 413
        ? {
            ...listed,
            message: `Request body is larger than ${formatBytes(bodyLimit)}`,
            when: `Body over ${formatBytes(bodyLimit)}`,
          }
        : listed;
    const example: Json = {
      success: false,
      error: {
        code: e.code,
        message: e.message,
        ...(e.status === 400 ? { details: [{ field: 'limit', message: 'must be <= 100' }] } : {}),
      },
      metadata: { credits_used: 0, processing_time: 0.001 },
    };
    const media: Record<string, Json> = { schema: { $ref: '#/components/schemas/ErrorEnvelope' } };
    if (e.status === 401) {
      // both messages of a 401, as named examples
      const with401 = (message: string): Json => ({
        value: { ...(example as object), error: { code: e.code, message } },
      });
      media.examples = {
        missing: { summary: 'No X-API-Key header', ...(with401('API key is required') as object) },
        invalid: { summary: 'Unknown or revoked key', ...(with401('Invalid API key') as object) },
      };
    } else media.example = example;
    out[String(e.status)] = { description: `${e.code}: ${e.when}`, content: { 'application/json': media } };
  }
  return out;
}

const PAID_ERRORS = [400, 401, 402, 404, 405, 409, 413, 415, 422, 429, 500, 502, 503];

// ---- success examples: one realistic response per endpoint (shapes as the sandbox serves them) ----

const exClipnetPost: Json = {
  id: '7640121010351321413',
  caption: 'stitch this with your version of a smart home routine #smarthome #tech',
  url: 'https://www.clipnet.com/@example_user/video/7640121010351321413',
  timestamp: '2026-01-16T16:51:19Z',
  stats: { views: 9417340, likes: 367482, comments: 11702, shares: 20419 },
  enrichment: { sentiment: 'positive', sentiment_score: 0.62 },
};
const exPicnetPost: Json = {
  id: '3920135683809696166',
  shortcode: 'CSI0eKheBBO',
  caption: 'Came for a birthday party for my dog, stayed for the vibes #pets',
  url: 'https://www.picnet.com/p/CSI0eKheBBO/',
  timestamp: '2026-01-05T14:35:52Z',
  media_type: 'carousel',
  stats: { likes: 603069, comments: 5653 },
};
const exHashtagPost = (tag: string, clipnet: boolean): Json => ({
  post_id: '7370874704494699232',
  post_text: `one year of counting macros: what changed #${tag}`,
  post_time: '1768487642',
  profile_id: '6220081908204337548',
  profile_name: 'example_user',
  reaction_count: 37240,
  ...(clipnet ? { share_count: 809, play_count: 337759 } : {}),
  comment_count: 653,
  source_name: tag,
  post_url: clipnet
    ? 'www.clipnet.com/@example_user/video/7370874704494699232'
    : 'www.picnet.com/p/C8xk2LmQp0A/',
  enrichment: { sentiment: 'positive', sentiment_score: 0.41, topics: ['fitness'] },
});
const exComment = (postUrl: string): Json => ({
  id: '18000330500078394',
  post_url: postUrl,
  text: 'honestly prices have doubled, not worth it anymore',
  user: '@wild.amara',
  timestamp: '2026-01-09T19:50:04Z',
  likes: 1091,
});
const exVideoBase = {
  video_id: 'dA1uyl33F8A',
  title: 'honest review after 3 months #review',
  description: 'what I would buy again and what I returned',
  channel_id: 'UCAOIaO_nfL4qKOSBJ6JuT-g',
  channel_title: 'Example Channel',
  published_at: '2026-01-14T12:56:27Z',
  thumbnail: 'https://i.vidnetimg.com/vi/dA1uyl33F8A/hqdefault.jpg',
  stats: { views: 3934, likes: 207, comments: 8 },
};
const exChannelVideo = (isShort: boolean): Json => ({
  ...exVideoBase,
  source_browse_id: 'UCabcdefghijklmnopqrstuv',
  duration_seconds: isShort ? 26 : 612,
  is_short: isShort,
});
const exBlipnetPost: Json = {
  id: 'at://did:plc:4kq3yvzjvmm4xqm2n6r5ghtz/app.bsky.feed.post/3lbq2a7xk2c2a',
  url: 'https://blipnet.app/profile/example.blipnet.social/post/3lbq2a7xk2c2a',
  text: 'pour-over vs french press: a week of testing, notes below #coffee https://example.com/notes',
  timestamp: '2026-01-14T08:12:40Z',
  author: {
    id: 'did:plc:4kq3yvzjvmm4xqm2n6r5ghtz',
    handle: 'example.blipnet.social',
    display_name: 'Example User',
  },
  stats: { replies: 12, reposts: 31, likes: 402, quotes: 3 },
  language: 'en',
  links: ['https://example.com/notes'],
  media_urls: [],
  hashtags: ['coffee'],
  mentions: [],
  parent_id: null,
  quote_of: null,
};
const withoutEnrichment = (item: Json): Json => {
  const { enrichment: _, ...rest } = item as Record<string, Json>;
  return rest;
};
const meta = (credits: number, enrich?: string[]): Json => ({
  credits_used: credits,
  credits_remaining: 984,
  processing_time: 0.0123,
  source: 'sandbox',
  ...(enrich ? { enrichments: enrich, enrichments_applied: enrich, llm_provider: 'model-2.0-flash' } : {}),
});

/** data and metadata of a successful response, per endpoint (request examples are in ENDPOINTS) */
const SUCCESS_EXAMPLES: Record<EndpointId, { data: Json; metadata: Json }> = {
  'clipnet.posts': {
    data: { posts: [exClipnetPost], cursor: 'sbx1.-716921.7640121010351321413', has_more: true },
    metadata: meta(2.5, ['sentiment']),
  },
  'clipnet.comments': {
    data: { comments: [exComment('https://www.clipnet.com/@example_user/video/7300000000000000001')] },
    metadata: meta(1.5),
  },
  'clipnet.bulk_posts': {
    data: {
      users: [
        { username: 'example_user', posts: [withoutEnrichment(exClipnetPost)] },
        { username: 'another_user', posts: [] },
      ],
    },
    metadata: {
      ...(meta(3) as object),
      warnings: [{ target: 'another_user', code: 'NO_RESULTS', message: 'another_user has no posts' }],
    },
  },
  'clipnet.hashtag_posts': {
    data: { posts: [exHashtagPost('fitness', true)], hashtags: ['fitness'], days: 7, total_posts: 1 },
    metadata: meta(4.5, ['sentiment', 'topics']),
  },
  'picnet.posts': {
    data: { posts: [exPicnetPost], cursor: 'sbx1.-1675448.3920135683809696166', has_more: true },
    metadata: meta(2),
  },
  'picnet.comments': {
    data: { comments: [exComment('https://www.picnet.com/p/AbCdEfGhIjK/')] },
    metadata: meta(1.5),
  },
  'picnet.hashtag_posts': {
    data: {
      posts: [withoutEnrichment(exHashtagPost('travel', false))],
      hashtags: ['travel'],
      days: 7,
      total_posts: 1,
    },
    metadata: meta(3),
  },
  'vidnet.search': {
    data: { videos: [{ ...exVideoBase, source_keyword: 'review' }], keywords: ['review'], total_videos: 1 },
    metadata: { ...(meta(3) as object), sorting_applied: 'native' },
  },
  'vidnet.hashtag_search': {
    data: {
      videos: [{ ...exVideoBase, source_hashtag: 'gaming', duration_seconds: 31, is_short: true }],
      hashtags: ['gaming'],
      total_videos: 1,
    },
    metadata: meta(3),
  },
  'vidnet.comments': {
    data: {
      comments: [
        {
          id: 'UgwHh0uYQPWW6QQSB4FAAPPw4AaABAg',
          video_id: 'AbCdEfGhIjK',
          text: 'Is it worth it or nah? Is there a discount code?',
          author: '@itsxavix',
          timestamp: '2026-01-04T07:09:59Z',
          likes: 2377,
        },
      ],
    },
    metadata: meta(1.5),
  },
  'vidnet.channel_videos': {
    data: { videos: [exChannelVideo(false)], browse_ids: ['UCabcdefghijklmnopqrstuv'], total_videos: 1 },
    metadata: meta(3),
  },
  'vidnet.channel_shorts': {
    data: { shorts: [exChannelVideo(true)], browse_ids: ['UCabcdefghijklmnopqrstuv'], total_shorts: 1 },
    metadata: meta(3),
  },
  'blipnet.posts': {
    data: {
      posts: [{ ...exBlipnetPost, is_reply: false, is_repost: false, reposted_at: null }],
      cursor: 'sbx1.-1234567.3lbq2a7xk2c2a',
      has_more: true,
    },
    metadata: meta(2),
  },
  'blipnet.comments': {
    data: {
      comments: [
        {
          ...exBlipnetPost,
          id: 'at://did:plc:7c2mhz6a3qkqfbjw4ojd5m2e/app.bsky.feed.post/3lbq2iu3mfs2b',
          url: 'https://blipnet.app/profile/another.blipnet.social/post/3lbq2iu3mfs2b',
          text: 'french press every time for me',
          author: {
            id: 'did:plc:7c2mhz6a3qkqfbjw4ojd5m2e',
            handle: 'another.blipnet.social',
            display_name: null,
          },
          stats: { replies: 0, reposts: 0, likes: 4, quotes: 0 },
          links: [],
          hashtags: [],
          parent_id: 'at://did:plc:4kq3yvzjvmm4xqm2n6r5ghtz/app.bsky.feed.post/3lbq2a7xk2c2a',
          post_url: 'https://blipnet.app/profile/example.blipnet.social/post/3lbq2a7xk2c2a',
          depth: 1,
        },
      ],
    },
    metadata: meta(1.5),
  },
  'blipnet.search': {
    data: {
      posts: [{ ...exBlipnetPost, source_keyword: 'coffee' }],
      keywords: ['coffee'],
      total_posts: 1,
      cursor: 'sbx1.-1234567.3lbq2a7xk2c2a',
      has_more: true,
    },
    metadata: meta(3),
  },
  'blipnet.hashtag_posts': {
    data: {
      posts: [{ ...exBlipnetPost, source_hashtag: 'coffee' }],
      hashtags: ['coffee'],
      days: 7,
      total_posts: 1,
    },
    metadata: meta(3),
  },
  'ml.analyze': {
    data: {
      results: [
        {
          text: 'I love this phone, but the battery is awful',
          enrichment: { sentiment: 'negative', sentiment_score: -0.35, intent: 'complaint' },
        },
      ],
    },
    metadata: meta(1.5, ['sentiment', 'intent']),
  },
};

/** an example with the keys whose value is undefined dropped (JSON has no undefined) */
function successExample(id: EndpointId): Json {
  const e = SUCCESS_EXAMPLES[id];
  return JSON.parse(JSON.stringify({ success: true, data: e.data, metadata: e.metadata })) as Json;
}

export function buildOpenApi(): Record<string, Json> {
  const schemas: Record<string, Json> = {};
  for (const s of [...itemSchemas, Metadata, ErrorEnvelope, Account, Usage, Entry, Entries] as TSchema[])
    schemas[s.$id as string] = clean(s);
  const paths: Record<string, Json> = {};
  for (const e of ENDPOINTS) {
    paths[`${API_PREFIX}${e.path}`] = {
      post: {
        operationId: e.id.replace('.', '_'),
        tags: [e.tag],
        summary: e.summary,
        description: `${e.description} Request body: at most ${formatBytes(e.bodyLimit)} (413 beyond).`,
        'x-body-limit': e.bodyLimit,
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
          content: { 'application/json': { schema: requestSchema(e.body), example: e.example as Json } },
        },
        responses: {
          '200': {
            description: 'Success',
            headers: {
              'X-Credits-Used': { schema: { type: 'number' } },
              'X-Credits-Remaining': { schema: { type: 'number' } },
              'X-Request-Id': { schema: { type: 'string' } },
            },
            content: {
              'application/json': { schema: clean(successEnvelope(e.data)), example: successExample(e.id) },
            },
          },
          ...errorResponses(PAID_ERRORS, e.bodyLimit),
        },
      },
    };
  }
  const queryParams = (q: TSchema): Json[] =>
    Object.entries((q as unknown as { properties: Record<string, TSchema> }).properties).map(
      ([name, schema]) => ({
        name,
        in: 'query',
        required: false,
        ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
        schema: clean(schema),
      }),
    );
  const account = (operationId: string, summary: string, data: string, query?: TSchema): Json => ({
    get: {
      operationId,
      tags: ['account'],
      summary,
      description: 'Free: nothing is charged. Figures are summed from the ledger.',
      security: [{ ApiKey: [] }],
      ...(query ? { parameters: queryParams(query) } : {}),
      responses: {
        '200': {
          description: 'Success',
          content: {
            'application/json': {
              schema: clean(successEnvelope(Type.Ref(data))),
            },
          },
        },
        ...errorResponses(query ? [400, 401, 429] : [401, 429]),
      },
    },
  });
  paths[`${API_PREFIX}/account`] = account('account', 'The key: balance, held credits and totals', 'Account');
  paths[`${API_PREFIX}/account/usage`] = account(
    'account_usage',
    'Credits and calls of the key by UTC day and by endpoint over a period (default: the last 30 days)',
    'Usage',
    UsageQuery,
  );
  paths[`${API_PREFIX}/account/entries`] = account(
    'account_entries',
    "The key's ledger entries (grants and debits), newest first, a page at a time",
    'Entries',
    EntriesQuery,
  );
  const admin = (summary: string, extra: Record<string, Json> = {}): Json => ({
    tags: ['admin'],
    summary,
    security: [{ AdminToken: [] }],
    responses: { '200': { description: 'Success' }, ...errorResponses([400, 401, 404, 413, 415, 429]) },
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
  paths['/admin/v1/usage'] = {
    get: admin("Every key's credits debited and calls over a period (default: the last 30 days)", {
      parameters: queryParams(UsageQuery),
    }),
  };
  paths['/admin/v1/reconcile'] = {
    get: admin('Check every balance against its ledger (409 on a difference)'),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gleaner API',
      version: '1.0.0',
      description: `Public content from clipnet, picnet, vidnet and blipnet with optional enrichment (sentiment, topics, intent, keywords), and text analysis. Every call is billed in credits; see docs/billing.md. Request bodies are JSON in UTF-8 (a declared charset other than UTF-8 is 415) of at most ${formatBytes(DEFAULT_BODY_LIMIT)}, ${formatBytes(ANALYZE_BODY_LIMIT)} on /ml/analyze (each operation's x-body-limit, in bytes; 413 beyond), nested at most ${MAX_BODY_DEPTH} levels deep and holding at most ${MAX_BODY_VALUES.toLocaleString('en-US')} values (400 beyond). Every error, including one about oversized or malformed headers, is an ErrorEnvelope.`,
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'clipnet', description: 'Short-video platform' },
      { name: 'picnet', description: 'Photo platform' },
      { name: 'vidnet', description: 'Video platform' },
      { name: 'blipnet', description: 'Microblogging platform' },
      { name: 'ml', description: 'Text analysis' },
      { name: 'account', description: "The key holder's own balance, usage and ledger (free)" },
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
