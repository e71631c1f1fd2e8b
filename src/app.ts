// The HTTP application: the Fastify server's options and the one list of what it serves, each
// part a plugin of its own under src/http/plugins/ (registered in this order):
//   request-context  ids, logging, metrics, the error envelope, 404/405   (every request)
//   ops              /healthz, /readyz, /metrics, /api/v1/openapi.json
//   docs             /docs, the API reference
//   dashboard        /dashboard, the web dashboard (balance, usage, recent calls, playground,
//                    operator view); it calls the JSON APIs below like any client
//   api              the paid endpoints under /api/v1 and the /api alias: auth and rate limits,
//                    Idempotency-Key, one route per endpoint (src/http/routes.ts)
//   account          GET /api/v1/account[/usage|/entries]: the key holder's own figures, free
//   admin            /admin/v1, only when ADMIN_TOKEN is set
// Nothing here or in src/http/ talks to the ledger, a source or the analyzer: routes call the
// verbs of src/services/.
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { Services } from './compose.js';
import { ALIAS_PREFIX, API_PREFIX, DEFAULT_BODY_LIMIT } from './contract/endpoints.js';
import account from './http/plugins/account.js';
import admin from './http/plugins/admin.js';
import api from './http/plugins/api.js';
import dashboard from './http/plugins/dashboard.js';
import { docsRoutes } from './http/plugins/docs.js';
import ops from './http/plugins/ops.js';
import requestContext from './http/plugins/request-context.js';
import { newRequestId } from './http/request-id.js';
import { clientErrorHandler, frameworkErrors } from './http/transport-errors.js';

export interface AppOptions {
  services: Services;
  logger: Logger;
}

export async function buildApp({ services, logger }: AppOptions) {
  const { config } = services;
  const app = Fastify({
    loggerInstance: logger,
    // each request's logger is a child bound to its id; below info nothing is logged per request
    // and every warning or error of ours names reqId itself, so no child is made then
    ...(logger.isLevelEnabled('info') ? {} : { childLoggerFactory: (parent: FastifyBaseLogger) => parent }),
    // one log line per request, written by the request-context plugin
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
    // the 503 of a closing server is answered by request-context, in the envelope
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler(logger),
    frameworkErrors,
    // always the server's own: a caller's X-Request-Id is echoed and recorded beside it
    genReqId: newRequestId,
    ajv: {
      // verbose: a validation error carries its schema, to suggest the field a typo meant
      customOptions: {
        allErrors: true,
        coerceTypes: false,
        useDefaults: true,
        removeAdditional: false,
        verbose: true,
      },
    },
  });

  await app.register(requestContext, {
    metrics: services.metrics,
    logRequests: logger.isLevelEnabled('info'),
  });
  await app.register(ops, { services });
  await app.register(docsRoutes);
  await app.register(dashboard);
  for (const prefix of [API_PREFIX, ALIAS_PREFIX]) {
    await app.register(api, { services, prefix });
    await app.register(account, { services, prefix });
  }
  if (config.ADMIN_TOKEN)
    await app.register(admin, { services, token: config.ADMIN_TOKEN, prefix: '/admin/v1' });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
