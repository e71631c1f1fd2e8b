// The figures of a reliability run. A full run (RELIABILITY_SCALE=full, `npm run
// test:reliability`) writes them to docs/reliability.md; the short form that CI runs keeps them
// in its output only, so the committed figures are always those of a full run.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { writeDocSection } from '../../../scripts/lib/doc-section.js';
import { ROOT } from '../../../src/paths.js';

export const SCALE: 'full' | 'short' = process.env.RELIABILITY_SCALE === 'full' ? 'full' : 'short';
/** full-scale figure, or the short one */
export const scaled = (full: number, short: number) => (SCALE === 'full' ? full : short);

export interface Figures {
  scenario: string;
  database: string;
  instances: number;
  requests: number;
  successes: number;
  statuses: Record<string, number>;
  /** sum of credits_used of the successful replies */
  charged: number;
  /** sum of the ledger's debit rows */
  ledgerDebits: number;
  /** grants − final balance */
  spent: number;
  openHolds: number;
  reconcile: 'clean' | 'PROBLEMS';
  seconds: number;
  notes: string;
}

const rows: Figures[] = [];

export function record(f: Figures): void {
  rows.push(f);
  process.stdout.write(`reliability: ${JSON.stringify(f)}\n`);
}

const SCENARIOS: Record<string, string> = {
  overspend:
    'A key with a fixed budget under far more concurrent calls than it affords, spread over several processes on one database. Passes when exactly the affordable number succeed, nothing is overspent, the ledger sums to the balance and no hold is left.',
  idempotency:
    '50 concurrent calls with one Idempotency-Key and one body, spread over the instances; a 409 is retried. Passes when every reply is the same bytes and the key is charged once.',
  crash:
    'kill -9 of a random instance at a random moment under load, round after round, each killed instance restarted; afterwards every call whose outcome was unknown is retried with its Idempotency-Key. Passes when no acknowledged charge is lost, none is doubled, reconcile is clean and every hold is settled or expired.',
  'upstream faults':
    'Platform calls failing 30% of the time (errors, timeouts, resets, throttling, open breaker) through GLEANER_FAULT_INJECTION. Passes when only the decided statuses appear and failed calls cost nothing.',
  'bad input':
    'Property-based fuzzing (fast-check) of every endpoint: wrong types, huge numbers, deep nesting (10,000 levels, with and without an Idempotency-Key), huge strings, __proto__ keys, names of prototype members as topic labels, malformed percent-escapes in post URLs, broken JSON, wrong content types and charsets, garbage keys. Passes when no reply is a 5xx, every error is in the envelope, and only 2xx replies change the balance.',
};

export function writeReport(): void {
  if (rows.length === 0) return;
  const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, ''));
  const lines = [
    `Last full run: ${new Date().toISOString()} on ${availableParallelism()} cores, Node ${process.version}.`,
    'Every scenario runs real `node dist/src/main.js` processes on loopback against one',
    'database (SQLite file shared by the processes, or PostgreSQL), with the sandbox sources.',
    'Credits are in credits (the ledger keeps millicredits). `charged` is the sum of',
    '`credits_used` in the successful replies, `ledger` the sum of the debit rows, `spent` the',
    'grants minus the final balance: the three agree in every run.',
    '',
  ];
  for (const [name, what] of Object.entries(SCENARIOS)) {
    const mine = rows.filter((r) => r.scenario === name);
    if (mine.length === 0) continue;
    lines.push(`## ${name}`, '', what, '');
    lines.push(
      '| database | instances | requests | successes | statuses | charged | ledger | spent | open holds | reconcile | seconds | notes |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const r of mine)
      lines.push(
        `| ${r.database} | ${r.instances} | ${r.requests} | ${r.successes} | ${Object.entries(r.statuses)
          .sort()
          .map(([s, n]) => `${s}×${n}`)
          .join(
            ' ',
          )} | ${fmt(r.charged)} | ${fmt(r.ledgerDebits)} | ${fmt(r.spent)} | ${r.openHolds} | ${r.reconcile} | ${r.seconds.toFixed(1)} | ${r.notes} |`,
      );
    lines.push('');
  }
  lines.push(
    'Run it again with `npm run test:reliability` (a few minutes on 2 cores); CI runs every',
    'scenario in a short form (`RELIABILITY_SCALE=short`, fewer requests and rounds) in `npm run verify`.',
    '',
  );
  const text = lines.join('\n');
  if (SCALE === 'full') {
    writeDocSection(join(ROOT, 'docs/reliability.md'), 'reliability suite', text);
  } else process.stdout.write(`${text}\n`);
}
