// The paid API under one prefix (/api/v1, and again under the /api alias): the gate (auth), the
// Idempotency-Key handling, and one POST route per endpoint of the contract, each calling its
// service verb with the request's call context.
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../compose.js';
import { ENDPOINTS } from '../../contract/endpoints.js';
import { requestContext } from '../../services/billed-call.js';
import { ROUTES, type RouteHandler } from '../routes.js';
import auth from './auth.js';
import idempotency from './idempotency.js';

const api: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(auth, { services });
  await app.register(idempotency, { services });
  const timeoutMs = services.config.REQUEST_TIMEOUT_MS;
  for (const def of ENDPOINTS) {
    const handler: RouteHandler = ROUTES[def.id];
    if (handler.body !== def.body)
      throw new Error(`${def.id}: the route's body schema is not the contract's`);
    const options = { schema: { body: def.body }, config: { endpointId: def.id }, bodyLimit: def.bodyLimit };
    app.post(def.path, options, async (req, reply) => {
      const ctx = requestContext(
        {
          keyId: req.apiKeyId!,
          requestId: req.id,
          clientRequestId: req.clientRequestId,
          route: def.id,
          startedAt: req.startedAt,
          idempotency: req.idempotency,
        },
        timeoutMs,
      );
      const r = await handler.run(services, ctx, req.body as never);
      reply.status(r.status).headers(r.headers);
      return reply.send(r.body);
    });
  }
};

export default api;
