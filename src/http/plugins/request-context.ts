// What every request goes through, whatever its route: its ids and start time, the refusal of
// new requests while the server closes, the JSON body parser, the one log line and the metrics of
// each request, the error handler (the one place an error becomes the envelope), and the 404/405
// answers for paths and methods that match no route.
import type { FastifyPluginCallback } from 'fastify';
import fp from 'fastify-plugin';
import type { IdempotencyLease } from '../../billing/ledger/interface.js';
import { DEFAULT_BODY_LIMIT } from '../../contract/endpoints.js';
import { AppError, toHttpError } from '../../errors.js';
import type { Metrics } from '../../metrics/index.js';
import { errorEnvelope, sendJson } from '../envelope.js';
import { jsonBodyParser } from '../json-body.js';
import { echoedRequestId } from '../request-id.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    endpointId?: string;
  }
  interface FastifyRequest {
    /** performance.now() when the request arrived */
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

export interface RequestContextOptions {
  metrics: Metrics;
  /** one line per request (the logger is at info or below) */
  logRequests: boolean;
}

// hooks on every request take a callback rather than returning a promise: one less promise and
// microtask per hook and request
const requestContext: FastifyPluginCallback<RequestContextOptions> = (
  app,
  { metrics, logRequests },
  done,
) => {
  // the request fields of ours, declared up front: every request object gets one shape instead of
  // changing shape as each field is first set
  app.decorateRequest('startedAt', 0);
  app.decorateRequest('apiKeyId', undefined);
  app.decorateRequest('clientRequestId', undefined);
  app.decorateRequest('idempotency', undefined);
  app.decorateRequest('releaseSlot', undefined);

  // once app.close() has begun, requests still arriving on open connections get a 503 (calls
  // already running finish)
  let closing = false;
  app.addHook('preClose', (next) => {
    closing = true;
    next();
  });
  app.addHook('onRequest', (req, reply, next) => {
    req.startedAt = performance.now();
    const echoed = echoedRequestId(req);
    if (echoed !== req.id) req.clientRequestId = echoed;
    reply.header('x-request-id', echoed);
    if (closing)
      return next(
        new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry on another instance', {
          retryAfterSeconds: 1,
        }),
      );
    next();
  });

  // secure-json-parse underneath, as Fastify's own: a body with __proto__ or
  // constructor.prototype is refused
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    jsonBodyParser(app.getDefaultJsonParser('error', 'error')),
  );

  app.addHook('onResponse', (req, reply, next) => {
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
    next();
  });
  app.addHook('onRequestAbort', (req, next) => {
    req.releaseSlot?.();
    next();
  });

  app.setErrorHandler(async (err, req, reply) => {
    const h = toHttpError(err, req.id, req.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT);
    // at info and above the request's child logger names reqId; below it there is no child
    if (h.internal) req.log.error(logRequests ? { err } : { err, reqId: req.id }, 'request failed');
    // a URL refused before routing ran no onRequest hook
    const seconds = req.startedAt > 0 ? (performance.now() - req.startedAt) / 1000 : 0;
    reply.header('x-request-id', echoedRequestId(req)).headers(h.headers);
    return sendJson(reply, h.status, errorEnvelope(h, seconds));
  });

  // ---- unknown paths (404) and known paths with another method (405, with Allow) ----
  const known: Array<{ re: RegExp; allow: string }> = [];
  app.setNotFoundHandler(async (req) => {
    const path = req.url.split('?')[0] ?? '';
    const k = known.find((x) => x.re.test(path));
    if (k)
      throw new AppError(
        'METHOD_NOT_ALLOWED',
        `Method ${req.method} is not allowed on ${path}; use ${k.allow}`,
        {
          allow: k.allow,
        },
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
  done();
};

export default fp(requestContext, { name: 'request-context', fastify: '5.x' });
