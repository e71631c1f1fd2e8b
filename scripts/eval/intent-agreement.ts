// How far the intent labels can be trusted: eval/intent-dev.jsonl (the first reading, what the
// model learns from and is measured on) against eval/intent-second-reading.jsonl (a second,
// independent reading of the same 2,275 texts by the same definitions, and the label each text got
// when the two readings were adjudicated; eval/README.md). Prints the agreement, Cohen's kappa, the
// macro-F1 of one reading scored against the other, per label, and which reading adjudication kept.
//   npx tsx scripts/eval/intent-agreement.ts [--cv]
// --cv also runs the intent model's nested CV (flash, the trees included) on the pool twice, with the
// first reading's labels and with the adjudicated ones: about as long as `npm run eval --
// --only=intent`, which runs one per provider (51 minutes on one core in this release; about 20
// minutes before the trees).
import { join } from 'node:path';
import { INTENTS, type Intent } from '../../src/contract/items.js';
import { ROOT } from '../../src/paths.js';
import { jsonlAt } from '../train/data.js';
import { intentDev, isIntentFinal, itemKey, nestedCv, trainingSet } from '../train/intent.js';
import { f1PerClass, macroF1 } from '../train/metrics.js';
import { meanSd } from '../train/splits.js';

interface SecondReading {
  file: string;
  id: string;
  second: Intent;
  adjudicated: Intent;
}

export function secondReading(): Map<string, SecondReading> {
  const rows = jsonlAt<SecondReading>(join(ROOT, 'eval/intent-second-reading.jsonl'));
  return new Map(rows.map((r) => [itemKey(r), r]));
}

/** Cohen's kappa of two labellings over the same items */
export function cohenKappa(a: readonly number[], b: readonly number[], classes: number): number {
  const n = a.length;
  const ca = new Array<number>(classes).fill(0);
  const cb = new Array<number>(classes).fill(0);
  let same = 0;
  a.forEach((x, i) => {
    ca[x]!++;
    cb[b[i]!]!++;
    if (x === b[i]) same++;
  });
  const po = same / n;
  const pe = ca.reduce((s, x, c) => s + x * cb[c]!, 0) / (n * n);
  return (po - pe) / (1 - pe);
}

async function main(): Promise<void> {
  const all = intentDev();
  const second = secondReading();
  const keys = new Set(all.map(itemKey));
  const stray = [...second.keys()].filter((k) => !keys.has(k));
  if (stray.length > 0)
    throw new Error(
      `eval/intent-second-reading.jsonl reads texts that are not labelled: ${stray.slice(0, 3).join(', ')}`,
    );
  // texts labelled after the second reading have none yet: they are left out here
  const items = all.filter((it) => second.has(itemKey(it)));
  if (items.length < all.length)
    console.log(`${all.length - items.length} labelled texts have no second reading yet and are left out`);
  const idx = (l: Intent) => INTENTS.indexOf(l);
  const first = items.map((it) => idx(it.label));
  const other = items.map((it) => idx(second.get(itemKey(it))!.second));
  const adjudicated = items.map((it) => idx(second.get(itemKey(it))!.adjudicated));
  const agree = first.filter((x, i) => x === other[i]).length;
  const C = INTENTS.length;
  console.log(
    `${items.length} texts: the readings agree on ${agree} (${((100 * agree) / items.length).toFixed(1)}%), ` +
      `Cohen's kappa ${cohenKappa(first, other, C).toFixed(3)}, macro-F1 of the second against the first ${macroF1(first, other, C).toFixed(3)}`,
  );
  const perLabel = f1PerClass(first, other, C);
  console.log(`per label: ${INTENTS.map((l, c) => `${l} ${perLabel[c]!.toFixed(3)}`).join(', ')}`);
  const disputed = first.flatMap((x, i) => (x !== other[i] ? [i] : []));
  const keptFirst = disputed.filter((i) => adjudicated[i] === first[i]).length;
  const keptSecond = disputed.filter((i) => adjudicated[i] === other[i]).length;
  console.log(
    `adjudication of the ${disputed.length} disagreements (both labels shown in random order): the first reading's label ${keptFirst}, the second's ${keptSecond}, another ${disputed.length - keptFirst - keptSecond}`,
  );
  const count = (ys: number[]) =>
    INTENTS.map((l, c) => `${l} ${ys.filter((y) => y === c).length}`).join(', ');
  console.log(`first reading: ${count(first)}\nadjudicated:   ${count(adjudicated)}`);
  console.log(
    `macro-F1 against the adjudicated labels: first reading ${macroF1(adjudicated, first, C).toFixed(3)}, second ${macroF1(adjudicated, other, C).toFixed(3)}`,
  );
  if (!process.argv.includes('--cv')) return;
  const pool = items.filter((it) => !isIntentFinal(it));
  for (const [name, relabel] of [
    ['first reading', (it: (typeof pool)[number]) => it],
    ['adjudicated', (it: (typeof pool)[number]) => ({ ...it, label: second.get(itemKey(it))!.adjudicated })],
  ] as const) {
    const { cv } = nestedCv(trainingSet(pool.map(relabel), 'model-2.0-flash'));
    const { mean, sd } = meanSd(cv);
    console.log(
      `intent nested CV (flash, ${pool.length} pool texts), labels: ${name}: ${mean.toFixed(3)} ± ${sd.toFixed(3)}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
