// The reconcile check shared by every ledger: given one consistent snapshot of the keys, the
// journal's sums and the open holds, list every difference.
import type { ReconcileReport } from './interface.js';

export interface ReconcileSnapshot {
  keys: Array<{ id: string; balance: number; held: number }>;
  sums: Map<string, { grants: number; debits: number }>;
  held: Map<string, { held: number; n: number }>;
  entries: number;
  orphans: Array<{ key_id: string }>;
  /** Idempotency-Key records with more than one debit in the journal (at most one is allowed) */
  doubled: Array<{ key_id: string; idem_record: string; n: number }>;
  /** the usage rollup's sums per key (ledger_daily), which must be the journal's */
  rollup: Map<string, { grants: number; debits: number }>;
}

export function reconcileReport({
  keys,
  sums,
  held,
  entries,
  orphans,
  doubled,
  rollup,
}: ReconcileSnapshot): ReconcileReport {
  const problems: ReconcileReport['problems'] = orphans.map((o) => ({
    keyId: o.key_id,
    problem: 'ledger entries for a key that does not exist',
  }));
  for (const d of doubled)
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
  for (const k of keys) {
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
  return { keys: keys.length, entries, openHolds, problems };
}
