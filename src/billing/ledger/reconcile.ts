// The reconcile check shared by every ledger: each ledger reads the rows of the queries below in
// one consistent snapshot (its sql.ts holds their text in its dialect), and reconcileReport lists
// every difference between the balances, the journal, the usage rollup and the open holds.
import type { ReconcileReport } from './interface.js';

/** per key: grants and debits summed, of the journal or of its usage rollup */
interface Sums {
  key_id: string;
  grants: number;
  debits: number;
}

/** the answer of each reconcile query, all of one snapshot */
export interface ReconcileRows {
  keys: Array<{ id: string; balance: number; held: number }>;
  /** the journal's sums per key */
  sums: Sums[];
  /** open holds per key */
  held: Array<{ key_id: string; held: number; n: number }>;
  /** one row: the journal's length */
  entries: Array<{ n: number }>;
  /** journal rows of keys that do not exist */
  orphans: Array<{ key_id: string }>;
  /** Idempotency-Key records with more than one debit in the journal (at most one is allowed) */
  doubled: Array<{ key_id: string; idem_record: string; n: number }>;
  /** the usage rollup's sums per key (ledger_daily), which must be the journal's */
  rollup: Sums[];
}

/** the SQL of each reconcile query, in one ledger's dialect */
export type ReconcileQueries = Record<keyof ReconcileRows, string>;

export function reconcileReport(rows: ReconcileRows): ReconcileReport {
  const byKey = <R extends { key_id: string }>(rs: R[]) => new Map(rs.map((r) => [r.key_id, r]));
  const sums = byKey(rows.sums);
  const rollup = byKey(rows.rollup);
  const held = byKey(rows.held);
  const problems: ReconcileReport['problems'] = rows.orphans.map((o) => ({
    keyId: o.key_id,
    problem: 'ledger entries for a key that does not exist',
  }));
  for (const d of rows.doubled)
    problems.push({
      keyId: d.key_id,
      problem: `${d.n} debits for one Idempotency-Key (record ${d.idem_record}); at most one is allowed`,
    });
  for (const id of new Set([...sums.keys(), ...rollup.keys()])) {
    const j = sums.get(id) ?? { grants: 0, debits: 0 };
    const r = rollup.get(id) ?? { grants: 0, debits: 0 };
    if (j.grants !== r.grants || j.debits !== r.debits)
      problems.push({
        keyId: id,
        problem: `usage rollup (grants ${r.grants}, debits ${r.debits}) ≠ journal (grants ${j.grants}, debits ${j.debits})`,
      });
  }
  let openHolds = 0;
  for (const k of rows.keys) {
    const s = sums.get(k.id);
    const expected = (s?.grants ?? 0) - (s?.debits ?? 0);
    if (expected !== k.balance)
      problems.push({ keyId: k.id, problem: `balance ${k.balance} ≠ grants − debits ${expected}` });
    const h = held.get(k.id);
    openHolds += h?.n ?? 0;
    if ((h?.held ?? 0) !== k.held)
      problems.push({ keyId: k.id, problem: `held ${k.held} ≠ open holds ${h?.held ?? 0}` });
    if (k.balance < 0) problems.push({ keyId: k.id, problem: `negative balance ${k.balance}` });
  }
  return { keys: rows.keys.length, entries: rows.entries[0]?.n ?? 0, openHolds, problems };
}
