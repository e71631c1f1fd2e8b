// Builds the HTTP application: the one list of route registrations, the hooks that every call
// goes through (request id, metrics, auth, rate limits, content type, idempotency), and the
// single error mapper.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Static } from '@sinclair/typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import type { IdempotencyLease } from './billing/ledger/interface.js';
import { canonicalJson } from './canonical-json.js';
import { CreateKeyBody, GrantBody, KeyIdParams, LedgerQuery } from './contract/admin.js';
import { ALIAS_PREFIX, API_PREFIX, DEFAULT_BODY_LIMIT, formatBytes } from './contract/endpoints.js';
import { buildOpenApi } from './contract/openapi.js';
import { AppError, toHttpError } from './errors.js';
import { jsonBodyParser } from './json-body.js';
import clipnetBulkPosts from './routes/clipnet/bulk-posts.js';
import clipnetComments from './routes/clipnet/comments.js';
import clipnetHashtagPosts from './routes/clipnet/hashtag-posts.js';
import clipnetPosts from './routes/clipnet/posts.js';
import type { ApiRoute } from './routes/define.js';
import { docsRoutes } from './routes/docs.js';
import mlAnalyze from './routes/ml/analyze.js';
import picnetComments from './routes/picnet/comments.js';
import picnetHashtagPosts from './routes/picnet/hashtag-posts.js';
import picnetPosts from './routes/picnet/posts.js';
import vidnetChannelShorts from './routes/vidnet/channel-shorts.js';
import vidnetChannelVideos from './routes/vidnet/channel-videos.js';
import vidnetComments from './routes/vidnet/comments.js';
import vidnetHashtagSearch from './routes/vidnet/hashtag-search.js';
import vidnetSearch from './routes/vidnet/search.js';
import { requestContext } from './services/billed-call.js';
import type { Services } from './services/container.js';
import * as keys from './services/keys.js';

/** Every paid endpoint, registered under /api/v1 and its unversioned alias /api. */
export const API_ROUTES: readonly ApiRoute[] = [
  clipnetPosts,
  clipnetComments,
  clipnetBulkPosts,
  clipnetHashtagPosts,
  picnetPosts,
  picnetComments,
  picnetHashtagPosts,
  vidnetSearch,
  vidnetHashtagSearch,
  vidnetComments,
  vidnetChannelVideos,
  vidnetChannelShorts,
  mlAnalyze,
];

declare module 'fastify' {
  interface FastifyContextConfig {
    endpointId?: string;
  }
  interface FastifyRequest {
    startedAt: number;
    apiKeyId?: string;
    /** the caller's X-Request-Id (echoed; req.id is the server's own) */
    clientRequestId?: string;
    /** the lease on the Idempotency-Key record this call owns */
    idempotency?: IdempotencyLease;
    /** frees the key's concurrency slot (rate limits) */
    releaseSlot?: () => void;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** the id a reply carries in X-Request-Id: the caller's own when it sent a sane one, else ours */
function echoedRequestId(req: {
  id: string;
  headers: Record<string, string | string[] | undefined>;
}): string {
  const h = req.headers['x-request-id'];
  return typeof h === 'string' && REQUEST_ID.test(h) ? h : req.id;
}

// request ids: 12 random bytes each, drawn from a pool filled 256 ids at a time (one call into
// the system's random source per 256 requests instead of one per request)
const ID_BYTES = 12;
const ID_POOL = 256;
let idPool = Buffer.alloc(0);
let idAt = 0;
function newRequestId(): string {
  if (idAt >= idPool.length) {
    idPool = randomBytes(ID_BYTES * ID_POOL);
    idAt = 0;
  }
  const id = `req_${idPool.toString('hex', idAt, idAt + ID_BYTES)}`;
  idAt += ID_BYTES;
  return id;
}
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** Node's limit on the request line and headers together (the default of --max-http-header-size) */
export const HEADER_LIMIT = 16 * 1024;

/** whether an `Authorization: Bearer …` header carries the token whose SHA-256 is `expected`
 *  (compared in constant time) */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const token = header?.startsWith('Bearer ') ? header.slice(7) : '';
  return token !== '' && timingSafeEqual(createHash('sha256').update(token).digest(), expected);
}

function sendJson(reply: FastifyReply, status: number, body: unknown) {
  return reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** the error envelope of decisions.md */
function errorEnvelope(h: { code: string; message: string; details?: unknown }, seconds: number) {
  return {
    success: false,
    error: { code: h.code, message: h.message, ...(h.details ? { details: h.details } : {}) },
    metadata: { credits_used: 0, processing_time: Number(seconds.toFixed(4)) },
  };
}

/** Answers what Node's HTTP parser refused before there was a request (headers over the limit, a
 *  malformed header or request line, a request not received in time) with the error envelope,
 *  written straight to the socket, which is then closed. */
function clientErrorHandler(logger: FastifyBaseLogger) {
  return (err: Error & { code?: string }, socket: Socket) => {
    // a reset connection has nobody to answer
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, `Request headers are larger than ${formatBytes(HEADER_LIMIT)}`]
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'The request was not received in time']
          : [400, 'Malformed HTTP request: the request line or a header could not be read'];
    logger.debug({ code: err.code, status }, 'malformed request refused');
    // as Node itself: no answer when a response of this connection has begun to be written
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(errorEnvelope({ code: 'BAD_REQUEST', message }, 0));
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${newRequestId()}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
    }
    socket.destroySoon();
  };
}

const tooManyAuthFailures = (retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', 'Too many failed authentications from this address; retry later', {
    retryAfterSeconds,
  });

export interface AppOptions {
  services: Services;
  logger: Logger;
}

export async function buildApp({ services, logger }: AppOptions) {
  const { config, ledger, metrics, rateLimiter } = services;
  const app = Fastify({
    loggerInstance: logger,
    // each request's logger is a child bound to its id; below info nothing is logged per request
    // and every warning or error of ours names reqId itself, so no child is made then
    ...(logger.isLevelEnabled('info') ? {} : { childLoggerFactory: (parent: FastifyBaseLogger) => parent }),
    // one log line per request, written by the onResponse hook below
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: DEFAULT_BODY_LIMIT,
    requestTimeout: config.REQUEST_TIMEOUT_MS + 5000,
    // a hop count trusts that many proxies in front of the server
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, i: number) =>
              i < hops
          )(config.trustProxy)
        : config.trustProxy,
    // the 503 of a closing server is answered below, in the envelope
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler(logger),
    // a path parameter that does not decode (/docs/assets/%ff), or one over the length limit
    // (answered before routing: no hook or error handler runs)
    frameworkErrors: (err, req, reply) => {
      const [message, detail] =
        err.code === 'FST_ERR_BAD_URL'
          ? ['The URL is malformed', 'is malformed']
          : ['A part of the URL is too long', 'is too long'];
      req.startedAt = performance.now();
      reply.header('x-request-id', echoedRequestId(req));
      const details = [{ field: 'url', message: detail }];
      sendJson(reply, 400, errorEnvelope({ code: 'BAD_REQUEST', message, details }, 0));
    },
    // always the server's own: a caller's X-Request-Id is echoed and recorded beside it
    genReqId: newRequestId,
    ajv: {
      customOptions: { allErrors: true, coerceTypes: false, useDefaults: true, removeAdditional: false },
    },
  });

  // hooks on every request take a callback rather than returning a promise: one less promise
  // and microtask per hook and request
  // the request fields of ours, declared up front: every request object gets one shape
  // instead of changing shape as each field is first set
  app.decorateRequest('startedAt', 0);
  app.decorateRequest('apiKeyId', undefined);
  app.decorateRequest('clientRequestId', undefined);
  app.decorateRequest('idempotency', undefined);
  app.decorateRequest('releaseSlot', undefined);
  // once app.close() has begun, requests still arriving on open connections get a 503 (calls
  // already running finish)
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (req, reply, done) => {
    req.startedAt = performance.now();
    const echoed = echoedRequestId(req);
    if (echoed !== req.id) req.clientRequestId = echoed;
    reply.header('x-request-id', echoed);
    if (closing)
      return done(
        new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry on another instance', {
          retryAfterSeconds: 1,
        }),
      );
    done();
  });
  // secure-json-parse underneath, as Fastify's own: a body with __proto__ or
  // constructor.prototype is refused
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    jsonBodyParser(app.getDefaultJsonParser('error', 'error')),
  );
  const logRequests = logger.isLevelEnabled('info');
  app.addHook('onResponse', (req, reply, done) => {
    req.releaseSlot?.();
    const ms = performance.now() - req.startedAt;
    // route templates only: an unmatched path must not become a label of its own
    const route = req.routeOptions.url ?? '(unmatched)';
    const status = reply.statusCode;
    const series = metrics.httpSeries(route, req.method, status);
    series.requests.inc();
    series.duration.observe(ms / 1000);
    if (status < 300 && reply.hasHeader('x-credits-used') && !reply.hasHeader('idempotent-replayed')) {
      const credits = Number(reply.getHeader('x-credits-used'));
      if (credits > 0) metrics.creditsFor(route).inc(credits);
    }
    // the request's child logger names reqId once on every line it writes
    if (logRequests)
      req.log.info(
        {
          clientRequestId: req.clientRequestId,
          keyId: req.apiKeyId,
          route: req.routeOptions.url,
          method: req.method,
          status,
          credits: reply.getHeader('x-credits-used') ?? 0,
          ms: Number(ms.toFixed(2)),
        },
        'request',
      );
    done();
  });

  app.addHook('onRequestAbort', async (req) => {
    req.releaseSlot?.();
  });

  app.setErrorHandler(async (err, req, reply) => {
    const h = toHttpError(err, req.id, req.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT);
    // at info and above the request's child logger names reqId; below it there is no child
    if (h.internal) req.log.error(logRequests ? { err } : { err, reqId: req.id }, 'request failed');
    if (req.idempotency) {
      await ledger.idempotencyAbandon(req.idempotency).catch(() => {});
    }
    // a URL refused before routing ran no onRequest hook
    const seconds = req.startedAt > 0 ? (performance.now() - req.startedAt) / 1000 : 0;
    reply.header('x-request-id', echoedRequestId(req)).headers(h.headers);
    return sendJson(reply, h.status, errorEnvelope(h, seconds));
  });

  /** Refuses a request whose credentials (API key, admin or metrics token) failed. Failures are
   *  counted per client address, and past the limit the answer is 429 instead of 401. Requests
   *  with valid credentials never come here: a blocked address still serves its valid keys, so
   *  one bad client behind a shared address (a NAT) locks out nobody else. */
  const refuseCredentials = async (req: FastifyRequest, failure: AppError): Promise<never> => {
    const blocked = rateLimiter.addressBlocked(req.ip);
    if (blocked !== null) throw tooManyAuthFailures(blocked);
    const wait = await rateLimiter.authFailed(req.ip);
    if (wait !== null) throw tooManyAuthFailures(wait);
    throw failure;
  };

  // ---- unknown paths and methods ----
  const known: Array<{ re: RegExp; allow: string }> = [];
  app.setNotFoundHandler(async (req) => {
    const path = req.url.split('?')[0] ?? '';
    const k = known.find((x) => x.re.test(path));
    if (k)
      throw new AppError(
        'METHOD_NOT_ALLOWED',
        `Method ${req.method} is not allowed on ${path}; use ${k.allow}`,
        { allow: k.allow },
      );
    throw new AppError('NOT_FOUND', `No route ${req.method} ${path}`);
  });
  app.addHook('onRoute', (r) => {
    if (r.url.includes('*')) return;
    const re = new RegExp(`^${r.url.replace(/:[^/]+/g, '[^/]+')}/?$`);
    const methods = (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD');
    const found = known.find((x) => x.re.source === re.source);
    if (found) found.allow = [...new Set([...found.allow.split(', '), ...methods])].join(', ');
    else known.push({ re, allow: methods.join(', ') });
  });

  // ---- operations ----
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await ledger.ping();
      return { status: 'ready' };
    } catch {
      return sendJson(reply, 503, { status: 'unavailable', reason: 'ledger database' });
    }
  });
  // Prometheus metrics: open unless METRICS_TOKEN is set; keep it off the public network either way
  const metricsToken = config.METRICS_TOKEN
    ? createHash('sha256').update(config.METRICS_TOKEN).digest()
    : null;
  app.get('/metrics', async (req, reply) => {
    if (metricsToken && !bearerMatches(req.headers.authorization, metricsToken))
      await refuseCredentials(req, new AppError('UNAUTHORIZED', 'Metrics token is missing or wrong'));
    return reply.type(metrics.contentType).send(await metrics.render());
  });
  const openapi = JSON.stringify(buildOpenApi());
  app.get(`${API_PREFIX}/openapi.json`, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(openapi),
  );
  // the interactive API reference, rendered from the document above with bundled assets
  await app.register(docsRoutes);

  // ---- the paid API, under /api/v1 and the /api alias ----
  for (const prefix of [API_PREFIX, ALIAS_PREFIX]) {
    await app.register(
      async (api) => {
        api.addHook('onRequest', async (req, reply) => {
          let key: Awaited<ReturnType<typeof keys.authenticate>>;
          try {
            key = await keys.authenticate(ledger, req.headers['x-api-key']);
          } catch (e) {
            if (e instanceof AppError && e.code === 'UNAUTHORIZED') await refuseCredentials(req, e);
            throw e;
          }
          req.apiKeyId = key.id;
          // checked before anything is billed: a limited call costs nothing
          if (rateLimiter.perKey) {
            const admission = await rateLimiter.admit(key.id);
            reply.headers(admission.headers);
            if (!admission.allowed)
              throw new AppError(
                'RATE_LIMITED',
                admission.reason === 'concurrency'
                  ? 'Too many requests of this API key are running at once; retry when one has finished'
                  : 'Rate limit of this API key exceeded; retry later',
                { retryAfterSeconds: admission.retryAfterSeconds },
              );
            req.releaseSlot = admission.release;
          }
          const ct = req.headers['content-type'];
          const mime = ct === 'application/json' ? ct : ct?.split(';')[0]?.trim().toLowerCase();
          if (mime !== 'application/json')
            throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
        });
        /** begins an idempotent call; true when it answered (a replay) */
        const beginIdempotent = async (
          req: FastifyRequest,
          reply: FastifyReply,
          raw: string | string[],
        ): Promise<boolean> => {
          const key = Array.isArray(raw) ? raw[0] : raw;
          if (!key || !IDEMPOTENCY_KEY.test(key))
            throw new AppError('BAD_REQUEST', 'Idempotency-Key must be 1-255 visible ASCII characters', {
              details: [{ field: 'Idempotency-Key', message: 'must be 1-255 visible ASCII characters' }],
            });
          const route = req.routeOptions.config.endpointId ?? req.routeOptions.url;
          const fingerprint = createHash('sha256')
            .update(`${route}\n${canonicalJson(req.body)}`)
            .digest('hex');
          const r = await ledger.idempotencyBegin({
            keyId: req.apiKeyId!,
            key,
            fingerprint,
            leaseMs: config.IDEMPOTENCY_LOCK_SECONDS * 1000,
            ttlMs: config.IDEMPOTENCY_TTL_HOURS * 3600_000,
          });
          if (r.state === 'mismatch')
            throw new AppError(
              'IDEMPOTENCY_KEY_REUSED',
              'This Idempotency-Key was already used with a different request',
            );
          if (r.state === 'in_progress')
            throw new AppError(
              'IDEMPOTENCY_IN_PROGRESS',
              'A request with this Idempotency-Key is still running',
              {
                retryAfterSeconds: 1,
              },
            );
          if (r.state === 'replay') {
            reply.status(r.response.status).headers(r.response.headers).header('idempotent-replayed', 'true');
            reply.send(r.response.body);
            return true;
          }
          req.idempotency = r.lease;
          return false;
        };
        // a callback hook: most calls carry no Idempotency-Key and pass straight through
        api.addHook('preHandler', (req, reply, done) => {
          const raw = req.headers['idempotency-key'];
          if (raw === undefined) return done();
          beginIdempotent(req, reply, raw).then((answered) => {
            if (!answered) done();
          }, done);
        });
        for (const route of API_ROUTES) {
          const options = {
            schema: { body: route.def.body },
            config: { endpointId: route.def.id },
            bodyLimit: route.def.bodyLimit,
          };
          api.post(route.def.path, options, async (req, reply) => {
            const ctx = requestContext(
              {
                keyId: req.apiKeyId!,
                requestId: req.id,
                clientRequestId: req.clientRequestId,
                route: route.def.id,
                startedAt: req.startedAt,
                idempotency: req.idempotency,
              },
              config.REQUEST_TIMEOUT_MS,
            );
            const r = await route.handler(services, ctx, req.body as never);
            reply.status(r.status).headers(r.headers);
            return reply.send(r.body);
          });
        }
      },
      { prefix },
    );
  }

  // ---- the operator API ----
  if (config.ADMIN_TOKEN) {
    const expected = createHash('sha256').update(config.ADMIN_TOKEN).digest();
    await app.register(
      async (admin) => {
        admin.addHook('onRequest', async (req) => {
          if (!bearerMatches(req.headers.authorization, expected))
            await refuseCredentials(req, new AppError('UNAUTHORIZED', 'Admin token is missing or wrong'));
        });
        admin.post<{ Body: Static<typeof CreateKeyBody> }>(
          '/keys',
          { schema: { body: CreateKeyBody } },
          async (req, reply) => {
            const k = await keys.createKey(ledger, req.body.name, req.body.credits);
            return sendJson(reply, 201, {
              id: k.id,
              key: k.key,
              credits: k.credits,
              name: k.name,
              prefix: k.prefix,
            });
          },
        );
        admin.get('/keys', async () => ({ keys: (await ledger.listKeys()).map(keys.keyView) }));
        admin.get<{ Params: Static<typeof KeyIdParams> }>(
          '/keys/:id',
          { schema: { params: KeyIdParams } },
          async (req) => keys.getKey(ledger, req.params.id),
        );
        admin.post<{ Params: Static<typeof KeyIdParams> }>(
          '/keys/:id/revoke',
          { schema: { params: KeyIdParams } },
          async (req) => keys.revokeKey(ledger, req.params.id),
        );
        admin.post<{ Params: Static<typeof KeyIdParams>; Body: Static<typeof GrantBody> }>(
          '/keys/:id/credits',
          { schema: { params: KeyIdParams, body: GrantBody } },
          async (req) => keys.grantCredits(ledger, req.params.id, req.body.credits, req.body.note),
        );
        admin.get<{ Params: Static<typeof KeyIdParams>; Querystring: Static<typeof LedgerQuery> }>(
          '/keys/:id/ledger',
          {
            schema: { params: KeyIdParams, querystring: LedgerQuery },
            // the body validator does not coerce types; query strings are strings, so read the
            // numeric parameters here
            preValidation: async (req) => {
              const q = req.query as Record<string, unknown>;
              for (const k of ['limit', 'before'])
                if (typeof q[k] === 'string' && /^\d{1,15}$/.test(q[k] as string)) q[k] = Number(q[k]);
            },
          },
          async (req) => keys.keyLedger(ledger, req.params.id, req.query.limit, req.query.before),
        );
        admin.get('/reconcile', async (_req, reply) => {
          const report = await ledger.reconcile();
          return sendJson(reply, report.problems.length === 0 ? 200 : 409, report);
        });
      },
      { prefix: '/admin/v1' },
    );
  }

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
