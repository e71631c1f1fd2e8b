// The account API over HTTP on both ledgers: a key holder reads their balance, totals, usage by
// day and endpoint, and ledger entries, free of charge; the figures agree with the ledger's
// reconcile after concurrent calls, retries with an Idempotency-Key included.
import { afterEach, describe, expect, test } from 'vitest';
import { LEDGERS, type LedgerApp, startAppOn } from '../support/ledgers.js';

let t: LedgerApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const DAY_MS = 86_400_000;
const ADMIN_TOKEN = 'admin-token-0123456789';
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function get(app: LedgerApp, url: string, key: string | null = app.key) {
  const r = await app.inject({ method: 'GET', url, headers: key === null ? {} : { 'x-api-key': key } });
  return {
    status: r.statusCode,
    body: r.json() as { success: boolean; data: any; error?: any; metadata: any },
  };
}

describe.each(LEDGERS)('%s ledger', (kind) => {
  test('the account: balance and totals, behind the API key, free of charge', async () => {
    t = await startAppOn(kind, { credits: 100 });
    expect((await get(t, '/api/v1/account', null)).status).toBe(401);
    expect((await get(t, '/api/v1/account', 'gl_live_not-a-real-key')).status).toBe(401);
    const before = await get(t, '/api/v1/account');
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({
      id: t.keyId,
      name: 'test',
      credits: 100,
      held: 0,
      available: 100,
      totals: { granted: 100, spent: 0, calls: 0 },
    });
    expect(before.body.metadata.credits_used).toBe(0);
    const paid = await t.post('/clipnet/posts', { username: 'alice', limit: 2 });
    expect(paid.statusCode).toBe(200);
    const used = paid.json().metadata.credits_used as number;
    expect(used).toBeGreaterThan(0);
    // reading the account again and again costs nothing
    for (let i = 0; i < 3; i++) await get(t, '/api/v1/account');
    const after = await get(t, '/api/v1/account');
    expect(after.body.data).toMatchObject({
      credits: 100 - used,
      totals: { granted: 100, spent: used, calls: 1 },
    });
    expect(await t.balance()).toBe(100 - used);
    // the /api alias answers too
    expect((await get(t, '/api/account')).body.data.credits).toBe(100 - used);
  });

  test('after concurrent calls and retries, usage and entries agree with the ledger and reconcile', async () => {
    t = await startAppOn(kind, { credits: 1000, env: { ADMIN_TOKEN } });
    const other = await t.newKey(50);
    const bodies = [
      ['/clipnet/posts', { username: 'alice', limit: 2 }],
      ['/picnet/posts', { username: 'bob', limit: 3 }],
      ['/clipnet/comments', { post_urls: ['7123456789012345678'] }],
    ] as const;
    const send = (i: number) => {
      const [path, body] = bodies[i % bodies.length]!;
      // every fourth call carries an Idempotency-Key, and is retried below: the retry replays, free
      return t!.post(path, body, i % 4 === 0 ? { 'idempotency-key': `idem-${i}` } : {});
    };
    const calls = Array.from({ length: 24 }, (_, i) => send(i));
    // the other key's call runs at the same time and must not show in this key's figures
    calls.push(t.post('/clipnet/posts', { username: 'alice', limit: 1 }, { 'x-api-key': other.key }));
    const replies = await Promise.all(calls);
    const retries = await Promise.all(Array.from({ length: 6 }, (_, j) => send(j * 4)));
    expect([...replies, ...retries].filter((r) => r.statusCode !== 200).map((r) => r.body)).toEqual([]);
    const mine = replies.slice(0, -1);
    for (const [j, r] of retries.entries()) expect(r.body).toBe(replies[j * 4]!.body);

    const report = await t.ledger.reconcile();
    expect(report.problems).toEqual([]);
    const journal = await t.ledger.entries(t.keyId, { limit: 10_000 });
    const debits = journal.filter((e) => e.kind === 'debit');
    const spentMilli = debits.reduce((s, e) => s + e.amount, 0);
    // six calls sent twice under one Idempotency-Key: charged once each
    expect(debits).toHaveLength(24);
    expect(debits.filter((e) => e.idempotent)).toHaveLength(6);
    expect(mine.length).toBeGreaterThanOrEqual(24);

    const acct = (await get(t, '/api/v1/account')).body.data;
    expect(acct.credits).toBe(await t.balance());
    expect(acct.totals).toEqual({ granted: 1000, spent: spentMilli / 1000, calls: 24 });
    expect(acct.totals.granted - acct.totals.spent).toBe(acct.credits);

    const usage = (await get(t, '/api/v1/account/usage')).body.data;
    expect(usage.days).toHaveLength(30);
    expect(usage.to).toBe(isoDay(Date.now()));
    expect(usage.total).toEqual({ credits: spentMilli / 1000, calls: 24 });
    const today = usage.days.at(-1);
    expect(today.credits).toBe(spentMilli / 1000);
    const byRoute = new Map<string, number>();
    for (const e of debits) byRoute.set(e.route!, (byRoute.get(e.route!) ?? 0) + 1);
    expect(
      Object.fromEntries(Object.entries(today.endpoints).map(([k, v]: [string, any]) => [k, v.calls])),
    ).toEqual(Object.fromEntries(byRoute));
    expect(
      usage.endpoints.map((e: { calls: number }) => e.calls).reduce((a: number, b: number) => a + b),
    ).toBe(24);

    // every entry exactly once over the pages, newest first
    const seen: Array<{
      seq: number;
      credits: number;
      kind: string;
      idempotent: boolean;
      request_id: string;
    }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await get(t, `/api/v1/account/entries?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.data.entries.length).toBeLessThanOrEqual(7);
      seen.push(...page.body.data.entries);
      cursor = page.body.data.next_cursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(Math.ceil(25 / 7));
    expect(seen.map((e) => e.seq)).toEqual(journal.map((e) => e.seq));
    expect(seen.at(-1)).toMatchObject({ kind: 'grant', credits: 1000 });
    expect(seen.filter((e) => e.idempotent)).toHaveLength(6);
    const replyIds = new Set(mine.map((r) => r.headers['x-request-id']));
    for (const e of seen.filter((x) => x.kind === 'debit')) expect(replyIds.has(e.request_id)).toBe(true);

    // the other key sees only its own
    const theirs = (await get(t, '/api/v1/account/usage', other.key)).body.data;
    expect(theirs.total.calls).toBe(1);
    // and the operator's usage of all keys says the same
    const all = await t.inject({
      method: 'GET',
      url: '/admin/v1/usage',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(all.json().keys).toEqual([
      { id: t.keyId, credits: spentMilli / 1000, calls: 24 },
      { id: other.id, credits: 50 - (await t.balance(other.id)), calls: 1 },
    ]);
  });

  test('usage by day: a period of the caller’s choosing, and clear errors for a bad one', async () => {
    t = await startAppOn(kind, { credits: 100 });
    // a debit three days ago, written beside its balance change as a charge would
    const then = Date.now() - 3 * DAY_MS;
    if (kind === 'sqlite') {
      await t.sql(
        "INSERT INTO ledger (key_id, kind, amount, request_id, route, created_at) VALUES (?, 'debit', 2500, 'req_old', 'picnet.posts', ?)",
        [t.keyId, then],
      );
      // the SQLite ledger's code keeps its daily rollup (PostgreSQL's trigger does it there)
      await t.sql(
        "INSERT INTO ledger_daily (key_id, day, route, kind, amount, entries) VALUES (?, ?, 'picnet.posts', 'debit', 2500, 1)",
        [t.keyId, Math.floor(then / DAY_MS)],
      );
    } else
      await t.sql(
        "INSERT INTO ledger (key_id, kind, amount, request_id, route, created_at) VALUES (?, 'debit', 2500, 'req_old', 'picnet.posts', to_timestamp(?::double precision / 1000))",
        [t.keyId, then],
      );
    await t.sql('UPDATE api_keys SET balance = balance - 2500 WHERE id = ?', [t.keyId]);
    expect((await t.ledger.reconcile()).problems).toEqual([]);

    const month = (await get(t, '/api/v1/account/usage')).body.data;
    const day = month.days.find((d: { date: string }) => d.date === isoDay(then));
    expect(day).toEqual({
      date: isoDay(then),
      credits: 2.5,
      calls: 1,
      endpoints: { 'picnet.posts': { credits: 2.5, calls: 1 } },
    });
    expect(month.endpoints).toEqual([{ endpoint: 'picnet.posts', credits: 2.5, calls: 1 }]);

    const sinceYesterday = await get(t, `/api/v1/account/usage?from=${isoDay(Date.now() - DAY_MS)}`);
    expect(sinceYesterday.body.data.days).toHaveLength(2);
    expect(sinceYesterday.body.data.total).toEqual({ credits: 0, calls: 0 });
    const thatDay = await get(t, `/api/v1/account/usage?from=${isoDay(then)}&to=${isoDay(then)}`);
    expect(thatDay.body.data.total).toEqual({ credits: 2.5, calls: 1 });

    for (const [q, field] of [
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-03-02&to=2026-03-01', 'from'],
      ['from=2020-01-01&to=2026-01-01', 'from'],
      ['form=2026-01-01', 'form'],
    ] as const) {
      const r = await get(t, `/api/v1/account/usage?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe('BAD_REQUEST');
      expect(JSON.stringify(r.body.error), q).toContain(field);
    }
    for (const q of ['limit=0', 'limit=201', 'limit=ten', 'cursor=-1', 'cursor=abc']) {
      const r = await get(t, `/api/v1/account/entries?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe('BAD_REQUEST');
    }
    // nothing of this was charged
    expect(await t.balance()).toBe(97.5);
    // the rollup the usage is read from is checked by reconcile: a change to it alone is found
    await t.sql("UPDATE ledger_daily SET amount = amount + 1 WHERE key_id = ? AND kind = 'debit'", [t.keyId]);
    const report = await t.ledger.reconcile();
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ keyId: t.keyId });
    expect(report.problems[0]!.problem).toContain('usage rollup');
  });
});
