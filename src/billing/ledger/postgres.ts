// The ledger on PostgreSQL, for several instances sharing one database. Same contract and
// semantics as sqlite.ts; what differs is how the guarantees are obtained:
//  - every balance check is inside the statement that writes: a debit or a hold is one
//    conditional UPDATE (… WHERE balance - held >= amount) whose item count is computed in the
//    same statement from the row it locks, so no instance ever acts on a balance it read earlier;
//  - the CHECK constraints (balance >= 0, 0 <= held <= balance) make an overspend impossible
//    even for a buggy writer, and a trigger makes the journal append-only;
//  - a stored Idempotency-Key response commits in the same transaction as its debit, and both
//    apply only while the call's lease still owns its idempotency record (the row is locked and
//    checked in that transaction: a run a retry took over is fenced off, see migration 4);
//  - the sweeper takes expired holds with FOR UPDATE SKIP LOCKED, so every instance can sweep
//    at once without closing a hold twice;
//  - durability: a COMMIT returns once its WAL is flushed;
//  - group commit: a debit holds its key's row lock until its COMMIT, so the calls of one key
//    would run one commit (one WAL flush) at a time. Instead, the charges, holds and settles
//    that arrive while a write is running are queued and then run together in one transaction
//    (see flush()): one call of the gleaner_batch_fenced function (migration 4) does them in the order
//    they came (sorted by key, so that two batches lock rows in the same order), each deciding
//    on the row it locks exactly as the single-call statements do; then one statement stores
//    their Idempotency-Key responses, then COMMIT. If anything in a batch fails, the database
//    rolls the whole batch back and each call runs again on its own, so one failing call never
//    undoes or fails the others.
// Timestamps (hold expiry, idempotency leases) use the database clock, so instances with skewed
// clocks agree.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Price } from '../pricing.js';
import type {
  ChargeOutcome,
  ChargeRequest,
  ChargeResult,
  HoldRequest,
  HoldResult,
  IdempotencyBegin,
  IdempotencyLease,
  IdempotencyRef,
  KeyBalance,
  KeyRecord,
  KeyUsage,
  Ledger,
  LedgerEntry,
  ReconcileReport,
  SettleRequest,
  UsageRow,
} from './interface.js';
import { migrate } from './migrations/postgres.js';
import { reconcileReport } from './reconcile.js';

const INT8 = 20;
const NUMERIC = 1700;
// Millicredit amounts and sequence numbers stay far below 2^53, so bigint columns are read as
// plain numbers.
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8 || oid === NUMERIC
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  balance: number;
  held: number;
  created_at: Date;
  revoked_at: Date | null;
}

const toRecord = (r: KeyRow): KeyRecord => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});
const toBalance = (r: KeyRow): KeyBalance => ({ ...toRecord(r), balance: r.balance, held: r.held });

const KEY_COLUMNS = 'id, name, prefix, balance, held, created_at, revoked_at';

// How many of `items` the key affords beyond the base charge (NULL: not even the base), read
// from the row locked by this very statement. $1 key, $2 base, $3 per item, $4 items wanted.
const AFFORDABLE = `
  k AS (
    SELECT id, balance - held AS avail FROM api_keys WHERE id = $1 FOR NO KEY UPDATE
  ),
  c AS (
    SELECT id,
      CASE WHEN avail < $2::bigint THEN NULL
           WHEN $3::bigint = 0 THEN $4::bigint
           ELSE LEAST($4::bigint, (avail - $2::bigint) / $3::bigint) END AS n
    FROM k
  )`;

// One-step debit: $5 min items, $6 request id, $7 route, $8 the caller's request id. Calls with
// an Idempotency-Key go through gleaner_batch_fenced instead (it checks their lease).
const CHARGE = `
WITH ${AFFORDABLE},
  d AS (
    UPDATE api_keys a SET balance = a.balance - ($2::bigint + $3::bigint * c.n)
    FROM c
    WHERE a.id = c.id AND c.n >= $5::bigint AND a.balance - a.held >= $2::bigint + $3::bigint * c.n
    RETURNING a.id, c.n, $2::bigint + $3::bigint * c.n AS amount, a.balance
  ),
  j AS (
    INSERT INTO ledger (key_id, kind, amount, request_id, route, client_request_id)
    SELECT id, 'debit', amount, $6, $7, $8 FROM d WHERE amount > 0
  )
SELECT n, amount, balance FROM d`;

// Reserve: $5 min items, $6 hold id, $7 request id, $8 route, $9 ttl in ms.
const HOLD = `
WITH ${AFFORDABLE},
  d AS (
    UPDATE api_keys a SET held = a.held + ($2::bigint + $3::bigint * c.n)
    FROM c
    WHERE a.id = c.id AND c.n >= $5::bigint AND a.balance - a.held >= $2::bigint + $3::bigint * c.n
    RETURNING a.id, c.n, $2::bigint + $3::bigint * c.n AS amount
  ),
  h AS (
    INSERT INTO holds (id, key_id, amount, request_id, route, state, expires_at)
    SELECT $6, id, amount, $7, $8, 'open', clock_timestamp() + $9::bigint * interval '1 millisecond' FROM d
  )
SELECT n, amount FROM d`;

// Closes an open hold ($1) and gives its amount back to `available`; a closed hold is untouched,
// so a hold is never closed twice.
const CLOSE_HOLD = `
WITH h AS (
  UPDATE holds SET state = $2, closed_at = clock_timestamp()
  WHERE id = $1 AND state = 'open'
  RETURNING key_id, amount
)
UPDATE api_keys a SET held = a.held - h.amount FROM h WHERE a.id = h.key_id`;

// Expired holds, at most 1000 a sweep; rows another sweeper holds are skipped, not waited for.
// Keys are locked in id order so that two sweepers never deadlock on each other.
const EXPIRE = `
WITH h AS (
  UPDATE holds SET state = 'expired', closed_at = COALESCE($1::timestamptz, clock_timestamp())
  WHERE id IN (
    SELECT id FROM holds
    WHERE state = 'open' AND expires_at < COALESCE($1::timestamptz, clock_timestamp())
    ORDER BY expires_at LIMIT 1000
    FOR UPDATE SKIP LOCKED
  ) AND state = 'open'
  RETURNING key_id, amount
),
s AS (SELECT key_id, SUM(amount)::bigint AS amount, COUNT(*)::bigint AS n FROM h GROUP BY key_id),
l AS (SELECT a.id FROM api_keys a JOIN s ON s.key_id = a.id ORDER BY a.id FOR NO KEY UPDATE OF a),
u AS (
  UPDATE api_keys a SET held = a.held - s.amount FROM s, l WHERE a.id = s.key_id AND l.id = a.id
  RETURNING a.id
)
SELECT COALESCE(SUM(n), 0)::bigint AS n FROM s`;

// Starts (or takes over) an idempotency record. Inserted when new, replaced (a new record id)
// when expired, taken over when its lease ran out (the instance running it died, or the run
// takes too long); otherwise left alone and read back. Replacing or taking over bumps the
// generation, which fences the earlier run off. $6 the id of a new record.
const IDEM_BEGIN = `
INSERT INTO idempotency AS i (key_id, idem_key, fingerprint, state, locked_until, created_at, expires_at,
                              record_id, generation)
VALUES ($1, $2, $3, 'running',
        clock_timestamp() + $4::bigint * interval '1 millisecond',
        clock_timestamp(),
        clock_timestamp() + $5::bigint * interval '1 millisecond',
        $6, 1)
ON CONFLICT (key_id, idem_key) DO UPDATE SET
  fingerprint = EXCLUDED.fingerprint,
  state = 'running',
  locked_until = EXCLUDED.locked_until,
  status = NULL, headers = NULL, body = NULL,
  created_at = CASE WHEN i.expires_at < clock_timestamp() THEN EXCLUDED.created_at ELSE i.created_at END,
  expires_at = CASE WHEN i.expires_at < clock_timestamp() THEN EXCLUDED.expires_at ELSE i.expires_at END,
  record_id = CASE WHEN i.expires_at < clock_timestamp() THEN EXCLUDED.record_id ELSE i.record_id END,
  generation = i.generation + 1
WHERE i.expires_at < clock_timestamp()
   OR (i.state = 'running' AND i.locked_until < clock_timestamp() AND i.fingerprint = EXCLUDED.fingerprint)
RETURNING record_id, generation`;

/** retried: a deadlock or a serialization failure aborts a transaction without effect */
const TRANSIENT = new Set(['40001', '40P01']);

export interface PostgresLedgerOptions {
  /** connections of this instance (default 10) */
  poolSize?: number;
  /** skip migrations (they were run by `npm run migrate`) */
  migrate?: boolean;
}

type Client = pg.PoolClient;

/** one call of a batch: its row of gleaner_batch_fenced's arguments (see migration 4) */
interface BatchRow {
  kind: 'charge' | 'hold' | 'settle';
  keyId: string;
  base: number;
  perItem: number;
  want: number;
  min: number;
  requestId: string;
  route: string;
  holdId: string | null;
  ttlMs: number | null;
  clientRequestId: string | null;
  idempotency: IdempotencyLease | null;
}

interface BatchOutcome {
  n: number | null;
  amount: number | null;
  balance: number | null;
  /** the call's lease no longer owns its idempotency record: nothing was done */
  fenced: boolean;
}

/** a stored Idempotency-Key response, written in the batch's transaction */
interface StoredRow {
  lease: IdempotencyLease;
  status: number;
  headers: string;
  body: string;
}

/** one call waiting in the write queue */
interface Queued {
  row: BatchRow;
  /** whether finish() may give a response to store (an Idempotency-Key call) */
  stores: boolean;
  /** reads its outcome from its row of gleaner_batch_fenced's answer */
  finish(out: BatchOutcome): { value: unknown; stored?: StoredRow };
  /** the call on its own, in its own transaction (when its batch failed) */
  alone(): Promise<unknown>;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

const BATCH = `SELECT n, amount, balance, fenced FROM gleaner_batch_fenced($1::text[], $2::text[],
  $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::text[],
  $10::bigint[], $11::text[], $12::text[], $13::text[], $14::bigint[])`;

// the records are locked by gleaner_batch_fenced in this transaction; the lease is checked again
const STORE_RESPONSES = `
UPDATE idempotency i SET state = 'done', status = u.status, headers = u.headers::jsonb, body = u.body
FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::integer[], $6::text[], $7::text[])
  AS u (key_id, idem_key, record_id, generation, status, headers, body)
WHERE i.key_id = u.key_id AND i.idem_key = u.idem_key AND i.record_id = u.record_id
  AND i.generation = u.generation AND i.state = 'running'`;

/** writes of one instance running at once. One: what arrives meanwhile waits and goes in the
 *  next batch. Two, in load runs against one busy key while this was developed, gave about 10%
 *  fewer requests per second and 50% more database CPU per call (the second batch mostly waits
 *  on the row locks of the first, and the batches are smaller); npm run bench:load shows the
 *  result, not the comparison. */
const MAX_WRITES = 1;

/** an error the server reported for a statement: the transaction was rolled back, the
 *  connection is still usable */
const statementError = (e: unknown) => e instanceof pg.DatabaseError && e.severity === 'ERROR';

export class PostgresLedger implements Ledger {
  readonly kind = 'postgres' as const;
  private closed = false;
  private queue: Queued[] = [];
  /** writes (one call or a batch) running now: what arrives while MAX_WRITES run waits */
  private writing = 0;

  constructor(readonly pool: pg.Pool) {}

  /** Runs a charge, hold or settle: at once when few writes are running, else in the next batch. */
  private enqueue<T>(op: Omit<Queued, 'resolve' | 'reject'>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the ledger is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ ...op, resolve: resolve as (v: unknown) => void, reject });
      this.kick();
    });
  }

  private kick(): void {
    while (this.writing < MAX_WRITES && this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      this.writing++;
      const run =
        batch.length === 1 ? batch[0]!.alone().then(batch[0]!.resolve, batch[0]!.reject) : this.flush(batch);
      void run.finally(() => {
        this.writing--;
        this.kick();
      });
    }
  }

  /** one transaction for several calls; see the header */
  private async flush(calls: Queued[]): Promise<void> {
    // by key (stable: one key's calls keep their order), so batches lock rows in one order
    const batch = calls
      .map((op, i) => ({ op, i }))
      .sort((a, b) =>
        a.op.row.keyId < b.op.row.keyId ? -1 : a.op.row.keyId > b.op.row.keyId ? 1 : a.i - b.i,
      )
      .map(({ op }) => op);
    let c: Client;
    try {
      c = await this.pool.connect();
    } catch (e) {
      for (const op of batch) op.reject(e);
      return;
    }
    let values: unknown[];
    // without responses to store, the batch is one statement: its own implicit transaction,
    // committed (WAL flushed) before it answers, in one round trip instead of three
    const explicit = batch.some((op) => op.stores);
    try {
      if (explicit) await c.query('BEGIN');
      values = await this.batchIn(c, batch);
      if (explicit) await c.query('COMMIT');
    } catch (e) {
      if (!statementError(e)) {
        // the connection broke (or this code did): whether the batch committed is unknown, so
        // no call may run again; the connection is closed, which rolls back what did not commit
        c.release(e instanceof Error ? e : true);
        for (const op of batch) op.reject(e);
        return;
      }
      if (explicit) await c.query('ROLLBACK').catch(() => {});
      c.release();
      // nothing of the batch was committed: each call on its own
      await Promise.all(batch.map((op) => op.alone().then(op.resolve, op.reject)));
      return;
    }
    c.release();
    batch.forEach((op, i) => {
      op.resolve(values[i]);
    });
  }

  /** Runs calls in one gleaner_batch_fenced call and stores their Idempotency-Key responses, on
   *  `c` (in a transaction when a response is to be stored); returns their values in order. */
  private async batchIn(c: Client, batch: Array<Pick<Queued, 'row' | 'finish'>>): Promise<unknown[]> {
    const rows = batch.map((op) => op.row);
    const r = await c.query<BatchOutcome>({
      name: 'batch',
      text: BATCH,
      values: [
        rows.map((x) => x.kind),
        rows.map((x) => x.keyId),
        rows.map((x) => x.base),
        rows.map((x) => x.perItem),
        rows.map((x) => x.want),
        rows.map((x) => x.min),
        rows.map((x) => x.requestId),
        rows.map((x) => x.route),
        rows.map((x) => x.holdId),
        rows.map((x) => x.ttlMs),
        rows.map((x) => x.clientRequestId),
        rows.map((x) => x.idempotency?.key ?? null),
        rows.map((x) => x.idempotency?.record ?? null),
        rows.map((x) => x.idempotency?.generation ?? null),
      ],
    });
    if (r.rows.length !== batch.length)
      throw new Error('gleaner_batch_fenced answered a row count of its own');
    const values: unknown[] = [];
    const stored: StoredRow[] = [];
    batch.forEach((op, i) => {
      const f = op.finish(r.rows[i]!);
      values.push(f.value);
      if (f.stored) stored.push(f.stored);
    });
    if (stored.length > 0)
      await c.query({
        name: 'store_responses',
        text: STORE_RESPONSES,
        values: [
          stored.map((x) => x.lease.keyId),
          stored.map((x) => x.lease.key),
          stored.map((x) => x.lease.record),
          stored.map((x) => x.lease.generation),
          stored.map((x) => x.status),
          stored.map((x) => x.headers),
          stored.map((x) => x.body),
        ],
      });
    return values;
  }

  private async withRetry<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (attempt >= 4 || !code || !TRANSIENT.has(code)) throw e;
        await new Promise((r) => setTimeout(r, 2 + Math.random() * 10 * (attempt + 1)));
      }
    }
  }

  private async tx<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    return this.withRetry(async () => {
      const c = await this.pool.connect();
      try {
        await c.query('BEGIN');
        const r = await fn(c);
        await c.query('COMMIT');
        return r;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        c.release();
      }
    });
  }

  private q<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[], c?: Client) {
    // named statements are prepared once per connection
    return (c ?? this.pool).query<R>({ name, text, values });
  }

  async createKey(input: { id: string; name: string; prefix: string; hash: Buffer; credits: number }) {
    const r = await this.pool.query<KeyRow>(
      `WITH k AS (
         INSERT INTO api_keys (id, name, prefix, key_hash, balance) VALUES ($1, $2, $3, $4, $5)
         RETURNING ${KEY_COLUMNS}
       ),
       g AS (
         INSERT INTO ledger (key_id, kind, amount, note)
         SELECT id, 'grant', balance, 'initial credits' FROM k WHERE balance > 0
       )
       SELECT * FROM k`,
      [input.id, input.name, input.prefix, input.hash, input.credits],
    );
    return toRecord(r.rows[0]!);
  }

  async findKeyByHash(hash: Buffer) {
    const r = await this.q<KeyRow>('key_by_hash', `SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`, [
      hash,
    ]);
    return r.rows[0] ? toRecord(r.rows[0]) : null;
  }

  async listKeys() {
    const r = await this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
    return r.rows.map(toBalance);
  }

  async getKey(id: string) {
    const r = await this.q<KeyRow>('key_by_id', `SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`, [id]);
    return r.rows[0] ? toBalance(r.rows[0]) : null;
  }

  async countKeys() {
    return (await this.pool.query<{ n: number }>('SELECT COUNT(*)::bigint AS n FROM api_keys')).rows[0]!.n;
  }

  async revokeKey(id: string) {
    const r = await this.pool.query(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, clock_timestamp()) WHERE id = $1',
      [id],
    );
    const found = (r.rowCount ?? 0) > 0;
    if (found) for (const l of this.revokeListeners) l(id);
    return found;
  }

  private readonly revokeListeners: Array<(keyId: string) => void> = [];
  onKeyRevoked(listener: (keyId: string) => void) {
    this.revokeListeners.push(listener);
  }

  async grant(id: string, amount: number, note?: string) {
    const r = await this.withRetry(() =>
      this.pool.query<KeyRow>(
        `WITH k AS (
           UPDATE api_keys SET balance = balance + $2::bigint WHERE id = $1 RETURNING ${KEY_COLUMNS}
         ),
         g AS (INSERT INTO ledger (key_id, kind, amount, note) SELECT id, 'grant', $2::bigint, $3 FROM k)
         SELECT * FROM k`,
        [id, amount, note ?? null],
      ),
    );
    return r.rows[0] ? toBalance(r.rows[0]) : null;
  }

  async entries(id: string, opts: { limit?: number; beforeSeq?: number } = {}): Promise<LedgerEntry[]> {
    const r = await this.pool.query<{
      seq: number;
      kind: 'grant' | 'debit';
      amount: number;
      request_id: string | null;
      client_request_id: string | null;
      route: string | null;
      note: string | null;
      created_at: Date;
      idempotent: boolean;
    }>(
      'SELECT seq, kind, amount, request_id, client_request_id, route, note, created_at, idem_record IS NOT NULL AS idempotent FROM ledger WHERE key_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3',
      [id, opts.beforeSeq ?? Number.MAX_SAFE_INTEGER, opts.limit ?? 100],
    );
    return r.rows.map((e) => ({
      seq: e.seq,
      kind: e.kind,
      amount: e.amount,
      requestId: e.request_id,
      clientRequestId: e.client_request_id,
      route: e.route,
      note: e.note,
      createdAt: e.created_at,
      idempotent: e.idempotent,
    }));
  }

  async usage(keyId: string, fromDay: number, toDay: number): Promise<UsageRow[]> {
    const r = await this.q<UsageRow>(
      'usage',
      `SELECT day, NULLIF(route, '') AS route, kind, amount, entries AS count FROM ledger_daily
       WHERE key_id = $1 AND day >= $2 AND day <= $3 ORDER BY day, route, kind`,
      [keyId, fromDay, toDay],
    );
    return r.rows;
  }

  async totals(keyId: string) {
    const t = { granted: 0, spent: 0, debits: 0 };
    const r = await this.q<{ kind: string; amount: number; n: number }>(
      'totals',
      'SELECT kind, SUM(amount)::bigint AS amount, SUM(entries)::bigint AS n FROM ledger_daily WHERE key_id = $1 GROUP BY kind',
      [keyId],
    );
    for (const row of r.rows) {
      if (row.kind === 'grant') t.granted = row.amount;
      else {
        t.spent = row.amount;
        t.debits = row.n;
      }
    }
    return t;
  }

  async usageByKey(fromDay: number, toDay: number): Promise<KeyUsage[]> {
    const r = await this.pool.query<KeyUsage>(
      `SELECT k.id AS "keyId", COALESCE(SUM(d.amount), 0)::bigint AS spent, COALESCE(SUM(d.entries), 0)::bigint AS calls
       FROM api_keys k
       LEFT JOIN ledger_daily d ON d.key_id = k.id AND d.kind = 'debit' AND d.day >= $1 AND d.day <= $2
       GROUP BY k.id ORDER BY k.created_at, k.id`,
      [fromDay, toDay],
    );
    return r.rows;
  }

  async available(keyId: string) {
    const r = await this.q<{ a: number }>(
      'available',
      'SELECT balance - held AS a FROM api_keys WHERE id = $1',
      [keyId],
    );
    return r.rows[0]?.a ?? 0;
  }

  /** a debit without an Idempotency-Key (nothing to fence) */
  private async debit(c: Client | undefined, req: ChargeRequest): Promise<ChargeOutcome | null> {
    const r = await this.q<{ n: number; amount: number; balance: number }>(
      'charge',
      CHARGE,
      [
        req.keyId,
        req.price.base,
        req.price.perItem,
        req.items,
        req.minItems,
        req.requestId,
        req.route,
        req.clientRequestId ?? null,
      ],
      c,
    );
    const row = r.rows[0];
    return row ? { items: row.n, amount: row.amount, balance: row.balance } : null;
  }

  /** a call with an Idempotency-Key on its own: gleaner_batch_fenced with one row, in a
   *  transaction with its stored response */
  private async fencedAlone(op: Pick<Queued, 'row' | 'finish'>): Promise<unknown> {
    return this.tx(async (c) => (await this.batchIn(c, [op]))[0]);
  }

  private batchRow(
    kind: BatchRow['kind'],
    req: {
      keyId: string;
      requestId: string;
      route: string;
      price: Price;
      minItems: number;
      clientRequestId?: string;
      idempotency?: IdempotencyLease;
    },
    want: number,
    hold: { holdId: string; ttlMs: number | null } | null = null,
  ): BatchRow {
    return {
      kind,
      keyId: req.keyId,
      base: req.price.base,
      perItem: req.price.perItem,
      want,
      min: req.minItems,
      requestId: req.requestId,
      route: req.route,
      holdId: hold?.holdId ?? null,
      ttlMs: hold?.ttlMs ?? null,
      clientRequestId: req.clientRequestId ?? null,
      idempotency: req.idempotency
        ? {
            keyId: req.idempotency.keyId,
            key: req.idempotency.key,
            record: req.idempotency.record,
            generation: req.idempotency.generation,
          }
        : null,
    };
  }

  /** a debit's outcome in a batch, and the stored response to write with it */
  private finishDebit(
    out: BatchOutcome,
    idempotency: ChargeRequest['idempotency'],
  ): { value: ChargeResult; stored?: StoredRow } {
    if (out.fenced) return { value: { ok: false, fenced: true } };
    if (out.n === null || out.amount === null || out.balance === null) return { value: { ok: false } };
    const outcome: ChargeOutcome = { items: out.n, amount: out.amount, balance: out.balance };
    if (!idempotency) return { value: { ok: true, ...outcome } };
    const stored = idempotency.render(outcome);
    return {
      value: { ok: true, ...outcome, stored },
      stored: {
        lease: idempotency,
        status: stored.status,
        headers: JSON.stringify(stored.headers),
        body: stored.body,
      },
    };
  }

  async charge(req: ChargeRequest): Promise<ChargeResult> {
    const op = {
      row: this.batchRow('charge', req, req.items),
      finish: (out: BatchOutcome) => this.finishDebit(out, req.idempotency),
    };
    return this.enqueue({
      ...op,
      stores: req.idempotency !== undefined,
      alone: () => (req.idempotency ? this.fencedAlone(op) : this.chargeAlone(req)),
    });
  }

  /** one statement, one implicit transaction */
  private async chargeAlone(req: ChargeRequest): Promise<ChargeResult> {
    const outcome = await this.withRetry(() => this.debit(undefined, req));
    return outcome ? { ok: true, ...outcome } : { ok: false };
  }

  async hold(req: HoldRequest): Promise<HoldResult> {
    const holdId = `hold_${randomUUID().replaceAll('-', '')}`;
    return this.enqueue({
      row: this.batchRow('hold', req, req.maxItems, { holdId, ttlMs: req.ttlMs }),
      stores: false,
      finish: (out) => ({
        value:
          out.n === null || out.amount === null
            ? { ok: false }
            : { ok: true, holdId, amount: out.amount, items: out.n },
      }),
      alone: () => this.holdAlone(req, holdId),
    });
  }

  private async holdAlone(req: HoldRequest, holdId: string): Promise<HoldResult> {
    const r = await this.withRetry(() =>
      this.q<{ n: number; amount: number }>('hold', HOLD, [
        req.keyId,
        req.price.base,
        req.price.perItem,
        req.maxItems,
        req.minItems,
        holdId,
        req.requestId,
        req.route,
        req.ttlMs,
      ]),
    );
    const row = r.rows[0];
    return row ? { ok: true, holdId, amount: row.amount, items: row.n } : { ok: false };
  }

  async settle(req: SettleRequest): Promise<ChargeResult> {
    const op = {
      row: this.batchRow('settle', req, req.items, { holdId: req.holdId, ttlMs: null }),
      finish: (out: BatchOutcome) => this.finishDebit(out, req.idempotency),
    };
    return this.enqueue({
      ...op,
      stores: req.idempotency !== undefined,
      alone: () => (req.idempotency ? this.fencedAlone(op) : this.settleAlone(req)),
    });
  }

  private async settleAlone(req: SettleRequest): Promise<ChargeResult> {
    return this.tx(async (c) => {
      await this.q('close_hold', CLOSE_HOLD, [req.holdId, 'settled'], c);
      // A hold that expired meanwhile no longer reserves anything: the debit is then conditional
      // on the balance like any one-step charge.
      const outcome = await this.debit(c, req);
      return outcome ? { ok: true, ...outcome } : { ok: false };
    });
  }

  async release(holdId: string) {
    await this.withRetry(() => this.q('close_hold', CLOSE_HOLD, [holdId, 'released']));
  }

  async expireHolds(now?: Date) {
    const r = await this.withRetry(() => this.q<{ n: number }>('expire', EXPIRE, [now ?? null]));
    return r.rows[0]?.n ?? 0;
  }

  async idempotencyBegin(
    ref: IdempotencyRef & { fingerprint: string; leaseMs: number; ttlMs: number },
  ): Promise<IdempotencyBegin> {
    const { keyId, key } = ref;
    for (let attempt = 0; attempt < 5; attempt++) {
      const record = randomBytes(12).toString('hex');
      const ins = await this.withRetry(() =>
        this.q<{ record_id: string; generation: number }>('idem_begin', IDEM_BEGIN, [
          keyId,
          key,
          ref.fingerprint,
          ref.leaseMs,
          ref.ttlMs,
          record,
        ]),
      );
      const won = ins.rows[0];
      if (won)
        return { state: 'new', lease: { keyId, key, record: won.record_id, generation: won.generation } };
      const r = await this.q<{
        fingerprint: string;
        state: 'running' | 'done';
        status: number | null;
        headers: Record<string, string> | null;
        body: string | null;
      }>(
        'idem_get',
        'SELECT fingerprint, state, status, headers, body FROM idempotency WHERE key_id = $1 AND idem_key = $2',
        [ref.keyId, ref.key],
      );
      const row = r.rows[0];
      // abandoned between the two statements: try to take it again
      if (!row) continue;
      if (row.fingerprint !== ref.fingerprint) return { state: 'mismatch' };
      if (row.state === 'done')
        return {
          state: 'replay',
          response: { status: row.status ?? 200, headers: row.headers ?? {}, body: row.body ?? '' },
        };
      return { state: 'in_progress' };
    }
    return { state: 'in_progress' };
  }

  async idempotencyAbandon(lease: IdempotencyLease) {
    await this.q(
      'idem_abandon',
      "DELETE FROM idempotency WHERE key_id = $1 AND idem_key = $2 AND record_id = $3 AND generation = $4 AND state = 'running'",
      [lease.keyId, lease.key, lease.record, lease.generation],
    );
  }

  async purgeIdempotency(now?: Date) {
    const r = await this.pool.query(
      'DELETE FROM idempotency WHERE expires_at < COALESCE($1::timestamptz, clock_timestamp())',
      [now ?? null],
    );
    return r.rowCount ?? 0;
  }

  async reconcile(): Promise<ReconcileReport> {
    const c = await this.pool.connect();
    try {
      // one snapshot: every figure below is of the same instant
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const keys = (
        await c.query<{ id: string; balance: number; held: number }>(
          'SELECT id, balance, held FROM api_keys ORDER BY id',
        )
      ).rows;
      // grants and debits per key, of the journal or of its usage rollup
      const sumsOf = async (table: 'ledger' | 'ledger_daily') =>
        new Map(
          (
            await c.query<{ key_id: string; grants: number; debits: number }>(
              `SELECT key_id,
                 SUM(CASE WHEN kind = 'grant' THEN amount ELSE 0 END)::bigint AS grants,
                 SUM(CASE WHEN kind = 'debit' THEN amount ELSE 0 END)::bigint AS debits
               FROM ${table} GROUP BY key_id`,
            )
          ).rows.map((r) => [r.key_id, r]),
        );
      const sums = await sumsOf('ledger');
      const held = new Map(
        (
          await c.query<{ key_id: string; held: number; n: number }>(
            "SELECT key_id, SUM(amount)::bigint AS held, COUNT(*)::bigint AS n FROM holds WHERE state = 'open' GROUP BY key_id",
          )
        ).rows.map((r) => [r.key_id, r]),
      );
      const entries = (await c.query<{ n: number }>('SELECT COUNT(*)::bigint AS n FROM ledger')).rows[0]!.n;
      const orphans = (
        await c.query<{ key_id: string }>(
          'SELECT DISTINCT key_id FROM ledger WHERE key_id NOT IN (SELECT id FROM api_keys)',
        )
      ).rows;
      const doubled = (
        await c.query<{ key_id: string; idem_record: string; n: number }>(
          `SELECT key_id, idem_record, COUNT(*)::bigint AS n FROM ledger
           WHERE kind = 'debit' AND idem_record IS NOT NULL
           GROUP BY key_id, idem_record HAVING COUNT(*) > 1`,
        )
      ).rows;
      const rollup = await sumsOf('ledger_daily');
      await c.query('COMMIT');
      return reconcileReport({ keys, sums, held, entries, orphans, doubled, rollup });
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  async ping() {
    await this.pool.query('SELECT 1');
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    // the queued and running writes finish first
    while (this.writing > 0 || this.queue.length > 0) await new Promise((r) => setTimeout(r, 5));
    await this.pool.end();
  }
}

export function createPool(url: string, poolSize = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types });
  // an idle connection that breaks (database restart) must not take the process down; the next
  // query opens a new one
  pool.on('error', () => {});
  return pool;
}

/** Runs the migrations alone (npm run migrate); returns the versions applied. */
export async function migratePostgres(url: string): Promise<number[]> {
  const pool = createPool(url, 1);
  try {
    return await migrate(pool);
  } finally {
    await pool.end();
  }
}

export async function openPostgresLedger(url: string, opts: PostgresLedgerOptions = {}): Promise<Ledger> {
  const pool = createPool(url, opts.poolSize ?? 10);
  try {
    if (opts.migrate !== false) await migrate(pool);
  } catch (e) {
    await pool.end();
    throw e;
  }
  return new PostgresLedger(pool);
}
