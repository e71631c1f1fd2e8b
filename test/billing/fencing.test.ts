// One Idempotency-Key and body is debited at most once, however long its first run takes. A run
// that outlives IDEMPOTENCY_LOCK_SECONDS can be taken over by a retry; the take-over bumps the
// record's generation, and the first run's debit, checked against it in the debit's own
// transaction, is refused: that run answers 409, its hold is released, the stored reply stays
// the retry's, and reconcile sees one debit per key (and reports a key debited twice).
import { afterEach, describe, expect, test } from 'vitest';
import type { IdempotencyBegin, Ledger } from '../../src/billing/ledger/interface.js';
import { fakeSources } from '../support/fakes.js';
import { LEDGERS, type LedgerApp, startAppOn } from '../support/ledgers.js';

let t: LedgerApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** a gate a slow upstream call waits at */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { opened, open };
}

async function until(cond: () => boolean) {
  while (!cond()) await sleep(5);
}

async function debits(app: LedgerApp) {
  return (await app.ledger.entries(app.keyId, { limit: 1000 })).filter((e) => e.kind === 'debit');
}

// the lease of an Idempotency-Key run: one second, the least the configuration allows
const LOCK = { IDEMPOTENCY_LOCK_SECONDS: '1' };
const BODY = { username: 'alice', limit: 2 };
const KEY = { 'idempotency-key': 'slow-call' };

describe.each(LEDGERS)('%s ledger', (kind) => {
  describe.each(['sandbox', 'live'] as const)('a %s source', (source) => {
    /** the app with an upstream whose n-th call waits at gates[n] (when there is one) */
    async function slowApp(gates: Array<ReturnType<typeof gate>>) {
      let n = 0;
      const sources = fakeSources({ kind: source, onCall: () => gates[n++]?.opened });
      t = await startAppOn(kind, { credits: 100, env: LOCK, sources });
      return sources;
    }

    test('a retry takes over a run that outlived its lease: the first run is refused (409), one debit', async () => {
      const first = gate();
      const sources = await slowApp([first]);
      const a = t!.post('/clipnet/posts', BODY, KEY);
      await until(() => sources.calls.length === 1);
      await sleep(1200);
      const b = await t!.post('/clipnet/posts', BODY, KEY);
      expect(b.statusCode, b.body).toBe(200);
      expect(b.headers['idempotent-replayed']).toBeUndefined();
      expect(b.json().metadata.credits_used).toBe(3);
      // the first run's upstream answers at last: its work is discarded
      first.open();
      const late = await a;
      expect(late.statusCode, late.body).toBe(409);
      expect(late.json().error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
      expect(late.json().metadata.credits_used).toBe(0);
      // the stored reply is the retry's, replayed as it was
      const c = await t!.post('/clipnet/posts', BODY, KEY);
      expect(c.headers['idempotent-replayed']).toBe('true');
      expect(c.body).toBe(b.body);
      expect(await t!.balance()).toBe(97);
      expect(await debits(t!)).toHaveLength(1);
      expect(await t!.ledger.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
    });

    test('the first run finishing while the retry still runs is refused, and the retry is charged', async () => {
      const first = gate();
      const second = gate();
      const sources = await slowApp([first, second]);
      const a = t!.post('/clipnet/posts', BODY, KEY);
      await until(() => sources.calls.length === 1);
      await sleep(1200);
      const b = t!.post('/clipnet/posts', BODY, KEY);
      await until(() => sources.calls.length === 2);
      first.open();
      const late = await a;
      expect(late.statusCode, late.body).toBe(409);
      // the refused run did not give the key up: the retry still owns it
      const meanwhile = await t!.post('/clipnet/posts', BODY, KEY);
      expect(meanwhile.statusCode).toBe(409);
      second.open();
      const done = await b;
      expect(done.statusCode, done.body).toBe(200);
      const c = await t!.post('/clipnet/posts', BODY, KEY);
      expect(c.body).toBe(done.body);
      expect(await t!.balance()).toBe(97);
      expect(await debits(t!)).toHaveLength(1);
      expect(await t!.ledger.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
    });

    test('a run that outlived its lease with no retry in between is charged as usual', async () => {
      const first = gate();
      const sources = await slowApp([first]);
      const a = t!.post('/clipnet/posts', BODY, KEY);
      await until(() => sources.calls.length === 1);
      await sleep(1200);
      first.open();
      const r = await a;
      expect(r.statusCode, r.body).toBe(200);
      expect((await t!.post('/clipnet/posts', BODY, KEY)).body).toBe(r.body);
      expect(await t!.balance()).toBe(97);
    });
  });

  test('in one group commit, a stale lease is refused and the owner is charged', async () => {
    t = await startAppOn(kind, { credits: 100 });
    const l: Ledger = t.ledger;
    const ref = { keyId: t.keyId, key: 'k', fingerprint: 'f', leaseMs: 1, ttlMs: 86_400_000 };
    const lease = (b: IdempotencyBegin) => {
      if (b.state !== 'new') throw new Error(`not new: ${b.state}`);
      return b.lease;
    };
    const stale = lease(await l.idempotencyBegin(ref));
    await sleep(10);
    const owner = lease(await l.idempotencyBegin(ref));
    expect(owner).toEqual({ ...stale, generation: stale.generation + 1 });
    const price = { base: 1000, perItem: 1000 };
    const base = { keyId: t.keyId, route: 'clipnet.posts', price, minItems: 1 } as const;
    const render = (by: string) => () => ({ status: 200, headers: {}, body: by });
    const heldStale = await l.hold({ ...base, requestId: 'h', maxItems: 2, ttlMs: 60_000 });
    if (!heldStale.ok) throw new Error('no hold');
    // queued in one turn: on both ledgers, all but the first run in one batch transaction
    const rs = await Promise.all([
      l.charge({ ...base, requestId: 'plain1', items: 1 }),
      l.charge({ ...base, requestId: 'plain2', items: 1 }),
      l.charge({ ...base, requestId: 'stale', items: 1, idempotency: { ...stale, render: render('stale') } }),
      l.settle({
        ...base,
        holdId: heldStale.holdId,
        requestId: 'stale-settle',
        items: 2,
        idempotency: { ...stale, render: render('stale') },
      }),
      l.charge({ ...base, requestId: 'owner', items: 2, idempotency: { ...owner, render: render('owner') } }),
      l.charge({
        ...base,
        requestId: 'stale2',
        items: 1,
        idempotency: { ...stale, render: render('stale') },
      }),
      l.charge({ ...base, requestId: 'plain3', items: 1 }),
    ]);
    expect(rs.map((r) => (r.ok ? r.amount : r.fenced ? 'fenced' : 'refused'))).toEqual([
      2000,
      2000,
      'fenced',
      'fenced',
      3000,
      'fenced',
      2000,
    ]);
    // the stale settle released its hold, and the stored reply is the owner's
    expect(await l.available(t.keyId)).toBe(100_000 - 9000);
    expect(await l.idempotencyBegin(ref)).toMatchObject({ state: 'replay', response: { body: 'owner' } });
    const ids = (await debits(t)).map((e) => e.requestId).sort();
    expect(ids).toEqual(['owner', 'plain1', 'plain2', 'plain3']);
    // the stale run's abandon (after its error) leaves the owner's record alone
    await l.idempotencyAbandon(stale);
    expect(await l.idempotencyBegin(ref)).toMatchObject({ state: 'replay' });
    expect(await l.reconcile()).toMatchObject({ openHolds: 0, problems: [] });
  });

  test('reconcile reports a key debited twice', async () => {
    t = await startAppOn(kind, { credits: 100 });
    const r = await t.post('/clipnet/posts', BODY, KEY);
    expect(r.statusCode).toBe(200);
    expect(await t.ledger.reconcile()).toMatchObject({ problems: [] });
    // a second debit for the same Idempotency-Key record, as a double charge would leave it; the
    // balance is lowered to match, so the sums alone look right
    await t.sql(
      `INSERT INTO ledger (key_id, kind, amount, request_id, route, created_at, idem_record, idem_generation)
       SELECT key_id, kind, amount, 'req_forged', route, created_at, idem_record, idem_generation + 1
       FROM ledger WHERE idem_record IS NOT NULL`,
    );
    await t.sql('UPDATE api_keys SET balance = balance - 3000 WHERE id = ?', [t.keyId]);
    // on SQLite the ledger code keeps the daily rollup (on PostgreSQL a trigger does): forge it too
    if (kind === 'sqlite')
      await t.sql(
        "UPDATE ledger_daily SET amount = amount + 3000, entries = entries + 1 WHERE key_id = ? AND kind = 'debit'",
        [t.keyId],
      );
    const rec = await t.ledger.reconcile();
    expect(rec.problems).toHaveLength(1);
    expect(rec.problems[0]).toMatchObject({
      keyId: t.keyId,
      problem: expect.stringMatching(/2 debits for one Idempotency-Key/),
    });
  });
});
