// Gradient-boosted decision trees for multiclass classification (softmax loss, second-order leaf
// values, histogram splits over quantile bins, as LightGBM and XGBoost grow them) over dense inputs:
// the intent model's trees (scripts/train/intent.ts). Each round fits one tree per class to the
// gradient and hessian of the weighted log-loss at the current scores. Deterministic: the feature
// subsample of each tree comes from a seeded generator. The reader, and the model's layout, are the
// analyzer's (src/enrichment/engine/gbdt.ts).
import { binOf, type GbdtModel, leafOf, usedFeatures } from '../../src/enrichment/engine/gbdt.js';

export { type GbdtModel, gbdtScores } from '../../src/enrichment/engine/gbdt.js';

export interface GbdtOptions {
  /** boosting rounds (one tree per class each) */
  rounds: number;
  /** shrinkage applied to every leaf value */
  eta: number;
  /** depth of each tree (a tree of depth d has at most 2^d leaves) */
  depth: number;
  /** L2 on the leaf values (added to the hessian sum) */
  lambda: number;
  /** a split must leave at least this hessian sum on each side */
  minHessian: number;
  /** share of the features each tree may split on */
  colSample: number;
  /** quantile bins per feature (at most 256) */
  bins: number;
  seed: number;
}

export const GBDT_DEFAULTS: GbdtOptions = {
  rounds: 150,
  eta: 0.05,
  depth: 3,
  lambda: 1,
  minHessian: 2,
  colSample: 0.5,
  bins: 32,
  seed: 12345,
};

/** the bin edges of one feature: its quantiles over the training rows, without repeats, written
 *  at out[at ..] */
function writeBinEdges(values: Float64Array, bins: number, out: Float64Array, at: number): void {
  const sorted = values.sort();
  let n = 0;
  for (let b = 1; b < bins; b++) {
    const v = sorted[Math.floor((b * sorted.length) / bins)]!;
    if (n === 0 || v > out[at + n - 1]!) out[at + n++] = v;
  }
}

/** Fits the model to rows `x` (all of one length) with class labels `y` in [0, classes) and
 *  per-row weights `w`. */
export function fitGbdt(
  x: readonly ArrayLike<number>[],
  y: readonly number[],
  w: readonly number[],
  classes: number,
  opts: GbdtOptions = GBDT_DEFAULTS,
): GbdtModel {
  const n = x.length;
  const d = x[0]?.length ?? 0;
  if (opts.bins > 256) throw new Error('gbdt: at most 256 bins');
  let span = 1;
  while (span < opts.bins) span *= 2;
  const internal = (1 << opts.depth) - 1;
  const nTrees = opts.rounds * classes;
  const model: GbdtModel = {
    classes,
    depth: opts.depth,
    features: d,
    span,
    edges: new Float64Array(d * span).fill(Number.POSITIVE_INFINITY),
    used: new Int32Array(0),
    feature: new Int32Array(nTrees * internal),
    threshold: new Uint8Array(nTrees * internal).fill(255),
    leaf: new Float64Array(nTrees * (internal + 1)),
  };
  for (let f = 0; f < d; f++)
    writeBinEdges(
      Float64Array.from(x, (r) => r[f]!),
      opts.bins,
      model.edges,
      f * span,
    );
  const rows = x.map((r) => Uint8Array.from({ length: d }, (_v, f) => binOf(model, f, r[f]!)));
  // the same bins by feature, read in row order by the histograms
  const cols = Array.from({ length: d }, (_v, f) => Uint8Array.from(rows, (r) => r[f]!));
  const scores = Array.from({ length: n }, () => new Float64Array(classes));
  const probs = new Float64Array(n * classes);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const histG = new Float64Array(opts.bins);
  const histH = new Float64Array(opts.bins);
  let seed = opts.seed | 0;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) | 0;
    return (seed >>> 0) / 2 ** 32;
  };
  for (let round = 0; round < opts.rounds; round++) {
    for (let i = 0; i < n; i++) {
      const z = scores[i]!;
      let m = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < classes; c++) m = Math.max(m, z[c]!);
      let s = 0;
      for (let c = 0; c < classes; c++) s += Math.exp(z[c]! - m);
      for (let c = 0; c < classes; c++) probs[i * classes + c] = Math.exp(z[c]! - m) / s;
    }
    for (let c = 0; c < classes; c++) {
      for (let i = 0; i < n; i++) {
        const p = probs[i * classes + c]!;
        g[i] = w[i]! * (p - (y[i] === c ? 1 : 0));
        h[i] = w[i]! * Math.max(p * (1 - p), 1e-6);
      }
      const features: number[] = [];
      for (let f = 0; f < d; f++) if (random() < opts.colSample) features.push(f);
      const t = round * classes + c;
      /** node k of tree t at `depth` becomes a leaf worth `value` */
      const leafAt = (k: number, depth: number, value: number): void => {
        for (; depth < opts.depth; depth++) {
          model.feature[t * internal + k] = 0;
          model.threshold[t * internal + k] = 255;
          k = 2 * k + 1;
        }
        model.leaf[t * (internal + 1) + k - internal] = value;
      };
      const grow = (idx: number[], k: number, depth: number): void => {
        let G = 0;
        let H = 0;
        for (const i of idx) {
          G += g[i]!;
          H += h[i]!;
        }
        const value = (-G / (H + opts.lambda)) * opts.eta;
        if (depth >= opts.depth) {
          leafAt(k, depth, value);
          return;
        }
        let best = 0;
        let bestF = -1;
        let bestBin = -1;
        for (const f of features) {
          histG.fill(0);
          histH.fill(0);
          const col = cols[f]!;
          for (const i of idx) {
            const b = col[i]!;
            histG[b]! += g[i]!;
            histH[b]! += h[i]!;
          }
          let gl = 0;
          let hl = 0;
          for (let b = 0; b < opts.bins - 1; b++) {
            gl += histG[b]!;
            hl += histH[b]!;
            const gr = G - gl;
            const hr = H - hl;
            if (hl < opts.minHessian || hr < opts.minHessian) continue;
            const gain =
              (gl * gl) / (hl + opts.lambda) + (gr * gr) / (hr + opts.lambda) - (G * G) / (H + opts.lambda);
            if (gain > best) {
              best = gain;
              bestF = f;
              bestBin = b;
            }
          }
        }
        if (bestF < 0) {
          leafAt(k, depth, value);
          return;
        }
        model.feature[t * internal + k] = bestF;
        model.threshold[t * internal + k] = bestBin;
        grow(
          idx.filter((i) => cols[bestF]![i]! <= bestBin),
          2 * k + 1,
          depth + 1,
        );
        grow(
          idx.filter((i) => cols[bestF]![i]! > bestBin),
          2 * k + 2,
          depth + 1,
        );
      };
      grow(
        Array.from({ length: n }, (_v, i) => i),
        0,
        0,
      );
      for (let i = 0; i < n; i++) scores[i]![c]! += leafOf(model, t, rows[i]!);
    }
  }
  model.used = usedFeatures(d, model.feature, model.threshold);
  return model;
}
