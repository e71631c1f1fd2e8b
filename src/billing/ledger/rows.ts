// Database rows into the ledger's records, the same for both ledgers. SQLite stores times as
// epoch milliseconds and booleans as 0/1; PostgreSQL gives Date objects and booleans.
import type { KeyBalance, KeyRecord, LedgerEntry } from './interface.js';

type Time = Date | number;
const toDate = (t: Time): Date => (t instanceof Date ? t : new Date(t));

export interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  balance: number;
  held: number;
  created_at: Time;
  revoked_at: Time | null;
}

export function toRecord(r: KeyRow): KeyRecord {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdAt: toDate(r.created_at),
    revokedAt: r.revoked_at === null ? null : toDate(r.revoked_at),
  };
}

export function toBalance(r: KeyRow): KeyBalance {
  return { ...toRecord(r), balance: r.balance, held: r.held };
}

export interface EntryRow {
  seq: number;
  kind: 'grant' | 'debit';
  amount: number;
  request_id: string | null;
  client_request_id: string | null;
  route: string | null;
  note: string | null;
  created_at: Time;
  /** the row names an Idempotency-Key record */
  idempotent: boolean | number;
}

export function toEntry(r: EntryRow): LedgerEntry {
  return {
    seq: r.seq,
    kind: r.kind,
    amount: r.amount,
    requestId: r.request_id,
    clientRequestId: r.client_request_id,
    route: r.route,
    note: r.note,
    createdAt: toDate(r.created_at),
    idempotent: Boolean(r.idempotent),
  };
}

/** the usage rollup summed by kind, as the TOTALS query of each ledger reads it */
export interface TotalsRow {
  kind: string;
  amount: number;
  n: number;
}

export function toTotals(rows: TotalsRow[]): { granted: number; spent: number; debits: number } {
  const t = { granted: 0, spent: 0, debits: 0 };
  for (const r of rows) {
    if (r.kind === 'grant') t.granted = r.amount;
    else {
      t.spent = r.amount;
      t.debits = r.n;
    }
  }
  return t;
}
