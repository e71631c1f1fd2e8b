// Gradient-boosted trees over the intent model's dense inputs (the cues, the sentiment and complaint
// readings, the conjunctions and the text's word vector) and the presence of its commonest words
// (scripts/train/gbdt.ts) against the
// intent model's linear part alone: the measurement the trees were shipped on (docs/enrichment.md,
// Intent, "Gradient-boosted trees"). Over the intent pool (flash, the shipped linear settings
// without the trees; the trees fitted as shipped, fitTrees, on the pool's labelled texts weighted by
// the square root of each label's inverse frequency, with the options given):
//  - pooled out-of-fold macro-F1 of the linear model alone, of the trees alone, and of the linear
//    logits plus β times the trees' scores for each β of BETAS (β chosen here would be chosen on
//    the figures it reports);
//  - a nested CV: for each held-out fold, β is chosen by an inner 4-fold CV over the other four
//    folds, and the models fitted on those four read the fifth (mean ± sd over the five folds, and
//    pooled), beside the linear model alone on the same folds.
//   npx tsx scripts/eval/intent-gbdt.ts ['<GbdtOptions as JSON, over GBDT_DEFAULTS>']   (10-20 minutes)
//   TREE_WORDS=<n>: the trees read the presence of the n commonest words beside the dense inputs
//   (default TREE_WORDS of scripts/train/intent.ts; 0: the dense inputs alone)
import { INTENTS } from '../../src/contract/items.js';
import { type IntentModel, type IntentTrees, intentScores } from '../../src/enrichment/engine/intent.js';
import { GBDT_DEFAULTS, type GbdtOptions } from '../train/gbdt.js';
import {
  extrasOf,
  fitOn,
  fitTrees,
  intentFold,
  intentPool,
  poolOf,
  shippedSettings,
  TREE_WEIGHTS,
  TREE_WORDS,
  target,
  trainingSet,
  treeScores,
  withoutTrees,
} from '../train/intent.js';
import { argmax, macroF1 } from '../train/metrics.js';
import { FOLDS, meanSd } from '../train/splits.js';

const PROVIDER = 'model-2.0-flash';
/** the words the trees read beside the dense inputs (TREE_WORDS=0: the dense inputs alone, as the
 *  trees were first shipped) */
const WORDS = Number(process.env.TREE_WORDS ?? TREE_WORDS);
const BETAS = TREE_WEIGHTS;
const C = INTENTS.length;
const opts: GbdtOptions = {
  ...GBDT_DEFAULTS,
  ...(JSON.parse(process.argv[2] ?? '{}') as Partial<GbdtOptions>),
};

const ts = trainingSet(intentPool(), PROVIDER);
const pool = poolOf(ts);
const extras = extrasOf(ts);
/** the shipped settings without the trees, and so with the purchase boost the linear model has
 *  alone (chooseSettings raises it only with trees) */
const linearAlone = withoutTrees(shippedSettings()[PROVIDER]);
const fold = new Map(pool.map((i) => [i, intentFold(ts.items[i]!)]));
const gold = new Map(pool.map((i) => [i, target(ts.items[i]!.label)]));

/** the linear model (without trees) and the trees fitted on the pool texts `train` (the linear one
 *  also on the complaints corpus's extras, as shipped) */
function fitBoth(train: readonly number[]): { linear: IntentModel; trees: IntentTrees } {
  return {
    linear: fitOn(ts, [...train, ...extras], linearAlone),
    trees: fitTrees(ts, train, opts, WORDS),
  };
}

/** both models' scores for each text of `read` */
function scoresOf(models: { linear: IntentModel; trees: IntentTrees }, read: readonly number[]) {
  return new Map(
    read.map((i) => [
      i,
      { linear: intentScores(models.linear, ts.X[i]!), trees: treeScores(models.trees, ts.X[i]!) },
    ]),
  );
}

type Scores = ReturnType<typeof scoresOf>;
const predict = (s: { linear: Float64Array; trees: Float64Array }, beta: number) =>
  argmax(s.linear.map((v, c) => v + beta * s.trees[c]!));
const f1Of = (idx: readonly number[], pred: (i: number) => number) =>
  macroF1(
    idx.map((i) => gold.get(i)!),
    idx.map(pred),
    C,
  );

const t0 = performance.now();
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(0)} s`;
// the outer folds' models, fitted once: the pooled figures and the nested CV's outer step share them
const outer: Scores = new Map();
for (let f = 0; f < FOLDS; f++) {
  const held = pool.filter((i) => fold.get(i) === f);
  for (const [i, s] of scoresOf(fitBoth(pool.filter((i) => fold.get(i) !== f)), held)) outer.set(i, s);
  console.error(`outer fold ${f} fitted (${elapsed()})`);
}
console.log(`${PROVIDER}; pool ${pool.length} texts; trees ${JSON.stringify(opts)}, ${WORDS} words`);
console.log(
  `pooled out of fold: linear alone ${f1Of(pool, (i) => argmax(outer.get(i)!.linear)).toFixed(4)}, trees alone ${f1Of(pool, (i) => argmax(outer.get(i)!.trees)).toFixed(4)}`,
);
console.log(
  `  linear + β × trees: ${BETAS.map((b) => `β ${b}: ${f1Of(pool, (i) => predict(outer.get(i)!, b)).toFixed(4)}`).join(', ')}`,
);

// nested: β chosen per outer fold by an inner CV over the other four folds
const nested: number[] = [];
const linearOnly: number[] = [];
const chosen: number[] = [];
const nestedPred = new Map<number, number>();
for (let f = 0; f < FOLDS; f++) {
  const rest = pool.filter((i) => fold.get(i) !== f);
  const inner: Scores = new Map();
  for (let g = 0; g < FOLDS; g++) {
    if (g === f) continue;
    const held = rest.filter((i) => fold.get(i) === g);
    for (const [i, s] of scoresOf(fitBoth(rest.filter((i) => fold.get(i) !== g)), held)) inner.set(i, s);
  }
  let beta = BETAS[0]!;
  let bestF = -1;
  for (const b of BETAS) {
    const v = f1Of(rest, (i) => predict(inner.get(i)!, b));
    if (v > bestF + 1e-9) {
      bestF = v;
      beta = b;
    }
  }
  chosen.push(beta);
  const held = pool.filter((i) => fold.get(i) === f);
  for (const i of held) nestedPred.set(i, predict(outer.get(i)!, beta));
  nested.push(f1Of(held, (i) => nestedPred.get(i)!));
  linearOnly.push(f1Of(held, (i) => argmax(outer.get(i)!.linear)));
  console.error(`nested fold ${f}: β ${beta} (${elapsed()})`);
}
const ms = (xs: number[]) => {
  const { mean, sd } = meanSd(xs);
  return `${mean.toFixed(4)} ± ${sd.toFixed(4)}`;
};
console.log(
  `nested CV (β chosen per fold: ${chosen.join(', ')}): ${ms(nested)} (pooled ${f1Of(pool, (i) => nestedPred.get(i)!).toFixed(4)}), linear alone on the same folds ${ms(linearOnly)}`,
);
console.log(
  `  per fold, with the trees against without: ${nested.map((v, f) => `${v.toFixed(4)} / ${linearOnly[f]!.toFixed(4)}`).join(', ')}`,
);
const perLabel = INTENTS.map((label, c) => {
  const n = (pred: (i: number) => number) => pool.filter((i) => pred(i) === c).length;
  return `${label} ${n((i) => nestedPred.get(i)!)} (linear ${n((i) => argmax(outer.get(i)!.linear))}) / ${pool.filter((i) => gold.get(i) === c).length}`;
});
console.log(`predicted / true: ${perLabel.join(', ')}`);
