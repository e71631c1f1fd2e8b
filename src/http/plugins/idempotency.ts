// The Idempotency-Key header on the paid API: a call that carries one runs under a lease on the
// key's record, or is answered with the stored reply of the run that completed; a call that fails
// gives its lease back. The verbs are in services/idempotency.ts.
import type { FastifyPluginCallback } from 'fastify';
import fp from 'fastify-plugin';
import type { Services } from '../../compose.js';
import { abandonIdempotentCall, beginIdempotentCall } from '../../services/idempotency.js';

const idempotency: FastifyPluginCallback<{ services: Services }> = (api, { services }, done) => {
  // a callback hook: most calls carry no Idempotency-Key and pass straight through
  api.addHook('preHandler', (req, reply, next) => {
    const header = req.headers['idempotency-key'];
    if (header === undefined) return next();
    const route = req.routeOptions.config.endpointId ?? req.routeOptions.url ?? '';
    beginIdempotentCall(services, { keyId: req.apiKeyId!, header, route, body: req.body }).then((start) => {
      if (start.state === 'run') {
        req.idempotency = start.lease;
        return next();
      }
      const { response } = start;
      reply.status(response.status).headers(response.headers).header('idempotent-replayed', 'true');
      reply.send(response.body);
    }, next);
  });
  // before the error handler answers: a failed call's retry runs again
  api.addHook('onError', async (req) => {
    if (req.idempotency) await abandonIdempotentCall(services, req.idempotency);
  });
  done();
};

/** registered inside the API's scope, after auth (it needs the key) */
export default fp(idempotency, { name: 'idempotency', fastify: '5.x', dependencies: ['auth'] });
