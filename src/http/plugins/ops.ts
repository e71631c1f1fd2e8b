// Operations: liveness (/healthz), readiness (/readyz: the ledger's database answers), Prometheus
// metrics (/metrics, behind METRICS_TOKEN when it is set) and the OpenAPI document.
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../compose.js';
import { API_PREFIX } from '../../contract/endpoints.js';
import { buildOpenApi } from '../../contract/openapi.js';
import { AppError } from '../../errors.js';
import { ledgerReady } from '../../services/accounts.js';
import { bearerMatches, credentialRefuser, tokenDigest } from '../credentials.js';
import { sendJson } from '../envelope.js';

const ops: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { config, metrics } = services;
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) =>
    (await ledgerReady(services))
      ? { status: 'ready' }
      : sendJson(reply, 503, { status: 'unavailable', reason: 'ledger database' }),
  );
  // open unless METRICS_TOKEN is set; keep it off the public network either way
  const metricsToken = config.METRICS_TOKEN ? tokenDigest(config.METRICS_TOKEN) : null;
  const refuseCredentials = credentialRefuser(services.rateLimiter);
  app.get('/metrics', async (req, reply) => {
    if (metricsToken && !bearerMatches(req.headers.authorization, metricsToken))
      await refuseCredentials(req, new AppError('UNAUTHORIZED', 'Metrics token is missing or wrong'));
    return reply.type(metrics.contentType).send(await metrics.render());
  });
  const openapi = JSON.stringify(buildOpenApi());
  app.get(`${API_PREFIX}/openapi.json`, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(openapi),
  );
};

export default ops;
