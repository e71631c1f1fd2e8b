// Pooled out-of-fold macro-F1 of the intent model over the whole pool (5-fold CV, flash) for
// settings that differ from the shipped ones, so that a setting left out of the grid or fixed by
// hand (docs/enrichment.md, Intent: the word L2, the buying pattern's boost) can be compared as it
// was. Each variant is a JSON object of IntentFitOptions fields laid over the shipped settings; `{}`
// reads the shipped settings themselves. Also prints how the pool's texts the buying pattern and the
// forum-request pattern match are labelled. About a minute per variant with INTENT_LINEAR=1, a few
// more with the trees, which are fitted in every fold.
//   npx tsx scripts/eval/intent-settings.ts '{}' '{"l2Words":0.001}' '{"purchaseBoost":0}'
//   INTENT_LINEAR=1 reads the shipped linear model alone, without the trees (checkSettings in
//   scripts/train/intent.ts): the model the figures docs/enrichment.md quotes from this script were
//   taken with, before the trees
import { INTENTS } from '../../src/contract/items.js';
import { INTENT_DENSE, type IntentInputVector } from '../../src/enrichment/engine/intent.js';
import {
  checkSettings,
  type IntentFitOptions,
  intentPool,
  oofMacroF1,
  outOfFold,
  poolOf,
  trainingSet,
} from '../train/intent.js';

const PROVIDER = 'model-2.0-flash';
const variants = process.argv.slice(2).map((a) => JSON.parse(a) as Partial<IntentFitOptions>);
if (variants.length === 0)
  throw new Error(`give one or more settings as JSON, e.g. '{}' '{"l2Words":0.001}'`);

const ts = trainingSet(intentPool(), PROVIDER);
const pool = poolOf(ts);
const shipped = checkSettings()[PROVIDER];
const PURCHASE = INTENTS.indexOf('purchase_intent');

const buying = INTENT_DENSE.indexOf('purchase pattern');
const selling = INTENT_DENSE.indexOf('selling or refusing to buy');
/** how the pool's texts that `matches` takes are labelled, and how many they are */
function labelsWhere(matches: (x: IntentInputVector) => boolean): string {
  const labels: Record<string, number> = {};
  for (const i of pool)
    if (matches(ts.X[i]!)) {
      const label = String(ts.items[i]!.label);
      labels[label] = (labels[label] ?? 0) + 1;
    }
  return `${Object.values(labels).reduce((a, b) => a + b, 0)}: ${JSON.stringify(labels)}`;
}
console.log(
  `${PROVIDER}; pool ${pool.length} texts; the buying pattern (not the selling one) matches ${labelsWhere((x) => x.dense[buying] === 1 && x.dense[selling] !== 1)}`,
);
console.log(`the forum-request pattern (requestBoost) matches ${labelsWhere((x) => x.request)}`);
for (const v of variants) {
  const oof = outOfFold(ts, pool, { ...shipped, ...v });
  const purchases = pool.filter((i) => oof.get(i) === PURCHASE).length;
  console.log(
    `${JSON.stringify(v)}: ${oofMacroF1(ts, pool, oof).toFixed(4)} (purchase_intent predicted ${purchases} times)`,
  );
}
