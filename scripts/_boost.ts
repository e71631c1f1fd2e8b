import { INTENTS } from '../src/contract/items.js';
import { INTENT_DENSE, intentScores } from '../src/enrichment/engine/intent.js';
import { gbdtScores } from './train/gbdt.js';
import { extrasOf, fitOn, fitTrees, intentFold, intentPool, poolOf, target, trainingSet, INTENT_FIT_DEFAULTS } from './train/intent.js';
import { argmax, macroF1 } from './train/metrics.js';
import { FOLDS } from './train/splits.js';
const provider = (process.argv[2] ?? 'model-2.0-flash') as 'model-2.0-flash';
const beta = Number(process.argv[3]);
const ts = trainingSet(intentPool(), provider);
const pool = poolOf(ts);
const extras = extrasOf(ts);
const opts = { ...INTENT_FIT_DEFAULTS, l2Words: 1e-4, purchaseBoost: 2 };
const lin = new Map<number, Float64Array>();
const tr = new Map<number, Float64Array>();
for (let f = 0; f < FOLDS; f++) {
  const train = pool.filter((i) => intentFold(ts.items[i]!) !== f);
  const m = fitOn(ts, [...train, ...extras], opts);
  const t = fitTrees(ts, train);
  for (const i of pool) if (intentFold(ts.items[i]!) === f) { lin.set(i, intentScores(m, ts.X[i]!)); tr.set(i, gbdtScores(t, ts.X[i]!.dense)); }
}
const AT = (INTENT_DENSE as readonly string[]).indexOf('purchase pattern');
const P = INTENTS.indexOf('purchase_intent');
const gold = pool.map((i) => target(ts.items[i]!.label));
const matched = pool.filter((i) => ts.X[i]!.dense[AT] === 1);
const pred = (i: number, b: number, w: number) => argmax(lin.get(i)!.map((v, c) => v + (c === P && ts.X[i]!.dense[AT] === 1 ? b : 0) + w * tr.get(i)![c]!));
const before = new Set(matched.filter((i) => pred(i, 0, 0) === P));
for (const b of [0, 1, 2, 3, 4]) {
  const f = macroF1(gold, pool.map((i) => pred(i, b, beta)), INTENTS.length);
  const lost = [...before].filter((i) => pred(i, b, beta) !== P).length;
  const mp = matched.filter((i) => pred(i, b, beta) === P).length;
  console.log(`${provider} β ${beta} extra ${b}: pooled ${f.toFixed(4)}; matched read purchase ${mp} of ${matched.length}; of the ${before.size} read purchase without trees, ${lost} lost`);
}
