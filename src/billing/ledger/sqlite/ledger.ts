// The embedded ledger on one SQLite file (better-sqlite3). Its schema is in migrations.ts, its
// statements in sql.ts. Durability: a commit is on disk before the call that waited for it
// returns (wal.ts fsyncs the WAL off the event loop). Speed: the writes queued in one event-loop
// turn run in one BEGIN IMMEDIATE transaction (group commit, ../batcher.ts); inside it, plain
// charges are decided on the key's row as read once and written together (see chargeDeferred).
// Several processes may share the file: BEGIN IMMEDIATE serialises writers and every balance
// check happens inside the write transaction that debits, and so does the check that an
// Idempotency-Key call still owns its record (the fencing of a run a retry took over).
// The file is created readable by its owner only (tenants' stored replies are in it); SQLite
// gives its -wal and -shm files the mode of the database file.
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database, { SqliteError } from 'better-sqlite3';
import { affordableItems, costOf } from '../../pricing.js';
import { Batcher } from '../batcher.js';
import type {
  ChargeRequest,
  ChargeResult,
  HoldRequest,
  HoldResult,
  IdempotencyBegin,
  IdempotencyLease,
  IdempotencyRef,
  KeyUsage,
  Ledger,
  LedgerEntry,
  ReconcileReport,
  SettleRequest,
  StoredResponse,
  UsageRow,
} from '../interface.js';
import { type ReconcileRows, reconcileReport } from '../reconcile.js';
import { toBalance, toEntry, toRecord, toTotals } from '../rows.js';
import { DAY_MS, migrate } from './migrations.js';
import { DEBIT_COLUMNS, DEBIT_ROWS, type DebitRow, prepare } from './sql.js';
import { WalSync } from './wal.js';

/** a new Idempotency-Key record's id */
const newRecordId = () => randomBytes(12).toString('hex');

/** the charges of the running batch, decided and not written yet (see writeDeferred) */
interface Deferred {
  funds: Map<string, { balance: number; held: number; spent: number }>;
  /** their journal rows' values one after the other (DEBIT_COLUMNS per row), as the INSERT of
   *  several rows binds them: no array per row to build and flatten */
  values: Array<DebitRow[number]>;
}

/** one queued write: runs inside the batch's transaction */
type Write = () => unknown;

/** how long a statement waits for another process's lock on the file */
const BUSY_TIMEOUT_MS = 10_000;

/** Switches the file to WAL. When several processes open a new file at the same moment, SQLite
 *  can refuse the switch with SQLITE_BUSY at once, without waiting for the lock (it avoids a
 *  deadlock between connections upgrading their locks), and the process would fail to start: the
 *  switch is retried until BUSY_TIMEOUT_MS has passed. */
function enableWal(db: Database.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (e) {
      if (!(e instanceof SqliteError && e.code.startsWith('SQLITE_BUSY')) || Date.now() >= deadline) throw e;
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}

export class SqliteLedger implements Ledger {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly s: ReturnType<typeof prepare>;
  private readonly batcher: Batcher<Write>;
  /** null: in memory, nothing to make durable */
  private readonly wal: WalSync | null;
  private closed = false;
  private deferred: Deferred | null = null;

  constructor(path: string) {
    const inMemory = path === ':memory:' || path === '';
    if (!inMemory) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      // created here, owner-only, before SQLite opens it (an existing file keeps its mode)
      closeSync(openSync(path, 'a', 0o600));
    }
    this.db = new Database(path);
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    enableWal(this.db);
    // the commit's fsync is done by WalSync, off the event loop
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
    this.s = prepare(this.db);
    const wal = inMemory ? null : new WalSync(`${path}-wal`);
    this.wal = wal;
    // better-sqlite3 is synchronous: a write runs to its end before the next one is queued, so
    // the writes gather for one event-loop turn
    this.batcher = new Batcher<Write>(
      {
        together: (writes) => this.together(writes),
        alone: (write) => this.alone(write),
        durable: wal ? () => wal.durable() : undefined,
      },
      { gather: 'turn' },
    );
  }

  /** Queues a write; every write queued in the same turn commits in one transaction. */
  private write<T>(fn: () => T, deferrable = false): Promise<T> {
    // anything but a plain charge reads or writes what the charges before it in the batch
    // changed: their deferred writes go first
    return this.batcher.submit<T>(
      deferrable
        ? fn
        : () => {
            this.writeDeferred();
            return fn();
          },
    );
  }

  /** the batch in one transaction; null when one write failed (the transaction is then rolled
   *  back, and each write runs again on its own) */
  private together(writes: Write[]): unknown[] | null {
    this.s.begin.run();
    const values: unknown[] = [];
    this.deferred = { funds: new Map(), values: [] };
    try {
      for (const w of writes) values.push(w());
      this.writeDeferred();
    } catch {
      this.deferred = null;
      this.rollback();
      return null;
    }
    this.deferred = null;
    this.commit();
    return values;
  }

  /** one write in its own transaction */
  private alone(write: Write): unknown {
    this.s.begin.run();
    let value: unknown;
    try {
      value = write();
    } catch (error) {
      this.rollback();
      throw error;
    }
    this.commit();
    return value;
  }

  private commit(): void {
    try {
      this.s.commit.run();
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  private rollback(): void {
    try {
      this.s.rollback.run();
    } catch {
      // already rolled back by SQLite
    }
  }

  /** Writes the charges decided so far in the running batch: one conditional update per key
   *  (the CHECK constraints stand behind it) and their journal rows, in the order decided. */
  private writeDeferred(): void {
    const d = this.deferred;
    if (d === null || d.values.length === 0) {
      d?.funds.clear();
      return;
    }
    for (const [keyId, f] of d.funds) {
      if (f.spent > 0 && this.s.debit.run(f.spent, keyId, f.spent).changes !== 1)
        throw new Error(`the deferred debit of ${keyId} did not apply`);
    }
    this.journalDebits(d.values);
    d.funds.clear();
    d.values = [];
  }

  /** Appends debit rows to the journal (a DebitRow's values per row, one after the other) and
   *  adds them to the daily rollup: one upsert per key, day and route, not one per row. */
  private journalDebits(values: Array<DebitRow[number]>): void {
    const chunk = DEBIT_ROWS * DEBIT_COLUMNS;
    if (values.length <= chunk) this.s.insertDebits(values.length / DEBIT_COLUMNS).run(values);
    else
      for (let i = 0; i < values.length; i += chunk) {
        const part = values.slice(i, i + chunk);
        this.s.insertDebits(part.length / DEBIT_COLUMNS).run(part);
      }
    // rows of one group follow each other in a batch as a rule: sum runs of equal groups, and
    // merge runs of a group seen before
    const sums = new Map<string, [keyId: string, day: number, route: string, amount: number, rows: number]>();
    let run: [string, number, string, number, number] | undefined;
    for (let i = 0; i < values.length; i += DEBIT_COLUMNS) {
      const keyId = values[i] as string;
      const amount = values[i + 1] as number;
      const route = (values[i + 3] as string | null) ?? '';
      const day = Math.floor((values[i + 4] as number) / DAY_MS);
      if (run !== undefined && run[0] === keyId && run[1] === day && run[2] === route) {
        run[3] += amount;
        run[4]++;
        continue;
      }
      const id = `${keyId}\n${day}\n${route}`;
      run = sums.get(id);
      if (run === undefined) {
        run = [keyId, day, route, amount, 1];
        sums.set(id, run);
      } else {
        run[3] += amount;
        run[4]++;
      }
    }
    for (const [keyId, day, route, amount, rows] of sums.values())
      this.s.addDaily.run(keyId, day, route, 'debit', amount, rows);
  }

  /** Appends a grant to the journal and to the daily rollup. */
  private journalGrant(keyId: string, amount: number, note: string | null, at: number): void {
    this.s.insertGrant.run(keyId, amount, note, at);
    this.s.addDaily.run(keyId, Math.floor(at / DAY_MS), '', 'grant', amount, 1);
  }

  async createKey(input: { id: string; name: string; prefix: string; hash: Buffer; credits: number }) {
    return this.write(() => {
      const now = Date.now();
      this.s.insertKey.run(input.id, input.name, input.prefix, input.hash, input.credits, now);
      if (input.credits > 0) this.journalGrant(input.id, input.credits, 'initial credits', now);
      return toRecord(this.s.keyById.get(input.id)!);
    });
  }

  async findKeyByHash(hash: Buffer) {
    const r = this.s.keyByHash.get(hash);
    return r ? toRecord(r) : null;
  }

  async listKeys() {
    return this.s.listKeys.all().map(toBalance);
  }

  async getKey(id: string) {
    const r = this.s.keyById.get(id);
    return r ? toBalance(r) : null;
  }

  async countKeys() {
    return this.s.countKeys.get() ?? 0;
  }

  async revokeKey(id: string) {
    const found = await this.write(() => this.s.revokeKey.run(Date.now(), id).changes > 0);
    if (found) for (const l of this.revokeListeners) l(id);
    return found;
  }

  private readonly revokeListeners: Array<(keyId: string) => void> = [];
  onKeyRevoked(listener: (keyId: string) => void) {
    this.revokeListeners.push(listener);
  }

  async grant(id: string, amount: number, note?: string) {
    return this.write(() => {
      if (!this.s.keyById.get(id)) return null;
      this.s.credit.run(amount, id);
      this.journalGrant(id, amount, note ?? null, Date.now());
      return toBalance(this.s.keyById.get(id)!);
    });
  }

  async entries(id: string, opts: { limit?: number; beforeSeq?: number } = {}): Promise<LedgerEntry[]> {
    return this.s.entries.all(id, opts.beforeSeq ?? Number.MAX_SAFE_INTEGER, opts.limit ?? 100).map(toEntry);
  }

  async usage(keyId: string, fromDay: number, toDay: number): Promise<UsageRow[]> {
    return this.s.usage.all(keyId, fromDay, toDay);
  }

  async totals(keyId: string) {
    return toTotals(this.s.totals.all(keyId));
  }

  async usageByKey(fromDay: number, toDay: number): Promise<KeyUsage[]> {
    return this.s.usageByKey.all(fromDay, toDay);
  }

  async available(keyId: string) {
    return this.s.availableOf.get(keyId) ?? 0;
  }

  /** whether a call still owns its Idempotency-Key record (no retry took it over); read inside
   *  the write transaction that debits, so no take-over can come between */
  private owns(lease: IdempotencyLease | undefined): boolean {
    return (
      lease === undefined ||
      this.s.idemOwner.get(lease.keyId, lease.key, lease.record, lease.generation) !== undefined
    );
  }

  /** appends the journal row of a debit (a DebitRow's values, in its order) to `values` */
  private debitValues(values: Array<DebitRow[number]>, req: ChargeRequest, amount: number): void {
    const idem = req.idempotency;
    values.push(
      req.keyId,
      amount,
      req.requestId,
      req.route,
      Date.now(),
      req.clientRequestId ?? null,
      idem?.record ?? null,
      idem?.generation ?? null,
    );
  }

  /** the debit part of charge and settle; runs inside a write transaction, after owns() */
  private debitIn(req: ChargeRequest): ChargeResult {
    const { keyId, price, items, minItems, idempotency } = req;
    const funds = this.s.fundsOf.get(keyId);
    if (!funds) return { ok: false };
    const [balance, held] = funds;
    const k = affordableItems(price, balance - held, items);
    if (k === null || k < minItems) return { ok: false };
    const amount = costOf(price, k);
    if (amount > 0) {
      if (this.s.debit.run(amount, keyId, amount).changes !== 1) return { ok: false };
      const row: Array<DebitRow[number]> = [];
      this.debitValues(row, req, amount);
      this.journalDebits(row);
    }
    return this.debited(k, amount, balance - amount, idempotency);
  }

  private debited(
    items: number,
    amount: number,
    balance: number,
    idempotency: ChargeRequest['idempotency'],
  ): ChargeResult {
    const outcome = { items, amount, balance };
    if (!idempotency) return { ok: true, ...outcome };
    const stored = idempotency.render(outcome);
    this.s.idemDone.run(
      stored.status,
      JSON.stringify(stored.headers),
      stored.body,
      idempotency.keyId,
      idempotency.key,
      idempotency.record,
      idempotency.generation,
    );
    return { ok: true, ...outcome, stored };
  }

  async charge(req: ChargeRequest): Promise<ChargeResult> {
    return this.write((): ChargeResult => {
      if (!this.owns(req.idempotency)) return { ok: false, fenced: true };
      if (this.deferred === null) return this.debitIn(req);
      return this.chargeDeferred(req, this.deferred);
    }, true);
  }

  /** A charge in a batch: decided on the key's row as read once in the batch's transaction (the
   *  write lock is held from its BEGIN IMMEDIATE, so no other writer can change it meanwhile),
   *  less what the batch's charges before it spent; written with them by writeDeferred(). */
  private chargeDeferred(req: ChargeRequest, d: Deferred): ChargeResult {
    let f = d.funds.get(req.keyId);
    if (f === undefined) {
      const row = this.s.fundsOf.get(req.keyId);
      if (!row) return { ok: false };
      f = { balance: row[0], held: row[1], spent: 0 };
      d.funds.set(req.keyId, f);
    }
    const k = affordableItems(req.price, f.balance - f.spent - f.held, req.items);
    if (k === null || k < req.minItems) return { ok: false };
    const amount = costOf(req.price, k);
    if (amount > 0) {
      f.spent += amount;
      this.debitValues(d.values, req, amount);
    }
    return this.debited(k, amount, f.balance - f.spent, req.idempotency);
  }

  async hold(req: HoldRequest): Promise<HoldResult> {
    return this.write((): HoldResult => {
      const key = this.s.keyById.get(req.keyId);
      if (!key) return { ok: false };
      const k = affordableItems(req.price, key.balance - key.held, req.maxItems);
      if (k === null || k < req.minItems) return { ok: false };
      const amount = costOf(req.price, k);
      if (this.s.addHeld.run(amount, req.keyId, amount).changes !== 1) return { ok: false };
      const holdId = `hold_${randomUUID().replaceAll('-', '')}`;
      const now = Date.now();
      this.s.insertHold.run(holdId, req.keyId, amount, req.requestId, req.route, now, now + req.ttlMs);
      return { ok: true, holdId, amount, items: k };
    });
  }

  private closeHoldIn(holdId: string, state: 'settled' | 'released' | 'expired'): void {
    const h = this.s.holdById.get(holdId);
    if (h?.state !== 'open') return;
    if (this.s.closeHold.run(state, Date.now(), holdId).changes === 1) this.s.subHeld.run(h.amount, h.key_id);
  }

  async settle(req: SettleRequest): Promise<ChargeResult> {
    return this.write((): ChargeResult => {
      if (!this.owns(req.idempotency)) {
        // a retry took the call over: its work is discarded, and so is its hold
        this.closeHoldIn(req.holdId, 'released');
        return { ok: false, fenced: true };
      }
      this.closeHoldIn(req.holdId, 'settled');
      // A hold that expired meanwhile no longer reserves anything: the debit below is then
      // conditional on the balance like any one-step charge.
      return this.debitIn(req);
    });
  }

  async release(holdId: string) {
    await this.write(() => this.closeHoldIn(holdId, 'released'));
  }

  async expireHolds(now = new Date()) {
    return this.write(() => {
      let n = 0;
      for (const h of this.s.expiredHolds.all(now.getTime())) {
        if (this.s.closeHold.run('expired', now.getTime(), h.id).changes === 1) {
          this.s.subHeld.run(h.amount, h.key_id);
          n++;
        }
      }
      return n;
    });
  }

  async idempotencyBegin(
    ref: IdempotencyRef & { fingerprint: string; leaseMs: number; ttlMs: number },
  ): Promise<IdempotencyBegin> {
    return this.write((): IdempotencyBegin => {
      const now = Date.now();
      const { keyId, key } = ref;
      let row = this.s.idemGet.get(keyId, key);
      // an expired record is replaced by a new one (a new id), its generation still counting up
      const generation = row ? row.generation + 1 : 1;
      if (row && row.expires_at < now) {
        this.s.idemDelete.run(keyId, key);
        row = undefined;
      }
      if (!row) {
        const record = newRecordId();
        this.s.idemInsert.run(
          keyId,
          key,
          ref.fingerprint,
          now + ref.leaseMs,
          now,
          now + ref.ttlMs,
          record,
          generation,
        );
        return { state: 'new', lease: { keyId, key, record, generation } };
      }
      if (row.fingerprint !== ref.fingerprint) return { state: 'mismatch' };
      if (row.state === 'done') {
        const response: StoredResponse = {
          status: row.status ?? 200,
          headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
          body: row.body ?? '',
        };
        return { state: 'replay', response };
      }
      if (row.locked_until < now) {
        // the first attempt died or runs too long: this retry takes the record over, and the
        // bumped generation fences the first attempt off (its debit no longer applies)
        this.s.idemTakeOver.run(now + ref.leaseMs, keyId, key);
        return { state: 'new', lease: { keyId, key, record: row.record_id, generation } };
      }
      return { state: 'in_progress' };
    });
  }

  async idempotencyAbandon(lease: IdempotencyLease) {
    await this.write(() => this.s.idemAbandon.run(lease.keyId, lease.key, lease.record, lease.generation));
  }

  async purgeIdempotency(now = new Date()) {
    return this.write(() => this.s.idemPurge.run(now.getTime()).changes);
  }

  async reconcile(): Promise<ReconcileReport> {
    // one read transaction: every figure is of the same instant
    const read = this.db.transaction(
      () =>
        Object.fromEntries(
          Object.entries(this.s.reconcile).map(([name, st]) => [name, st.all()]),
        ) as unknown as ReconcileRows,
    );
    return reconcileReport(read());
  }

  async ping() {
    this.s.ping.get();
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    // the queued writes commit, and their callers hear of it, before the file closes
    await this.batcher.close();
    this.db.close();
    this.wal?.close();
  }
}
