// Gradient-boosted decision trees for multiclass classification (softmax loss, second-order leaf
// values, histogram splits over quantile bins, as LightGBM and XGBoost grow them), for experiments on
// dense inputs: each round fits one tree per class to the gradient and hessian of the weighted
// log-loss at the current scores. Deterministic: the feature subsample of each tree comes from a
// seeded generator.

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

/** The trees, all of depth `depth`, in one flat layout: tree t's internal node k (0-based, children
 *  2k + 1 and 2k + 2) is at t · (2^depth − 1) + k and sends a row whose bin of `feature` is at most
 *  `threshold` left; its leaf j is at t · 2^depth + j. A node that does not split sends every row
 *  left (threshold 255), down to the leaf that holds its value. Tree t is round ⌊t / classes⌋'s tree
 *  of class t mod classes. */
export interface GbdtModel {
  classes: number;
  depth: number;
  /** features per row */
  features: number;
  /** per feature, its bin edges (ascending, padded with +∞ to `span`, a power of two): a value v
   *  falls in bin "number of edges ≤ v" */
  span: number;
  edges: Float64Array;
  /** the features some tree splits on: gbdtScores bins only those (every other one reads as bin 0,
   *  which only a node that does not split reads) */
  used: Int32Array;
  feature: Int32Array;
  threshold: Uint8Array;
  leaf: Float64Array;
}

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

/** the bin of value v of feature f: a fixed number of steps, without a branch on the data */
function binOf(m: GbdtModel, f: number, v: number): number {
  const base = f * m.span;
  let at = 0;
  for (let step = m.span >> 1; step > 0; step >>= 1) at += step * +(v >= m.edges[base + at + step - 1]!);
  return at;
}

/** the value of tree t's leaf that the binned row `b` reaches */
function leafOf(m: GbdtModel, t: number, b: Uint8Array): number {
  const internal = (1 << m.depth) - 1;
  const base = t * internal;
  let k = 0;
  // right when the bin is above the threshold: (threshold − bin) >>> 31 is 1 then, else 0 (no branch
  // to mispredict)
  for (let level = 0; level < m.depth; level++)
    k = 2 * k + 1 + ((m.threshold[base + k]! - b[m.feature[base + k]!]!) >>> 31);
  return m.leaf[t * (internal + 1) + k - internal]!;
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
          for (const i of idx) {
            const b = rows[i]![f]!;
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
          idx.filter((i) => rows[i]![bestF]! <= bestBin),
          2 * k + 1,
          depth + 1,
        );
        grow(
          idx.filter((i) => rows[i]![bestF]! > bestBin),
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
  const split = new Uint8Array(d);
  for (let k = 0; k < model.feature.length; k++) if (model.threshold[k] !== 255) split[model.feature[k]!] = 1;
  const used: number[] = [];
  for (let f = 0; f < d; f++) if (split[f]) used.push(f);
  model.used = Int32Array.from(used);
  return model;
}

/** the model's scores (logits) for one row */
export function gbdtScores(model: GbdtModel, x: ArrayLike<number>): Float64Array {
  const b = new Uint8Array(model.features);
  for (const f of model.used) b[f] = binOf(model, f, x[f]!);
  const z = new Float64Array(model.classes);
  const trees = model.leaf.length >> model.depth;
  for (let t = 0; t < trees; t++) z[t % model.classes]! += leafOf(model, t, b);
  return z;
}
