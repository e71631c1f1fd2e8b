// Whether a new round of intent labels helps the texts labelled before it: the labels of
// eval/intent-dev.jsonl from line <first> on are the new round(s). Under the 5-fold CV of the pool
// (flash, the shipped settings), the earlier pool texts are read out of fold by models fitted
// without and with the new pool texts in training, and the new texts by the models fitted with them
// (docs/enrichment.md, Intent, "How many labels the 0.65 target needs"). A round is appended to
// intent-dev.jsonl, checked with this script, and kept or moved to eval/intent-round<N>.jsonl (which
// sample-intent.ts skips) before any model is retrained.
//   npx tsx scripts/eval/intent-round-gain.ts [first line of the new rounds, 1-based; default 7518]
//   INTENT_LINEAR=1 reads the shipped linear model alone, without the trees (checkSettings in
//   scripts/train/intent.ts): the model the figures docs/enrichment.md quotes from this script were
//   taken with, before the trees
import {
  checkSettings,
  complaintExtras,
  type IntentTrainingSet,
  inputsOf,
  intentDev,
  isIntentFinal,
  oofMacroF1,
  outOfFold,
} from '../train/intent.js';

const PROVIDER = 'model-2.0-flash';

const first = Number(process.argv[2] ?? 7518);
const all = intentDev();
if (!Number.isInteger(first) || first < 2 || first > all.length)
  throw new Error(`the first line of the new rounds is a line of eval/intent-dev.jsonl: 2..${all.length}`);
const earlier = all.slice(0, first - 1).filter((it) => !isIntentFinal(it));
const added = all.slice(first - 1).filter((it) => !isIntentFinal(it));
const items = [...earlier, ...added, ...complaintExtras()];
const ts: IntentTrainingSet = { items, X: inputsOf(items, PROVIDER), nPool: earlier.length + added.length };
const earlierIdx = earlier.map((_x, i) => i);
const addedIdx = added.map((_x, i) => earlier.length + i);
const f1 = (oof: Map<number, number>, idx: readonly number[]) => oofMacroF1(ts, idx, oof).toFixed(4);

const shipped = checkSettings()[PROVIDER];
const without = outOfFold(ts, earlierIdx, shipped);
const withNew = outOfFold(ts, [...earlierIdx, ...addedIdx], shipped);
console.log(
  `${PROVIDER}, shipped settings; pool: ${earlier.length} earlier texts, ${added.length} new (lines ${first}-${all.length}), ${ts.items.length - ts.nPool} extra examples`,
);
console.log(`earlier texts, fitted without the new ones: ${f1(without, earlierIdx)}`);
console.log(`earlier texts, fitted with the new ones:    ${f1(withNew, earlierIdx)}`);
console.log(
  `new texts: ${f1(withNew, addedIdx)}; the whole pool: ${f1(withNew, [...earlierIdx, ...addedIdx])}`,
);
