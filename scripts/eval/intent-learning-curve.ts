// How intent macro-F1 grows with the number of labelled texts: 5-fold CV over the intent pool with
// the shipped settings, each fold's model fitted on a fixed share of the other folds' labelled texts
// (the complaints corpus's extra examples always in full) and measured on the whole held-out fold.
// A share below 100% is drawn three times (by a hash of each text's file#id and the draw), and the
// pooled out-of-fold macro-F1 of each draw is printed with their mean. Whether more labels would
// still pay is read off the slope (docs/enrichment.md, Intent).
//   npx tsx scripts/eval/intent-learning-curve.ts [share%,…]   (default 40,60,80,100; 3-6 minutes
//   with INTENT_LINEAR=1; with the trees, a fit of the trees more per fold and draw)
//   INTENT_LINEAR=1 reads the shipped linear model alone, without the trees (checkSettings in
//   scripts/train/intent.ts): the model the figures docs/enrichment.md quotes from this script were
//   taken with, before the trees
import { INTENTS } from '../../src/contract/items.js';
import { intentOf } from '../../src/enrichment/engine/intent.js';
import { bucket } from '../train/data.js';
import {
  checkSettings,
  extrasOf,
  fitOn,
  intentFold,
  intentPool,
  itemKey,
  poolOf,
  target,
  trainingSet,
} from '../train/intent.js';
import { macroF1 } from '../train/metrics.js';
import { FOLDS } from '../train/splits.js';

const PROVIDER = 'model-2.0-flash';
const SHIPPED = checkSettings()[PROVIDER];
const DRAWS = 3;

const shares = (process.argv[2] ?? '40,60,80,100').split(',').map(Number);
if (shares.some((s) => !(s > 0 && s <= 100))) throw new Error('shares are percentages in (0, 100]');
const ts = trainingSet(intentPool(), PROVIDER);
const pool = poolOf(ts);
const extras = extrasOf(ts);
const gold = (i: number) => target(ts.items[i]!.label);

/** pooled out-of-fold macro-F1 with each fold's model fitted on `share`% of the other folds */
function curvePoint(share: number, draw: number): { f1: number; texts: number } {
  const g: number[] = [];
  const p: number[] = [];
  let texts = 0;
  for (let f = 0; f < FOLDS; f++) {
    const train = pool.filter(
      (i) =>
        intentFold(ts.items[i]!) !== f &&
        (share >= 100 || bucket(`${itemKey(ts.items[i]!)}#curve${draw}`, 100) < share),
    );
    texts += train.length / FOLDS;
    const m = fitOn(ts, [...train, ...extras], SHIPPED);
    for (const i of pool)
      if (intentFold(ts.items[i]!) === f) {
        g.push(gold(i));
        p.push(INTENTS.indexOf(intentOf(m, ts.X[i]!)));
      }
  }
  return { f1: macroF1(g, p, INTENTS.length), texts: Math.round(texts) };
}

console.log(
  `intent learning curve, ${PROVIDER}, shipped settings; pool ${pool.length} labelled texts, ${extras.length} extra examples`,
);
for (const share of shares) {
  const points = Array.from({ length: share >= 100 ? 1 : DRAWS }, (_d, d) => curvePoint(share, d + 1));
  const mean = points.reduce((s, x) => s + x.f1, 0) / points.length;
  console.log(
    `${share}% (about ${points[0]!.texts} labelled texts per fit): ${mean.toFixed(4)}${points.length > 1 ? ` (draws ${points.map((x) => x.f1.toFixed(4)).join(', ')})` : ''}`,
  );
}
