// Pooled out-of-fold macro-F1 of the intent model over the whole pool (5-fold CV, flash) for
// settings that differ from the shipped ones, so that a setting left out of the grid or fixed by
// hand (docs/enrichment.md, Intent: the word L2, the buying pattern's boost) can be compared as it
// was. Each variant is a JSON object of IntentFitOptions fields laid over the shipped settings; `{}`
// reads the shipped settings themselves. Also prints how the pool's texts the buying pattern and the
// forum-request pattern match are labelled. About a minute per variant.
//   npx tsx scripts/eval/intent-settings.ts '{}' '{"l2Words":0.001}' '{"purchaseBoost":0}'
import { INTENTS } from '../../src/contract/items.js';
import { INTENT_DENSE } from '../../src/enrichment/engine/intent.js';
import {
  type IntentFitOptions,
  intentDev,
  isIntentFinal,
  outOfFold,
  poolOf,
  shippedSettings,
  target,
  trainingSet,
} from '../train/intent.js';
import { macroF1 } from '../train/metrics.js';

const PROVIDER = 'model-2.0-flash';
const variants = process.argv.slice(2).map((a) => JSON.parse(a) as Partial<IntentFitOptions>);
if (variants.length === 0)
  throw new Error(`give one or more settings as JSON, e.g. '{}' '{"l2Words":0.001}'`);

const ts = trainingSet(
  intentDev().filter((it) => !isIntentFinal(it)),
  PROVIDER,
);
const pool = poolOf(ts);
const shipped = shippedSettings()[PROVIDER];
const PURCHASE = INTENTS.indexOf('purchase_intent');

const buying = INTENT_DENSE.indexOf('purchase pattern');
const selling = INTENT_DENSE.indexOf('selling or refusing to buy');
const matched: Record<string, number> = {};
for (const i of pool)
  if (ts.X[i]!.dense[buying] === 1 && ts.X[i]!.dense[selling] !== 1) {
    const label = String(ts.items[i]!.label);
    matched[label] = (matched[label] ?? 0) + 1;
  }
console.log(
  `${PROVIDER}; pool ${pool.length} texts; the buying pattern (not the selling one) matches ${Object.values(matched).reduce((a, b) => a + b, 0)}: ${JSON.stringify(matched)}`,
);
const requests: Record<string, number> = {};
for (const i of pool)
  if (ts.X[i]!.request) {
    const label = String(ts.items[i]!.label);
    requests[label] = (requests[label] ?? 0) + 1;
  }
console.log(
  `the forum-request pattern (requestBoost) matches ${Object.values(requests).reduce((a, b) => a + b, 0)}: ${JSON.stringify(requests)}`,
);
for (const v of variants) {
  const oof = outOfFold(ts, pool, { ...shipped, ...v });
  const pred = pool.map((i) => oof.get(i)!);
  const f1 = macroF1(
    pool.map((i) => target(ts.items[i]!.label)),
    pred,
    INTENTS.length,
  );
  const purchases = pred.filter((c) => c === PURCHASE).length;
  console.log(`${JSON.stringify(v)}: ${f1.toFixed(4)} (purchase_intent predicted ${purchases} times)`);
}
