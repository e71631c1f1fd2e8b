// The operator API under /admin/v1, behind the bearer ADMIN_TOKEN (absent without it): keys
// (create, list, show, revoke, grant credits), a key's ledger entries, every key's usage over a
// period, and reconcile. The verbs
// are in services/accounts.ts, the same the admin CLI calls.
import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../compose.js';
import { UsageQuery } from '../../contract/account.js';
import { CreateKeyBody, GrantBody, KeyIdParams, LedgerQuery } from '../../contract/admin.js';
import { AppError } from '../../errors.js';
import * as account from '../../services/account.js';
import * as accounts from '../../services/accounts.js';
import { bearerMatches, credentialRefuser, tokenDigest } from '../credentials.js';
import { sendJson } from '../envelope.js';

const admin: FastifyPluginAsync<{ services: Services; token: string }> = async (app, { services, token }) => {
  const expected = tokenDigest(token);
  const refuseCredentials = credentialRefuser(services.rateLimiter);
  app.addHook('onRequest', async (req) => {
    if (!bearerMatches(req.headers.authorization, expected))
      await refuseCredentials(req, new AppError('UNAUTHORIZED', 'Admin token is missing or wrong'));
  });
  app.post<{ Body: Static<typeof CreateKeyBody> }>(
    '/keys',
    { schema: { body: CreateKeyBody } },
    async (req, reply) =>
      sendJson(reply, 201, await accounts.createKey(services, req.body.name, req.body.credits)),
  );
  app.get('/keys', async () => ({ keys: await accounts.listKeys(services) }));
  app.get<{ Params: Static<typeof KeyIdParams> }>(
    '/keys/:id',
    { schema: { params: KeyIdParams } },
    async (req) => accounts.getKey(services, req.params.id),
  );
  app.post<{ Params: Static<typeof KeyIdParams> }>(
    '/keys/:id/revoke',
    { schema: { params: KeyIdParams } },
    async (req) => accounts.revokeKey(services, req.params.id),
  );
  app.post<{ Params: Static<typeof KeyIdParams>; Body: Static<typeof GrantBody> }>(
    '/keys/:id/credits',
    { schema: { params: KeyIdParams, body: GrantBody } },
    async (req) => accounts.grantCredits(services, req.params.id, req.body.credits, req.body.note),
  );
  app.get<{ Params: Static<typeof KeyIdParams>; Querystring: Static<typeof LedgerQuery> }>(
    '/keys/:id/ledger',
    {
      schema: { params: KeyIdParams, querystring: LedgerQuery },
      // the validator does not coerce types; query strings are strings, so read the numeric
      // parameters here
      preValidation: async (req) => {
        const q = req.query as Record<string, unknown>;
        for (const k of ['limit', 'before'])
          if (typeof q[k] === 'string' && /^\d{1,15}$/.test(q[k] as string)) q[k] = Number(q[k]);
      },
    },
    async (req) => accounts.keyLedger(services, req.params.id, req.query.limit, req.query.before),
  );
  app.get<{ Querystring: UsageQuery }>('/usage', { schema: { querystring: UsageQuery } }, async (req) =>
    account.usageOfAllKeys(services, req.query),
  );
  app.get('/reconcile', async (_req, reply) => {
    const report = await accounts.reconcile(services);
    return sendJson(reply, report.problems.length === 0 ? 200 : 409, report);
  });
};

export default admin;
