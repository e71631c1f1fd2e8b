// The weight of the complaints corpus's extra examples in the intent model (IntentFitOptions
// .partialWeight), compared as it is chosen: for each weight, intent macro-F1 under nested CV on the
// intent pool and complaints-through-intent macro-F1 under CV on the complaints pool (both flash),
// and their mean; the shipped weight is the one with the best mean (docs/enrichment.md, Intent).
//   npx tsx scripts/eval/intent-extra-weight.ts [weight,…]   (default 0.25,0.5,0.75,1; ~8 min each
//   with INTENT_LINEAR=1, longer with the trees, which are fitted in every fold)
//   INTENT_LINEAR=1 reads the shipped linear model alone, without the trees (checkSettings in
//   scripts/train/intent.ts): the model the figures docs/enrichment.md quotes from this script were
//   taken with, before the trees
import { complaintViaIntentFolds } from '../train/complaint.js';
import {
  checkSettings,
  checkTreeWeights,
  INTENT_GRID,
  intentPool,
  nestedCv,
  trainingSet,
} from '../train/intent.js';

const PROVIDER = 'model-2.0-flash';
const SHIPPED = checkSettings()[PROVIDER];
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

const weights = (process.argv[2] ?? '0.25,0.5,0.75,1').split(',').map(Number);
const ts = trainingSet(intentPool(), PROVIDER);
console.log(`extra-example weight: intent (nested CV) / complaints through intent (CV) / mean, ${PROVIDER}`);
for (const w of weights) {
  const intent = mean(
    nestedCv(
      ts,
      INTENT_GRID.map((o) => ({ ...o, partialWeight: w })),
      checkTreeWeights(),
    ).cv,
  );
  const complaint = mean(
    complaintViaIntentFolds(() => ({ ...SHIPPED, partialWeight: w })).intent![PROVIDER]!,
  );
  const shipped = w === SHIPPED.partialWeight ? ' (shipped)' : '';
  console.log(
    `${w}: ${intent.toFixed(4)} / ${complaint.toFixed(4)} / ${((intent + complaint) / 2).toFixed(4)}${shipped}`,
  );
}
