// The account API's ledger queries over a million journal rows, on SQLite and on PostgreSQL:
// a busy key's usage over 30 days and over all time (the account's totals), a quiet key's month,
// the first and a deep page of entries, and every key's month for the operator. Prints the median
// of several runs of each, in milliseconds.
//   npm run bench -- account-usage
//   BENCH_ROWS=200000 npm run bench -- account-usage   # fewer rows
// PostgreSQL: PG_TEST_URL (default postgres://postgres@127.0.0.1:5432/test) names a server where
// a scratch database is created and dropped; without a server only SQLite is measured.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createTestDatabase, withClient } from '../scripts/lib/pg.js';
import type { Ledger } from '../src/billing/ledger/interface.js';
import { openPostgresLedger } from '../src/billing/ledger/postgres/ledger.js';
import { SqliteLedger } from '../src/billing/ledger/sqlite/ledger.js';
import { ENDPOINTS } from '../src/contract/endpoints.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const KEYS = 100;
/** the busy key's share of the rows (see keyOf); the rest is spread evenly over the other keys */
const BUSY_SHARE = 0.4;
const SPAN_DAYS = 90;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const DAY_MS = 86_400_000;
const ROUTES = ENDPOINTS.map((e) => e.id);

const keyId = (i: number) => `key_${i.toString(16).padStart(20, '0')}`;

/** which key row `i` belongs to: two rows in five are the busy key's, all through the span */
const keyOf = (i: number) => (i % 5 < 2 ? 0 : 1 + (Math.floor(i / 5) % (KEYS - 1)));

async function createKeys(ledger: Ledger) {
  for (let k = 0; k < KEYS; k++)
    await ledger.createKey({
      id: keyId(k),
      name: `bench ${k}`,
      prefix: 'gl_bench',
      hash: Buffer.from(keyId(k).padEnd(32, '0')),
      credits: 1_000_000_000,
    });
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function measure(name: string, ledger: Ledger, now: number): Promise<Record<string, string>> {
  const today = Math.floor(now / DAY_MS);
  const monthAgo = today - 29;
  const busy = keyId(0);
  const quiet = keyId(7);
  const deep =
    (await ledger.entries(busy, { limit: 1, beforeSeq: undefined }))[0]!.seq -
    Math.floor(ROWS * BUSY_SHARE * 0.5);
  const cases: Record<string, () => Promise<unknown>> = {
    'busy key, 30 days by day and endpoint': () => ledger.usage(busy, monthAgo, today),
    'busy key, all time by day and endpoint': () => ledger.usage(busy, 0, today),
    'busy key, totals (the account)': () => ledger.totals(busy),
    'quiet key, 30 days': () => ledger.usage(quiet, monthAgo, today),
    'busy key, first page of 50 entries': () => ledger.entries(busy, { limit: 51 }),
    'busy key, a page of 50 half way down': () => ledger.entries(busy, { limit: 51, beforeSeq: deep }),
    'every key, 30 days (operator)': () => ledger.usageByKey(monthAgo, today),
    'reconcile (whole ledger)': () => ledger.reconcile(),
  };
  const out: Record<string, string> = {};
  for (const [label, fn] of Object.entries(cases)) out[label] = `${(await median(fn)).toFixed(1)} ms`;
  console.log(
    `\n${name}: ${ROWS.toLocaleString('en-US')} journal rows, ${KEYS} keys, busy key ${Math.round(ROWS * BUSY_SHARE).toLocaleString('en-US')} rows over ${SPAN_DAYS} days`,
  );
  console.table(out);
  return out;
}

async function sqlite(now: number) {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-bench-usage-'));
  try {
    const path = join(dir, 'ledger.db');
    const ledger = new SqliteLedger(path);
    await createKeys(ledger);
    await ledger.close();
    const db = new Database(path);
    const insert = db.prepare(
      "INSERT INTO ledger (key_id, kind, amount, request_id, route, created_at) VALUES (?, 'debit', ?, ?, ?, ?)",
    );
    const t0 = performance.now();
    db.transaction(() => {
      for (let i = 0; i < ROWS; i++)
        insert.run(
          keyId(keyOf(i)),
          1000 + (i % 7) * 500,
          `req_${i}`,
          ROUTES[i % ROUTES.length],
          now - SPAN_DAYS * DAY_MS + Math.floor((i / ROWS) * SPAN_DAYS * DAY_MS),
        );
      // the SQLite ledger's code keeps the daily rollup beside its journal rows: fill it as it would
      db.exec(`INSERT INTO ledger_daily (key_id, day, route, kind, amount, entries)
        SELECT key_id, created_at / ${DAY_MS}, route, kind, SUM(amount), COUNT(*) FROM ledger
        WHERE kind = 'debit' GROUP BY 1, 2, 3, 4`);
    })();
    db.close();
    console.log(
      `sqlite: wrote ${ROWS.toLocaleString('en-US')} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const reopened = new SqliteLedger(path);
    try {
      await measure('SQLite', reopened, now);
    } finally {
      await reopened.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(now: number) {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  try {
    db = await createTestDatabase();
  } catch (e) {
    console.log(`\nPostgreSQL: skipped (${(e as Error).message})`);
    return;
  }
  try {
    const ledger = await openPostgresLedger(db.url, { poolSize: 2 });
    try {
      await createKeys(ledger);
      const t0 = performance.now();
      await withClient(db.url, async (c) => {
        await c.query(
          `INSERT INTO ledger (key_id, kind, amount, request_id, route, created_at)
           SELECT CASE WHEN i % 5 < 2 THEN 'key_' || lpad(to_hex(0), 20, '0')
                       ELSE 'key_' || lpad(to_hex(1 + ((i / 5) % ($2 - 1))), 20, '0') END,
                  'debit', 1000 + (i % 7) * 500, 'req_' || i, ($3::text[])[1 + i % $4],
                  to_timestamp(($5::double precision - $6::double precision * 86400000 + floor(i::double precision / $1 * $6::double precision * 86400000)) / 1000)
           FROM generate_series(0, $1 - 1) AS i`,
          [ROWS, KEYS, ROUTES, ROUTES.length, now, SPAN_DAYS],
        );
        await c.query('ANALYZE');
      });
      console.log(
        `postgres: wrote ${ROWS.toLocaleString('en-US')} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      await measure('PostgreSQL', ledger, now);
    } finally {
      await ledger.close();
    }
  } finally {
    await db.drop();
  }
}

export default async function run() {
  const now = Date.now();
  await sqlite(now);
  await postgres(now);
}
