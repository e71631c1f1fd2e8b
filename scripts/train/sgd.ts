// Multinomial logistic regression on hashed sparse features, trained with AdaGrad and a seeded
// shuffle, so a run gives the same weights every time; then quantized to int8.
import { domainCopy, extractHashes, type FeatureSpec } from '../../src/enrichment/engine/features.js';
import {
  type LinearHeader,
  type LinearModel,
  logitsOf,
  softmax,
} from '../../src/enrichment/engine/linear.js';
import { tokenize } from '../../src/enrichment/engine/tokenizer.js';

export interface TrainOptions {
  spec: FeatureSpec;
  classes: readonly string[];
  epochs: number;
  lr: number;
  l2: number;
  sqrtNorm: boolean;
  seed: number;
  /** weight examples so each class counts equally (macro metrics) */
  balanced: boolean;
  /** average the weights at the end of each epoch from this one (0-based) on; default: last only */
  averageFrom?: number;
  /** weight blocks per feature (see LinearHeader.blocks); default 1 */
  blocks?: number;
  /** soft targets (class distributions) of some examples, by index: they replace the one-hot
   *  target of `labels` there; the class weight is the target's mix of the class weights.
   *  Class counts for `balanced` come from the hard-labelled examples only. */
  soft?: ReadonlyMap<number, readonly number[]>;
  /** an example weight per example (default 1) */
  exampleWeight?: (ex: number) => number;
  /** a fixed scale of each weight ([feature][class], e.g. naive-Bayes log-count ratios): the
   *  model learns w and uses w·scale, which is folded into the returned weights */
  featScale?: Float32Array;
}

export interface Encoded {
  offsets: Int32Array;
  feats: Int32Array;
  /** with grouped normalization: the group of each feature (0 word n-grams, 1 character n-grams);
   *  each group is scaled by 1/sqrt(its own count) instead of one count for all */
  groups?: Uint8Array;
}

export function encode(
  texts: readonly string[],
  spec: FeatureSpec,
  domains?: readonly number[],
  tokenizer: (text: string) => string[] = tokenize,
  blocks = 1,
): Encoded {
  return encodeTokens(
    texts.map((t) => tokenizer(t)),
    spec,
    domains,
    blocks,
  );
}

/** Feature indices of pre-tokenized texts. With `domains`, each feature also gets its domain's
 *  twin: with blocks = 1 a hashed copy in the same table, with blocks = 1 + domains the block of
 *  that domain next to the shared weights (feature index f * blocks + block). */
export function encodeTokens(
  tokenLists: readonly (readonly string[])[],
  spec: FeatureSpec,
  domains?: readonly number[],
  blocks = 1,
  grouped = false,
): Encoded {
  const offsets = new Int32Array(tokenLists.length + 1);
  const chunks: number[] = [];
  const kinds: number[] = [];
  let all: Int32Array = new Int32Array(1 << 20);
  let groups = new Uint8Array(grouped ? 1 << 20 : 0);
  let n = 0;
  tokenLists.forEach((tokens, i) => {
    chunks.length = 0;
    kinds.length = 0;
    extractHashes(tokens, spec, chunks, kinds);
    const mask = (1 << spec.bits) - 1;
    for (let k = 0; k < chunks.length; k++) chunks[k] = chunks[k]! & mask;
    const d = domains?.[i];
    const n0 = chunks.length;
    if (grouped) {
      for (let k = 0; k < n0; k++) kinds[k] = kinds[k]! >= 2 ? 1 : 0;
      if ((blocks > 1 || d !== undefined) && d !== undefined)
        for (let k = 0; k < n0; k++) kinds.push(kinds[k]!);
    }
    if (blocks > 1) {
      for (let k = 0; k < n0; k++) chunks[k] = chunks[k]! * blocks;
      if (d !== undefined) for (let k = 0; k < n0; k++) chunks.push(chunks[k]! + 1 + d);
    } else if (d !== undefined) {
      for (let k = 0; k < n0; k++) chunks.push(domainCopy(chunks[k]!, d, spec.bits));
    }
    if (n + chunks.length > all.length) {
      const bigger = new Int32Array(Math.max(all.length * 2, n + chunks.length));
      bigger.set(all.subarray(0, n));
      all = bigger;
      if (grouped) {
        const g = new Uint8Array(bigger.length);
        g.set(groups.subarray(0, n));
        groups = g;
      }
    }
    all.set(chunks, n);
    if (grouped) groups.set(kinds, n);
    n += chunks.length;
    offsets[i + 1] = n;
  });
  return grouped
    ? { offsets, feats: all.slice(0, n), groups: groups.slice(0, n) }
    : { offsets, feats: all.slice(0, n) };
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FloatModel {
  weights: Float32Array;
  bias: Float64Array;
}

export function train(data: Encoded, labels: readonly number[], opts: TrainOptions): FloatModel {
  const C = opts.classes.length;
  const dim = (1 << opts.spec.bits) * (opts.blocks ?? 1);
  const W = new Float32Array(dim * C);
  const G = new Float32Array(dim * C);
  const bias = new Float64Array(C);
  const gb = new Float64Array(C);
  const counts = new Array<number>(C).fill(0);
  labels.forEach((y, i) => {
    if (!opts.soft?.has(i)) counts[y]!++;
  });
  const classWeight = counts.map((c) => (opts.balanced ? labels.length / (C * Math.max(1, c)) : 1));
  const order = Array.from(labels.keys());
  const rnd = mulberry32(opts.seed);
  const avgFrom = opts.averageFrom ?? opts.epochs - 1;
  const avgW = new Float64Array(dim * C);
  const avgB = new Float64Array(C);
  let snapshots = 0;
  const z = new Float64Array(C);
  const g = new Float64Array(C);
  const groups = data.groups;
  const gv = new Float64Array(2);
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      const t = order[i]!;
      order[i] = order[j]!;
      order[j] = t;
    }
    for (const ex of order) {
      const start = data.offsets[ex]!;
      const end = data.offsets[ex + 1]!;
      const n = end - start;
      const v = opts.sqrtNorm && n > 0 ? 1 / Math.sqrt(n) : 1;
      if (groups) {
        let n0 = 0;
        for (let p = start; p < end; p++) if (groups[p] === 0) n0++;
        gv[0] = n0 > 0 ? 1 / Math.sqrt(n0) : 0;
        gv[1] = n - n0 > 0 ? 1 / Math.sqrt(n - n0) : 0;
      } else gv[0] = gv[1] = v;
      for (let k = 0; k < C; k++) z[k] = 0;
      const S = opts.featScale;
      for (let p = start; p < end; p++) {
        const base = data.feats[p]! * C;
        const f = groups ? gv[groups[p]!]! : 1;
        if (S) for (let k = 0; k < C; k++) z[k]! += W[base + k]! * S[base + k]! * f;
        else for (let k = 0; k < C; k++) z[k]! += W[base + k]! * f;
      }
      let max = -Infinity;
      for (let k = 0; k < C; k++) {
        z[k] = z[k]! * (groups ? 1 : v) + bias[k]!;
        if (z[k]! > max) max = z[k]!;
      }
      let s = 0;
      for (let k = 0; k < C; k++) {
        z[k] = Math.exp(z[k]! - max);
        s += z[k]!;
      }
      const y = labels[ex]!;
      const t = opts.soft?.get(ex);
      let cw = classWeight[y]!;
      if (t) {
        cw = 0;
        for (let k = 0; k < C; k++) cw += t[k]! * classWeight[k]!;
      }
      if (opts.exampleWeight) cw *= opts.exampleWeight(ex);
      for (let k = 0; k < C; k++) {
        g[k] = (z[k]! / s - (t ? t[k]! : k === y ? 1 : 0)) * cw;
        gb[k]! += g[k]! * g[k]!;
        bias[k]! -= (opts.lr * g[k]!) / Math.sqrt(gb[k]! + 1e-8);
      }
      for (let p = start; p < end; p++) {
        const base = data.feats[p]! * C;
        const fv = groups ? gv[groups[p]!]! : v;
        for (let k = 0; k < C; k++) {
          const idx = base + k;
          const grad = g[k]! * fv * (S ? S[idx]! : 1) + opts.l2 * W[idx]!;
          G[idx]! += grad * grad;
          W[idx]! -= (opts.lr * grad) / Math.sqrt(G[idx]! + 1e-8);
        }
      }
    }
    if (epoch >= avgFrom) {
      for (let i = 0; i < W.length; i++) avgW[i]! += W[i]!;
      for (let k = 0; k < C; k++) avgB[k]! += bias[k]!;
      snapshots++;
    }
  }
  const weights = new Float32Array(dim * C);
  const S = opts.featScale;
  for (let i = 0; i < W.length; i++) weights[i] = (avgW[i]! / snapshots) * (S ? S[i]! : 1);
  return { weights, bias: avgB.map((b) => b / snapshots) };
}

export function quantize(m: FloatModel, header: Omit<LinearHeader, 'scale' | 'bias'>): LinearModel {
  let max = 0;
  for (const w of m.weights) if (Math.abs(w) > max) max = Math.abs(w);
  const scale = max > 0 ? max / 127 : 1;
  const q = new Int8Array(m.weights.length);
  for (let i = 0; i < q.length; i++) q[i] = Math.round(m.weights[i]! / scale);
  return { ...header, scale, bias: Array.from(m.bias, (b) => Math.round(b * 1e6) / 1e6), weights: q };
}

/** Class probabilities of every encoded example under a (quantized) model. */
export function predictEncoded(model: LinearModel, data: Encoded): number[][] {
  const out: number[][] = [];
  for (let i = 0; i + 1 < data.offsets.length; i++) {
    const feats = Array.from(data.feats.subarray(data.offsets[i]!, data.offsets[i + 1]!));
    out.push(softmax(logitsOf(model, feats)));
  }
  return out;
}

/** Naive-Bayes feature scales (Wang and Manning 2012, per class): for each weight [feature][class],
 *  1 + beta·|log-count ratio| of the texts of that class holding the feature against the texts of
 *  the other classes (add-one smoothing, soft targets counted by their share). Training w under
 *  these scales gives well-attested features a head start; the scale is folded into the weights,
 *  so it costs nothing at run time. */
export function nbScale(
  data: Encoded,
  labels: readonly number[],
  classes: number,
  dim: number,
  beta: number,
  soft?: ReadonlyMap<number, readonly number[]>,
): Float32Array {
  const C = classes;
  const cnt = new Float32Array(dim * C);
  const nk = new Float64Array(C);
  const seen = new Set<number>();
  const t = new Float64Array(C);
  for (let j = 0; j < labels.length; j++) {
    const s = soft?.get(j);
    for (let k = 0; k < C; k++) t[k] = s ? s[k]! : k === labels[j] ? 1 : 0;
    for (let k = 0; k < C; k++) nk[k]! += t[k]!;
    seen.clear();
    for (let p = data.offsets[j]!; p < data.offsets[j + 1]!; p++) seen.add(data.feats[p]!);
    for (const f of seen) for (let k = 0; k < C; k++) cnt[f * C + k]! += t[k]!;
  }
  let N = 0;
  for (let k = 0; k < C; k++) N += nk[k]!;
  const out = new Float32Array(dim * C);
  for (let f = 0; f < dim; f++) {
    let tot = 0;
    for (let k = 0; k < C; k++) tot += cnt[f * C + k]!;
    for (let k = 0; k < C; k++) {
      const a = cnt[f * C + k]!;
      const r = Math.log((a + 1) / (nk[k]! + 2)) - Math.log((tot - a + 1) / (N - nk[k]! + 2));
      out[f * C + k] = 1 + beta * Math.abs(r);
    }
  }
  return out;
}
