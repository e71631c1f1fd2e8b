// A caller's X-Request-Id is echoed, but the ledger and the logs record the server's own id
// (req_…), with the caller's beside it: two calls sending the same id are two ledger requests.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { LEDGERS, type LedgerApp, startAppOn } from '../support/ledgers.js';

let t: LedgerApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe.each(LEDGERS)('%s ledger', (kind) => {
  test('two calls with one caller X-Request-Id: echoed, two distinct server ids in the ledger and logs', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
          done();
        },
      }),
    );
    t = await startAppOn(kind, { credits: 100, logger });
    const headers = { 'x-request-id': 'client-42' };
    const a = await t.post('/clipnet/posts', { username: 'alice', limit: 1 }, headers);
    const b = await t.post('/clipnet/posts', { username: 'alice', limit: 2 }, headers);
    expect(a.headers['x-request-id']).toBe('client-42');
    expect(b.headers['x-request-id']).toBe('client-42');
    const debits = (await t.ledger.entries(t.keyId)).filter((e) => e.kind === 'debit');
    expect(debits).toHaveLength(2);
    const ids = debits.map((e) => e.requestId);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(2);
    expect(debits.map((e) => e.clientRequestId)).toEqual(['client-42', 'client-42']);
    // the request log lines name the same server ids, the caller's beside them
    const logged = lines.filter((l) => l.msg === 'request');
    expect(logged.map((l) => l.reqId).sort()).toEqual([...ids].sort());
    for (const l of logged) expect(l.clientRequestId).toBe('client-42');
  });

  test('without a caller id the server id is echoed and nothing is kept beside it', async () => {
    t = await startAppOn(kind, { credits: 100 });
    const r = await t.post('/clipnet/posts', { username: 'alice', limit: 1 });
    const [debit] = await t.ledger.entries(t.keyId, { limit: 1 });
    expect(debit?.requestId).toBe(r.headers['x-request-id']);
    expect(debit?.clientRequestId).toBeNull();
  });
});
