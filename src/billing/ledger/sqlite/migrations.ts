// The SQLite ledger's schema and its changes since, applied when a file is opened.
// The journal's seq is its rowid, without AUTOINCREMENT: rows are never deleted (a trigger
// refuses it), so it only grows, and a commit writes one page less.
import type Database from 'better-sqlite3';

export const DAY_MS = 86_400_000;

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

/** Changes of the schema above, in order; PRAGMA user_version counts those a file has. A
 *  migration is never edited once released: a change is a new entry. */
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
  // the rollup is now written by the ledger itself, in the transaction of the journal rows it
  // sums: one upsert per key, day and route of a batch instead of one per row (the trigger cost
  // about 1.5 µs per journal row, more than the rest of a charge's SQL)
  'DROP TRIGGER ledger_daily_add;',
];

/** Creates the schema and applies the migrations a file lacks, in one transaction (several
 *  processes opening one file at once apply each migration once), so an existing file is
 *  upgraded on open. */
export function migrate(db: Database.Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(SCHEMA);
    const version = db.pragma('user_version', { simple: true }) as number;
    // a file a newer release has migrated: this release would write rows its newer schema does
    // not expect (a rollback after an upgrade)
    if (version > MIGRATIONS.length)
      throw new Error(
        `the ledger file has schema version ${version}, newer than this release's ${MIGRATIONS.length}: run the release that migrated it (or a newer one)`,
      );
    for (let v = version; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
    if (version < MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
    db.exec('COMMIT');
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}
