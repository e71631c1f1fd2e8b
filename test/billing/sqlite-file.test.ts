// The SQLite ledger file: created owner-only (with its WAL, its shared-memory file and the data
// folder), a file of the previous schema is upgraded on open, and processes that open one new file
// at the same moment all start.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { hashKey } from '../../src/billing/api-keys.js';
import { SqliteLedger } from '../../src/billing/ledger/sqlite/ledger.js';
import { ROOT } from '../../src/paths.js';

let dir: string | undefined;
let ledger: SqliteLedger | undefined;
afterEach(async () => {
  await ledger?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  ledger = undefined;
  dir = undefined;
});

const mode = (path: string) => statSync(path).mode & 0o777;

test('the database, its WAL and SHM files and the data folder are owner-only', async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-file-'));
  const data = join(dir, 'data', 'ledgers');
  const path = join(data, 'gleaner.db');
  // a umask that leaves files readable by everyone, as on most systems
  const umask = process.umask(0o022);
  try {
    ledger = new SqliteLedger(path);
    await ledger.createKey({ id: 'key_a', name: 'a', prefix: 'gl_a', hash: hashKey('gl_a'), credits: 5000 });
    await ledger.charge({
      keyId: 'key_a',
      requestId: 'req_1',
      route: 'clipnet.posts',
      price: { base: 1000, perItem: 1000 },
      items: 1,
      minItems: 1,
    });
  } finally {
    process.umask(umask);
  }
  expect(mode(path).toString(8)).toBe('600');
  expect(mode(`${path}-wal`).toString(8)).toBe('600');
  expect(mode(`${path}-shm`).toString(8)).toBe('600');
  expect(mode(data).toString(8)).toBe('700');
  expect(mode(join(dir, 'data')).toString(8)).toBe('700');
});

// the schema of the first release, as its files hold it
const FIRST_SCHEMA = `
CREATE TABLE api_keys (id TEXT PRIMARY KEY, name TEXT NOT NULL, prefix TEXT NOT NULL,
  key_hash BLOB NOT NULL UNIQUE, balance INTEGER NOT NULL CHECK (balance >= 0),
  held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0 AND held <= balance),
  created_at INTEGER NOT NULL, revoked_at INTEGER) STRICT;
CREATE TABLE ledger (seq INTEGER PRIMARY KEY, key_id TEXT NOT NULL REFERENCES api_keys(id),
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'debit')), amount INTEGER NOT NULL CHECK (amount > 0),
  request_id TEXT, route TEXT, note TEXT, created_at INTEGER NOT NULL) STRICT;
CREATE TRIGGER ledger_append_only_update BEFORE UPDATE ON ledger
  BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TABLE idempotency (key_id TEXT NOT NULL, idem_key TEXT NOT NULL, fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done')), locked_until INTEGER NOT NULL,
  status INTEGER, headers TEXT, body TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
  PRIMARY KEY (key_id, idem_key)) STRICT;
`;

test('a file of the first schema is upgraded on open and keeps its data', async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-file-'));
  const path = join(dir, 'old.db');
  const old = new Database(path);
  old.exec(FIRST_SCHEMA);
  const now = Date.now();
  old
    .prepare("INSERT INTO api_keys VALUES ('key_a', 'a', 'gl_a', ?, 7000, 0, ?, NULL)")
    .run(hashKey('gl_a'), now);
  old.prepare("INSERT INTO ledger VALUES (1, 'key_a', 'grant', 10000, NULL, NULL, 'initial', ?)").run(now);
  old
    .prepare("INSERT INTO ledger VALUES (2, 'key_a', 'debit', 3000, 'req_old', 'clipnet.posts', NULL, ?)")
    .run(now);
  old
    .prepare(
      "INSERT INTO idempotency VALUES ('key_a', 'done-key', 'fp', 'done', ?, 200, '{}', 'stored body', ?, ?)",
    )
    .run(now, now, now + 86_400_000);
  old.close();

  ledger = new SqliteLedger(path);
  const l = ledger;
  expect(await l.reconcile()).toMatchObject({ entries: 2, problems: [] });
  const ref = { keyId: 'key_a', fingerprint: 'fp', leaseMs: 60_000, ttlMs: 86_400_000 };
  // a reply stored before the upgrade is still replayed
  expect(await l.idempotencyBegin({ ...ref, key: 'done-key' })).toMatchObject({
    state: 'replay',
    response: { body: 'stored body' },
  });
  // and a new call runs with a lease, its debit naming its record
  const begun = await l.idempotencyBegin({ ...ref, key: 'new-key' });
  if (begun.state !== 'new') throw new Error(begun.state);
  const r = await l.charge({
    keyId: 'key_a',
    requestId: 'req_new',
    clientRequestId: 'mine-1',
    route: 'clipnet.posts',
    price: { base: 1000, perItem: 1000 },
    items: 2,
    minItems: 1,
    idempotency: { ...begun.lease, render: () => ({ status: 200, headers: {}, body: 'new' }) },
  });
  expect(r).toMatchObject({ ok: true, amount: 3000, balance: 4000 });
  const [last] = await l.entries('key_a', { limit: 1 });
  expect(last).toMatchObject({ requestId: 'req_new', clientRequestId: 'mine-1' });
  expect(await l.reconcile()).toMatchObject({ entries: 3, problems: [] });
  await l.close();
  ledger = undefined;
  // opened again: nothing left to upgrade
  const db = new Database(path);
  expect(db.pragma('user_version', { simple: true })).toBe(3);
  // the rollup is kept by the ledger code now, not by a trigger
  expect(
    db
      .prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'ledger_daily_add'")
      .pluck()
      .get(),
  ).toBe(0);
  // the upgrade filled the usage rollup from the journal already there, and kept it since
  expect(db.prepare('SELECT SUM(amount) FROM ledger_daily').pluck().get()).toBe(
    db.prepare('SELECT SUM(amount) FROM ledger').pluck().get(),
  );
  expect(db.prepare("SELECT idem_record FROM ledger WHERE request_id = 'req_new'").pluck().get()).toBe(
    begun.lease.record,
  );
  db.close();
  ledger = new SqliteLedger(path);
  expect(await ledger.reconcile()).toMatchObject({ entries: 3, problems: [] });
});

test('a file a newer release has migrated is refused, not written to', async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-file-'));
  const path = join(dir, 'ledger.db');
  await new SqliteLedger(path).close();
  const db = new Database(path);
  db.pragma('user_version = 99');
  db.close();
  expect(() => new SqliteLedger(path)).toThrow(/schema version 99, newer than this release's 3/);
});

test('processes that open one new ledger file at the same moment all start', async () => {
  // switching a new file to WAL can be refused at once (SQLITE_BUSY, no waiting) while another
  // process is doing the same; two instances started together with one file had failed to start
  const script = join(ROOT, 'test/billing/fixtures/open-ledger.ts');
  const failures: string[] = [];
  for (let round = 0; round < 4; round++) {
    dir = mkdtempSync(join(tmpdir(), 'gleaner-open-'));
    const path = join(dir, 'gleaner.db');
    const at = String(Date.now() + 2_000);
    await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<void>((resolve) => {
            let err = '';
            const p = spawn(process.execPath, ['--import', 'tsx', script, path, at], { cwd: ROOT });
            p.stderr.on('data', (d: Buffer) => {
              err += d.toString();
            });
            p.on('exit', (code) => {
              if (code !== 0) failures.push(err.trim() || `exit ${code}`);
              resolve();
            });
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  }
  expect(failures).toEqual([]);
}, 60_000);
