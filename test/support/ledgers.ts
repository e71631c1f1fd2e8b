// The real app on either ledger: SQLite (its own file, as startApp does) or PostgreSQL (its own
// database, dropped on close), so one test can run against both.

import { createTestDatabase, withClient } from '../../scripts/lib/pg.js';
import { openPostgresLedger } from '../../src/billing/ledger/postgres/ledger.js';
import { startApp, type TestApp, type TestAppOptions } from './app.js';

export const LEDGERS = ['sqlite', 'postgres'] as const;
export type LedgerKind = (typeof LEDGERS)[number];

export interface LedgerApp extends TestApp {
  kind: LedgerKind;
  /** runs SQL on the ledger's database directly (tampering, checks the ledger does not offer) */
  sql(text: string, params?: unknown[]): Promise<void>;
}

export async function startAppOn(kind: LedgerKind, opts: TestAppOptions = {}): Promise<LedgerApp> {
  if (kind === 'sqlite') {
    const t = await startApp(opts);
    const { default: Database } = await import('better-sqlite3');
    const { join } = await import('node:path');
    return {
      ...t,
      kind,
      sql: async (text, params = []) => {
        const db = new Database(join(t.dir, 'ledger.db'));
        try {
          db.prepare(text).run(...params);
        } finally {
          db.close();
        }
      },
    };
  }
  const db = await createTestDatabase();
  try {
    const ledger = await openPostgresLedger(db.url, { poolSize: 8 });
    const t = await startApp({ ...opts, ledger });
    return {
      ...t,
      kind,
      sql: async (text, params = []) => {
        // the same placeholders as SQLite's: ?, numbered in order
        let i = 0;
        await withClient(db.url, (c) =>
          c.query(
            text.replace(/\?/g, () => `$${++i}`),
            params,
          ),
        );
      },
      close: async () => {
        try {
          await t.close();
        } finally {
          await db.drop();
        }
      },
    };
  } catch (e) {
    await db.drop();
    throw e;
  }
}
