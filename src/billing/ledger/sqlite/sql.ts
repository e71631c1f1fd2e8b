// The SQLite ledger's statements, prepared once per connection. The hot reads of a call select
// no blob (a Buffer each) and, where one value is wanted, no row object.
import type Database from 'better-sqlite3';
import type { KeyUsage, UsageRow } from '../interface.js';
import type { ReconcileQueries } from '../reconcile.js';
import type { EntryRow, KeyRow, TotalsRow } from '../rows.js';

export interface IdempotencyRow {
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

/** a debit's journal row: the columns of insertDebits() after its kind */
export type DebitRow = [
  keyId: string,
  amount: number,
  requestId: string,
  route: string,
  createdAt: number,
  clientRequestId: string | null,
  idemRecord: string | null,
  idemGeneration: number | null,
];

// grants and debits per key, of the journal or of its usage rollup
const sumsOf = (table: 'ledger' | 'ledger_daily') =>
  `SELECT key_id, SUM(CASE WHEN kind = 'grant' THEN amount ELSE 0 END) AS grants, SUM(CASE WHEN kind = 'debit' THEN amount ELSE 0 END) AS debits FROM ${table} GROUP BY key_id`;

const RECONCILE: ReconcileQueries = {
  keys: 'SELECT id, balance, held FROM api_keys ORDER BY id',
  sums: sumsOf('ledger'),
  held: "SELECT key_id, SUM(amount) AS held, COUNT(*) AS n FROM holds WHERE state = 'open' GROUP BY key_id",
  entries: 'SELECT COUNT(*) AS n FROM ledger',
  orphans: 'SELECT DISTINCT key_id FROM ledger WHERE key_id NOT IN (SELECT id FROM api_keys)',
  doubled:
    "SELECT key_id, idem_record, COUNT(*) AS n FROM ledger WHERE kind = 'debit' AND idem_record IS NOT NULL GROUP BY key_id, idem_record HAVING COUNT(*) > 1",
  rollup: sumsOf('ledger_daily'),
};

export function prepare(db: Database.Database) {
  return {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    ping: db.prepare('SELECT 1'),
    keyById: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?'),
    keyByHash: db.prepare<[Buffer], KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
    listKeys: db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id'),
    countKeys: db.prepare<[], number>('SELECT COUNT(*) FROM api_keys').pluck(true),
    availableOf: db.prepare<[string], number>('SELECT balance - held FROM api_keys WHERE id = ?').pluck(true),
    fundsOf: db
      .prepare<[string], [number, number]>('SELECT balance, held FROM api_keys WHERE id = ?')
      .raw(true),
    insertKey: db.prepare(
      'INSERT INTO api_keys (id, name, prefix, key_hash, balance, held, created_at) VALUES (?, ?, ?, ?, ?, 0, ?)',
    ),
    revokeKey: db.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?'),
    insertGrant: db.prepare(
      "INSERT INTO ledger (key_id, kind, amount, request_id, route, note, created_at) VALUES (?, 'grant', ?, NULL, NULL, ?, ?)",
    ),
    /** adds journal rows to their day's rollup (key, UTC day, route or '', kind, amount, rows) */
    addDaily: db.prepare<[string, number, string, 'grant' | 'debit', number, number]>(
      `INSERT INTO ledger_daily (key_id, day, route, kind, amount, entries) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (key_id, day, route, kind)
       DO UPDATE SET amount = amount + excluded.amount, entries = entries + excluded.entries`,
    ),
    debit: db.prepare('UPDATE api_keys SET balance = balance - ? WHERE id = ? AND balance - held >= ?'),
    credit: db.prepare('UPDATE api_keys SET balance = balance + ? WHERE id = ?'),
    addHeld: db.prepare('UPDATE api_keys SET held = held + ? WHERE id = ? AND balance - held >= ?'),
    subHeld: db.prepare('UPDATE api_keys SET held = held - ? WHERE id = ?'),
    entries: db.prepare<[string, number, number], EntryRow>(
      `SELECT seq, kind, amount, request_id, client_request_id, route, note, created_at, idem_record IS NOT NULL AS idempotent
       FROM ledger WHERE key_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    ),
    usage: db.prepare<[string, number, number], UsageRow>(
      `SELECT day, NULLIF(route, '') AS route, kind, amount, entries AS count FROM ledger_daily
       WHERE key_id = ? AND day >= ? AND day <= ? ORDER BY day, route, kind`,
    ),
    totals: db.prepare<[string], TotalsRow>(
      'SELECT kind, SUM(amount) AS amount, SUM(entries) AS n FROM ledger_daily WHERE key_id = ? GROUP BY kind',
    ),
    usageByKey: db.prepare<[number, number], KeyUsage>(
      `SELECT k.id AS keyId, COALESCE(SUM(d.amount), 0) AS spent, COALESCE(SUM(d.entries), 0) AS calls
       FROM api_keys k
       LEFT JOIN ledger_daily d ON d.key_id = k.id AND d.kind = 'debit' AND d.day >= ? AND d.day <= ?
       GROUP BY k.id ORDER BY k.created_at, k.id`,
    ),
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
    idemGet: db.prepare<[string, string], IdempotencyRow>(
      'SELECT * FROM idempotency WHERE key_id = ? AND idem_key = ?',
    ),
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
    reconcile: Object.fromEntries(
      Object.entries(RECONCILE).map(([name, text]) => [name, db.prepare(text)]),
    ) as Record<keyof ReconcileQueries, Database.Statement<[], unknown>>,
    insertDebits: debitInserts(db),
  };
}

/** debit rows of the journal written at once by one INSERT of the deferred charges */
export const DEBIT_ROWS = 64;
/** the values a debit row binds (the length of DebitRow) */
export const DEBIT_COLUMNS = 8;

/** INSERT of `n` debit rows of the journal at once, prepared on first use */
function debitInserts(db: Database.Database): (n: number) => Database.Statement {
  const byCount = new Map<number, Database.Statement>();
  return (n) => {
    let st = byCount.get(n);
    if (st === undefined) {
      const values = Array.from({ length: n }, () => "(?, 'debit', ?, ?, ?, NULL, ?, ?, ?, ?)").join(', ');
      st = db.prepare(
        `INSERT INTO ledger (key_id, kind, amount, request_id, route, note, created_at, client_request_id, idem_record, idem_generation) VALUES ${values}`,
      );
      byCount.set(n, st);
    }
    return st;
  };
}
