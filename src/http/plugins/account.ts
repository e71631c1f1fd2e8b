// The account API under /api/v1/account (and the /api alias): a key holder reads their own
// balance and totals, usage by day and endpoint, and ledger entries. Behind the same gate as the
// paid API (the auth plugin: API key and rate limits), and free: nothing is charged.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../compose.js';
import { EntriesQuery, UsageQuery } from '../../contract/account.js';
import * as account from '../../services/account.js';
import { sendJson } from '../envelope.js';
import auth from './auth.js';

/** the success envelope of a free call */
function reply(req: FastifyRequest, res: FastifyReply, data: unknown) {
  const seconds = (performance.now() - req.startedAt) / 1000;
  return sendJson(res, 200, {
    success: true,
    data,
    metadata: { credits_used: 0, processing_time: Number(seconds.toFixed(4)) },
  });
}

const accountApi: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(auth, { services });
  app.get('/account', async (req, res) => reply(req, res, await account.account(services, req.apiKeyId!)));
  app.get<{ Querystring: UsageQuery }>(
    '/account/usage',
    { schema: { querystring: UsageQuery } },
    async (req, res) => reply(req, res, await account.usage(services, req.apiKeyId!, req.query)),
  );
  app.get<{ Querystring: EntriesQuery }>(
    '/account/entries',
    {
      schema: { querystring: EntriesQuery },
      // the validator does not coerce types: a query string's number is read here
      preValidation: async (req) => {
        const q = req.query as Record<string, unknown>;
        if (typeof q.limit === 'string' && /^\d{1,6}$/.test(q.limit)) q.limit = Number(q.limit);
      },
    },
    async (req, res) => reply(req, res, await account.entries(services, req.apiKeyId!, req.query)),
  );
};

export default accountApi;
