// The PostgreSQL ledger's side of group commit (../batcher.ts decides when a batch runs): the
// charges, holds and settles of one batch go to one call of the gleaner_batch_fenced function
// (migration 4), which does them in the order given (the batcher sorts them by key, so that two
// batches lock rows in the same order), each deciding on the row it locks exactly as the
// single-call statements do and each Idempotency-Key call only while its lease still owns its
// record; then one statement stores their Idempotency-Key responses, then COMMIT. If a statement
// fails, the database rolls the whole batch back and each call runs again on its own, so one
// failing call never undoes or fails the others.
import pg from 'pg';
import type { Price } from '../../pricing.js';
import type { ChargeOutcome, ChargeRequest, ChargeResult, IdempotencyLease } from '../interface.js';
import { BATCH, STORE_RESPONSES } from './sql.js';

/** one call of a batch: its row of gleaner_batch_fenced's arguments */
export interface BatchRow {
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

/** one call's row of gleaner_batch_fenced's answer */
export interface BatchOutcome {
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

/** a call as the batch runs it */
export interface Batched {
  row: BatchRow;
  /** reads its outcome from its row of gleaner_batch_fenced's answer */
  finish(out: BatchOutcome): { value: unknown; stored?: StoredRow };
}

/** one charge, hold or settle queued for the batcher */
export interface BatchWrite extends Batched {
  /** whether finish() may give a response to store (an Idempotency-Key call) */
  stores: boolean;
  /** the call on its own, in its own transaction (alone, or when its batch failed) */
  alone(): Promise<unknown>;
}

/** an error the server reported for a statement: the transaction was rolled back, the
 *  connection is still usable */
const statementError = (e: unknown) => e instanceof pg.DatabaseError && e.severity === 'ERROR';

/** Several calls in one transaction; null when a statement failed and nothing was committed,
 *  so that each call runs again on its own. Throws when the batch could not start or the
 *  connection broke (whether it committed is then unknown). */
export async function runTogether(pool: pg.Pool, batch: BatchWrite[]): Promise<unknown[] | null> {
  const c = await pool.connect();
  let values: unknown[];
  // without responses to store, the batch is one statement: its own implicit transaction,
  // committed (WAL flushed) before it answers, in one round trip instead of three
  const explicit = batch.some((op) => op.stores);
  try {
    if (explicit) await c.query('BEGIN');
    values = await runBatch(c, batch);
    if (explicit) await c.query('COMMIT');
  } catch (e) {
    if (!statementError(e)) {
      // the connection broke (or this code did): whether the batch committed is unknown, so
      // no call may run again; the connection is closed, which rolls back what did not commit
      c.release(e instanceof Error ? e : true);
      throw e;
    }
    if (explicit) await c.query('ROLLBACK').catch(() => {});
    c.release();
    return null;
  }
  c.release();
  return values;
}

/** Runs calls in one gleaner_batch_fenced call and stores their Idempotency-Key responses, on
 *  `c` (in a transaction when a response is to be stored); returns their values in order. */
export async function runBatch(c: pg.PoolClient, batch: Batched[]): Promise<unknown[]> {
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
  if (r.rows.length !== batch.length) throw new Error('gleaner_batch_fenced answered a row count of its own');
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

export function batchRow(
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
export function finishDebit(
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
