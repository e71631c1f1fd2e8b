// The gate of the API key's routes (the paid API and the free account API), before anything is
// billed: the API key (a failed one counts against the caller's address), the key's rate limits,
// and, for a request that carries a body (every method but GET and HEAD), its content type. A
// refused call costs nothing.
import type { FastifyPluginCallback } from 'fastify';
import fp from 'fastify-plugin';
import type { Services } from '../../compose.js';
import { AppError } from '../../errors.js';
import * as accounts from '../../services/accounts.js';
import { credentialRefuser } from '../credentials.js';

const auth: FastifyPluginCallback<{ services: Services }> = (api, { services }, done) => {
  const { rateLimiter } = services;
  const refuseCredentials = credentialRefuser(rateLimiter);
  api.addHook('onRequest', async (req, reply) => {
    let key: Awaited<ReturnType<typeof accounts.authenticate>>;
    try {
      key = await accounts.authenticate(services, req.headers['x-api-key']);
    } catch (e) {
      if (e instanceof AppError && e.code === 'UNAUTHORIZED') await refuseCredentials(req, e);
      throw e;
    }
    req.apiKeyId = key.id;
    const admitted = rateLimiter.keys.admit(key.id);
    // no limits: the answer is there at once, with no promise to wait for
    const admission = admitted instanceof Promise ? await admitted : admitted;
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
    // a GET or HEAD carries no body, so it has no content type to check
    if (req.method === 'GET' || req.method === 'HEAD') return;
    const ct = req.headers['content-type'];
    const mime = ct === 'application/json' ? ct : ct?.split(';')[0]?.trim().toLowerCase();
    if (mime !== 'application/json')
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  });
  done();
};

/** registered inside a scope (the paid API's, the account API's): its hook runs for that scope's
 *  routes only */
export default fp(auth, { name: 'auth', fastify: '5.x' });
