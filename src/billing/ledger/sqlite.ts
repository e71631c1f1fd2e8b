// The embedded ledger on one SQLite file (better-sqlite3). Durability: a commit is on disk
// before the call that waited for it returns. SQLite commits into its WAL (synchronous=NORMAL:
// no fsync in the commit itself), and this class then fsyncs the WAL file on the libuv thread
// pool, resolving the commit's callers only once that fsync has completed; so the event loop
// never waits for the disk, and one fsync covers every commit made before it started.
// Checkpoints stay safe: with synchronous=NORMAL SQLite fsyncs the WAL before copying it into the
// database and the database after, and it rewrites the WAL only after a complete checkpoint.
// Speed: writes of concurrent requests are grouped into one BEGIN IMMEDIATE transaction
// (group commit); when one of them fails, the transaction is rolled back and each write runs
// again in its own transaction, so that one failing write does not undo the others.
// The journal's seq is its rowid, without AUTOINCREMENT: rows are never deleted (a trigger
// refuses it), so it only grows, and a commit writes one page less.
// Several processes may share the file: BEGIN IMMEDIATE serialises writers and every balance
// check happens inside the write transaction that debits, and so does the check that an
// Idempotency-Key call still owns its record (the fencing of a run a retry took over).
// The file is created readable by its owner only (tenants' stored replies are in it); SQLite
// gives its -wal and -shm files the mode of the database file.
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, fdatasync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { affordableItems, costOf } from '../pricing.js';
import type {
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
  StoredResponse,
  UsageRow,
} from './interface.js';
import { reconcileReport } from './reconcile.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash BLOB NOT NULL UNIQUE,
  balance INTEGER NOT NULL CHECK (balance >= 0),
  held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0 AND held <= balance),
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE TABLE IF NOT EXISTS ledger (
  seq INTEGER PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'debit')),
  amount INTEGER NOT NULL CHECK (amount > 0),
  request_id TEXT,
  route TEXT,
  note TEXT,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS ledger_key ON ledger(key_id, seq);
CREATE TRIGGER IF NOT EXISTS ledger_append_only_update BEFORE UPDATE ON ledger
  BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TRIGGER IF NOT EXISTS ledger_append_only_delete BEFORE DELETE ON ledger
  BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TABLE IF NOT EXISTS holds (
  id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  request_id TEXT,
  route TEXT,
  state TEXT NOT NULL CHECK (state IN ('open', 'settled', 'released', 'expired')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  closed_at INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS holds_open ON holds(state, expires_at);
CREATE TABLE IF NOT EXISTS idempotency (
  key_id TEXT NOT NULL,
  idem_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done')),
  locked_until INTEGER NOT NULL,
  status INTEGER,
  headers TEXT,
  body TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (key_id, idem_key)
) STRICT;
CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency(expires_at);
`;

const DAY_MS = 86_400_000;

/** Changes of the schema above, in order; PRAGMA user_version counts those a file has. They run
 *  on open, in the transaction that creates the schema, so an existing file is upgraded. */
const MIGRATIONS: readonly string[] = [
  // fencing of Idempotency-Key runs: the record's id (kept on take-over, new after expiry) and
  // its generation (bumped on take-over); each debit's journal row names the record it was for,
  // so reconcile sees a key debited twice; and the caller's X-Request-Id beside the server's
  `ALTER TABLE idempotency ADD COLUMN record_id TEXT NOT NULL DEFAULT '';
   UPDATE idempotency SET record_id = lower(hex(randomblob(12)));
   ALTER TABLE idempotency ADD COLUMN generation INTEGER NOT NULL DEFAULT 1;
   ALTER TABLE ledger ADD COLUMN client_request_id TEXT;
   ALTER TABLE ledger ADD COLUMN idem_record TEXT;
   ALTER TABLE ledger ADD COLUMN idem_generation INTEGER;`,
  // the journal summed per key, UTC day, route and kind, kept by a trigger in the transaction of
  // each journal row (the account API's usage and totals read it; reconcile checks it against
  // the journal); filled from the journal already there
  `CREATE TABLE ledger_daily (
     key_id TEXT NOT NULL,
     day INTEGER NOT NULL,
     route TEXT NOT NULL,
     kind TEXT NOT NULL,
     amount INTEGER NOT NULL,
     entries INTEGER NOT NULL,
     PRIMARY KEY (key_id, day, route, kind)
   ) STRICT, WITHOUT ROWID;
   INSERT INTO ledger_daily (key_id, day, route, kind, amount, entries)
     SELECT key_id, created_at / ${DAY_MS}, COALESCE(route, ''), kind, SUM(amount), COUNT(*)
     FROM ledger GROUP BY 1, 2, 3, 4;
   CREATE TRIGGER ledger_daily_add AFTER INSERT ON ledger BEGIN
     INSERT INTO ledger_daily (key_id, day, route, kind, amount, entries)
       VALUES (NEW.key_id, NEW.created_at / ${DAY_MS}, COALESCE(NEW.route, ''), NEW.kind, NEW.amount, 1)
       ON CONFLICT (key_id, day, route, kind)
       DO UPDATE SET amount = amount + excluded.amount, entries = entries + 1;
   END;`,
];

/** a new Idempotency-Key record's id */
const newRecordId = () => randomBytes(12).toString('hex');

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  balance: number;
  held: number;
  created_at: number;
  revoked_at: number | null;
}

function toRecord(r: KeyRow): KeyRecord {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdAt: new Date(r.created_at),
    revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at),
  };
}
function toBalance(r: KeyRow): KeyBalance {
  return { ...toRecord(r), balance: r.balance, held: r.held };
}

/** a debit's journal row: the columns of insertEntries() after its kind */
type DebitRow = [
  keyId: string,
  amount: number,
  requestId: string,
  route: string,
  createdAt: number,
  clientRequestId: string | null,
  idemRecord: string | null,
  idemGeneration: number | null,
];

/** the charges of the running batch, decided and not written yet (see writeDeferred) */
interface Deferred {
  funds: Map<string, { balance: number; held: number; spent: number }>;
  entries: DebitRow[];
}

/** journal rows per INSERT when the deferred charges are written */
const ENTRY_ROWS = 64;

interface Pending {
  fn: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** fsyncs of the WAL running at once (the libuv thread pool has 4 threads by default) */
const MAX_SYNCS = 3;

export class SqliteLedger implements Ledger {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private pending: Pending[] = [];
  private scheduled = false;
  private closed = false;
  private readonly s;
  private deferred: Deferred | null = null;
  /** the WAL file (null: in memory, nothing to make durable) */
  private readonly walPath: string | null;
  private walFd: number | null = null;
  /** committed batches waiting for an fsync that starts after their commit */
  private unsynced: Array<() => void> = [];
  private unsyncedFailed: Array<(e: unknown) => void> = [];
  /** fsyncs running now (on the libuv thread pool), and who waits for none to be running */
  private syncs = 0;
  private idle: Array<() => void> = [];

  constructor(path: string) {
    if (path !== ':memory:' && path !== '') {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      // created here, owner-only, before SQLite opens it (an existing file keeps its mode)
      closeSync(openSync(path, 'a', 0o600));
    }
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // the commit's fsync is done by syncWal() below, off the event loop
    this.db.pragma('synchronous = NORMAL');
    this.walPath = path === ':memory:' || path === '' ? null : `${path}-wal`;
    this.db.pragma('busy_timeout = 10000');
    this.db.pragma('foreign_keys = ON');
    this.migrate();
    const db = this.db;
    this.s = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      keyById: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?'),
      keyByHash: db.prepare<[Buffer], KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
      // the hot reads of a call: no blob (a Buffer each) and no row object
      availableOf: db
        .prepare<[string], number>('SELECT balance - held FROM api_keys WHERE id = ?')
        .pluck(true),
      fundsOf: db
        .prepare<[string], [number, number]>('SELECT balance, held FROM api_keys WHERE id = ?')
        .raw(true),
      insertKey: db.prepare(
        'INSERT INTO api_keys (id, name, prefix, key_hash, balance, held, created_at) VALUES (?, ?, ?, ?, ?, 0, ?)',
      ),
      insertGrant: db.prepare(
        "INSERT INTO ledger (key_id, kind, amount, request_id, route, note, created_at) VALUES (?, 'grant', ?, NULL, NULL, ?, ?)",
      ),
      debit: db.prepare('UPDATE api_keys SET balance = balance - ? WHERE id = ? AND balance - held >= ?'),
      credit: db.prepare('UPDATE api_keys SET balance = balance + ? WHERE id = ?'),
      addHeld: db.prepare('UPDATE api_keys SET held = held + ? WHERE id = ? AND balance - held >= ?'),
      subHeld: db.prepare('UPDATE api_keys SET held = held - ? WHERE id = ?'),
      insertHold: db.prepare(
        "INSERT INTO holds (id, key_id, amount, request_id, route, state, created_at, expires_at) VALUES (?, ?, ?, ?, ?, 'open', ?, ?)",
      ),
      holdById: db.prepare<[string], { id: string; key_id: string; amount: number; state: string }>(
        'SELECT id, key_id, amount, state FROM holds WHERE id = ?',
      ),
      closeHold: db.prepare("UPDATE holds SET state = ?, closed_at = ? WHERE id = ? AND state = 'open'"),
      expiredHolds: db.prepare<[number], { id: string; key_id: string; amount: number }>(
        "SELECT id, key_id, amount FROM holds WHERE state = 'open' AND expires_at < ? LIMIT 1000",
      ),
      idemGet: db.prepare<
        [string, string],
        {
          fingerprint: string;
          state: string;
          locked_until: number;
          status: number | null;
          headers: string | null;
          body: string | null;
          expires_at: number;
          record_id: string;
          generation: number;
        }
      >('SELECT * FROM idempotency WHERE key_id = ? AND idem_key = ?'),
      idemOwner: db
        .prepare<[string, string, string, number], number>(
          "SELECT 1 FROM idempotency WHERE key_id = ? AND idem_key = ? AND record_id = ? AND generation = ? AND state = 'running'",
        )
        .pluck(true),
      idemInsert: db.prepare(
        "INSERT INTO idempotency (key_id, idem_key, fingerprint, state, locked_until, created_at, expires_at, record_id, generation) VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?)",
      ),
      idemDelete: db.prepare('DELETE FROM idempotency WHERE key_id = ? AND idem_key = ?'),
      idemTakeOver: db.prepare(
        'UPDATE idempotency SET locked_until = ?, generation = generation + 1 WHERE key_id = ? AND idem_key = ?',
      ),
      idemDone: db.prepare(
        "UPDATE idempotency SET state = 'done', status = ?, headers = ?, body = ? WHERE key_id = ? AND idem_key = ? AND record_id = ? AND generation = ?",
      ),
      idemAbandon: db.prepare(
        "DELETE FROM idempotency WHERE key_id = ? AND idem_key = ? AND record_id = ? AND generation = ? AND state = 'running'",
      ),
      idemPurge: db.prepare('DELETE FROM idempotency WHERE expires_at < ?'),
    };
  }

  /** Creates the schema and applies the migrations a file lacks, in one transaction (several
   *  processes opening one file at once apply each migration once). */
  private migrate(): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.db.exec(SCHEMA);
      const version = this.db.pragma('user_version', { simple: true }) as number;
      for (let v = version; v < MIGRATIONS.length; v++) this.db.exec(MIGRATIONS[v]!);
      if (version < MIGRATIONS.length) this.db.pragma(`user_version = ${MIGRATIONS.length}`);
      this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    }
  }

  /** Queues a write; every write queued in the same tick commits in one transaction. */
  private write<T>(fn: () => T, deferrable = false): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the ledger is closed'));
    // anything but a plain charge reads or writes what the charges before it in the batch
    // changed: their deferred writes go first
    const run = deferrable
      ? fn
      : () => {
          this.writeDeferred();
          return fn();
        };
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ fn: run, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    let results: Outcome[];
    try {
      results = this.together(batch) ?? batch.map((p) => this.alone(p));
    } catch (error) {
      // BEGIN or COMMIT failed: nothing of the batch was written
      for (const p of batch) p.reject(error);
      return;
    }
    const settle = () =>
      batch.forEach((p, i) => {
        const r = results[i]!;
        if (r.ok) p.resolve(r.value);
        else p.reject(r.error);
      });
    if (this.walPath === null) {
      settle();
      return;
    }
    // durable before anyone hears of it
    this.unsynced.push(settle);
    this.unsyncedFailed.push((e) => {
      for (const p of batch) p.reject(e);
    });
    this.syncWal();
  }

  /** the whole batch in one transaction; null when one write failed (the transaction is then
   *  rolled back, and each write runs again on its own: one failure undoes none of the others) */
  private together(batch: Pending[]): Outcome[] | null {
    this.s.begin.run();
    const results: Outcome[] = [];
    this.deferred = { funds: new Map(), entries: [] };
    try {
      for (const p of batch) results.push({ ok: true, value: p.fn() });
      this.writeDeferred();
    } catch (error) {
      this.deferred = null;
      this.rollback();
      if (batch.length === 1) return [{ ok: false, error }];
      return null;
    }
    this.deferred = null;
    this.commit();
    return results;
  }

  /** Writes the charges decided so far in the running batch: one conditional update per key
   *  (the CHECK constraints stand behind it) and their journal rows, in the order decided. */
  private writeDeferred(): void {
    const d = this.deferred;
    if (d === null || d.entries.length === 0) {
      d?.funds.clear();
      return;
    }
    for (const [keyId, f] of d.funds) {
      if (f.spent > 0 && this.s.debit.run(f.spent, keyId, f.spent).changes !== 1)
        throw new Error(`the deferred debit of ${keyId} did not apply`);
    }
    for (let i = 0; i < d.entries.length; i += ENTRY_ROWS) {
      const rows = d.entries.slice(i, i + ENTRY_ROWS);
      this.insertEntries(rows.length).run(rows.flat());
    }
    d.funds.clear();
    d.entries = [];
  }

  private readonly entryInserts = new Map<number, Database.Statement>();
  /** INSERT of `n` debit rows of the journal at once */
  private insertEntries(n: number): Database.Statement {
    let st = this.entryInserts.get(n);
    if (st === undefined) {
      const values = Array.from({ length: n }, () => "(?, 'debit', ?, ?, ?, NULL, ?, ?, ?, ?)").join(', ');
      st = this.db.prepare(
        `INSERT INTO ledger (key_id, kind, amount, request_id, route, note, created_at, client_request_id, idem_record, idem_generation) VALUES ${values}`,
      );
      this.entryInserts.set(n, st);
    }
    return st;
  }

  /** one write in its own transaction */
  private alone(p: Pending): Outcome {
    try {
      this.s.begin.run();
    } catch (error) {
      return { ok: false, error };
    }
    let value: unknown;
    try {
      value = p.fn();
    } catch (error) {
      this.rollback();
      return { ok: false, error };
    }
    try {
      this.commit();
    } catch (error) {
      return { ok: false, error };
    }
    return { ok: true, value };
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

  /** Starts an fsync of the WAL for the batches committed and not yet covered by one, unless
   *  MAX_SYNCS are running already (the next one to start then covers them all). A batch is
   *  answered when an fsync that started after its commit has completed. */
  private syncWal(): void {
    while (this.syncs < MAX_SYNCS && this.unsynced.length > 0) {
      const done = this.unsynced;
      const failed = this.unsyncedFailed;
      this.unsynced = [];
      this.unsyncedFailed = [];
      let fd: number;
      try {
        // fsync acts on the file, whichever descriptor names it
        this.walFd ??= openSync(this.walPath!, 'r+');
        fd = this.walFd;
      } catch (error) {
        // committed, but not known to be on disk: the callers learn the outcome is unknown
        for (const f of failed) f(error);
        continue;
      }
      this.syncs++;
      fdatasync(fd, (error) => {
        this.syncs--;
        if (error) for (const f of failed) f(error);
        else for (const d of done) d();
        this.syncWal();
        if (this.syncs === 0 && this.unsynced.length === 0) for (const w of this.idle.splice(0)) w();
      });
    }
  }

  async createKey(input: { id: string; name: string; prefix: string; hash: Buffer; credits: number }) {
    return this.write(() => {
      const now = Date.now();
      this.s.insertKey.run(input.id, input.name, input.prefix, input.hash, input.credits, now);
      if (input.credits > 0) this.s.insertGrant.run(input.id, input.credits, 'initial credits', now);
      return toRecord(this.s.keyById.get(input.id)!);
    });
  }

  async findKeyByHash(hash: Buffer) {
    const r = this.s.keyByHash.get(hash);
    return r ? toRecord(r) : null;
  }

  async listKeys() {
    return this.db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id').all().map(toBalance);
  }

  async getKey(id: string) {
    const r = this.s.keyById.get(id);
    return r ? toBalance(r) : null;
  }

  async countKeys() {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n;
  }

  async revokeKey(id: string) {
    const found = await this.write(
      () =>
        this.db
          .prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?')
          .run(Date.now(), id).changes > 0,
    );
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
      this.s.insertGrant.run(id, amount, note ?? null, Date.now());
      return toBalance(this.s.keyById.get(id)!);
    });
  }

  async entries(id: string, opts: { limit?: number; beforeSeq?: number } = {}): Promise<LedgerEntry[]> {
    const rows = this.db
      .prepare<
        [string, number, number],
        {
          seq: number;
          kind: 'grant' | 'debit';
          amount: number;
          request_id: string | null;
          client_request_id: string | null;
          route: string | null;
          note: string | null;
          created_at: number;
          idem_record: string | null;
        }
      >('SELECT * FROM ledger WHERE key_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?')
      .all(id, opts.beforeSeq ?? Number.MAX_SAFE_INTEGER, opts.limit ?? 100);
    return rows.map((r) => ({
      seq: r.seq,
      kind: r.kind,
      amount: r.amount,
      requestId: r.request_id,
      clientRequestId: r.client_request_id,
      route: r.route,
      note: r.note,
      createdAt: new Date(r.created_at),
      idempotent: r.idem_record !== null,
    }));
  }

  async usage(keyId: string, fromDay: number, toDay: number): Promise<UsageRow[]> {
    return this.db
      .prepare<[string, number, number], UsageRow>(
        `SELECT day, NULLIF(route, '') AS route, kind, amount, entries AS count FROM ledger_daily
         WHERE key_id = ? AND day >= ? AND day <= ? ORDER BY day, route, kind`,
      )
      .all(keyId, fromDay, toDay);
  }

  async totals(keyId: string) {
    const t = { granted: 0, spent: 0, debits: 0 };
    for (const r of this.db
      .prepare<[string], { kind: string; amount: number; n: number }>(
        'SELECT kind, SUM(amount) AS amount, SUM(entries) AS n FROM ledger_daily WHERE key_id = ? GROUP BY kind',
      )
      .all(keyId)) {
      if (r.kind === 'grant') t.granted = r.amount;
      else {
        t.spent = r.amount;
        t.debits = r.n;
      }
    }
    return t;
  }

  async usageByKey(fromDay: number, toDay: number): Promise<KeyUsage[]> {
    return this.db
      .prepare<[number, number], KeyUsage>(
        `SELECT k.id AS keyId, COALESCE(SUM(d.amount), 0) AS spent, COALESCE(SUM(d.entries), 0) AS calls
         FROM api_keys k
         LEFT JOIN ledger_daily d ON d.key_id = k.id AND d.kind = 'debit' AND d.day >= ? AND d.day <= ?
         GROUP BY k.id ORDER BY k.created_at, k.id`,
      )
      .all(fromDay, toDay);
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

  /** the journal row of a debit */
  private debitRow(req: ChargeRequest, amount: number): DebitRow {
    const idem = req.idempotency;
    return [
      req.keyId,
      amount,
      req.requestId,
      req.route,
      Date.now(),
      req.clientRequestId ?? null,
      idem?.record ?? null,
      idem?.generation ?? null,
    ];
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
      this.insertEntries(1).run(this.debitRow(req, amount));
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
      d.entries.push(this.debitRow(req, amount));
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
    const read = this.db.transaction(() => {
      const keys = this.db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY id').all();
      // grants and debits per key, of the journal or of its usage rollup
      const sumsOf = (table: 'ledger' | 'ledger_daily') =>
        new Map(
          this.db
            .prepare<[], { key_id: string; grants: number; debits: number }>(
              `SELECT key_id, SUM(CASE WHEN kind = 'grant' THEN amount ELSE 0 END) AS grants, SUM(CASE WHEN kind = 'debit' THEN amount ELSE 0 END) AS debits FROM ${table} GROUP BY key_id`,
            )
            .all()
            .map((r) => [r.key_id, r]),
        );
      const sums = sumsOf('ledger');
      const held = new Map(
        this.db
          .prepare<[], { key_id: string; held: number; n: number }>(
            "SELECT key_id, SUM(amount) AS held, COUNT(*) AS n FROM holds WHERE state = 'open' GROUP BY key_id",
          )
          .all()
          .map((r) => [r.key_id, r]),
      );
      const entries = (this.db.prepare('SELECT COUNT(*) AS n FROM ledger').get() as { n: number }).n;
      const orphans = this.db
        .prepare<[], { key_id: string }>(
          'SELECT DISTINCT key_id FROM ledger WHERE key_id NOT IN (SELECT id FROM api_keys)',
        )
        .all();
      const doubled = this.db
        .prepare<[], { key_id: string; idem_record: string; n: number }>(
          "SELECT key_id, idem_record, COUNT(*) AS n FROM ledger WHERE kind = 'debit' AND idem_record IS NOT NULL GROUP BY key_id, idem_record HAVING COUNT(*) > 1",
        )
        .all();
      const rollup = sumsOf('ledger_daily');
      return { keys, sums, held, entries, orphans, doubled, rollup };
    });
    return reconcileReport(read());
  }

  async ping() {
    this.db.prepare('SELECT 1').get();
  }

  async close() {
    if (this.closed) return;
    if (this.pending.length > 0) this.flush();
    this.closed = true;
    if (this.syncs > 0 || this.unsynced.length > 0) await new Promise<void>((r) => this.idle.push(r));
    this.db.close();
    if (this.walFd !== null) closeSync(this.walFd);
    this.walFd = null;
  }
}
