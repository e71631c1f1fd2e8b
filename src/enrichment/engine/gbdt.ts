// The reader of gradient-boosted trees (fitted by scripts/train/gbdt.ts): softmax scores of depth-d
// trees over binned dense inputs, all trees in one flat layout. The intent model adds them, times a
// weight chosen by cross-validation, to its linear logits (engine/intent.ts).

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

/** the bin of value v of feature f: a binary search of a fixed number of steps */
export function binOf(m: GbdtModel, f: number, v: number): number {
  const edges = m.edges;
  const base = f * m.span;
  let at = base;
  for (let step = m.span >> 1; step > 0; step >>= 1) if (v >= edges[at + step - 1]!) at += step;
  return at - base;
}

/** the value of tree t's leaf that the binned row `b` reaches */
export function leafOf(m: GbdtModel, t: number, b: Uint8Array): number {
  const internal = (1 << m.depth) - 1;
  const base = t * internal;
  let k = 0;
  // right when the bin is above the threshold: (threshold − bin) >>> 31 is 1 then, else 0 (no branch
  // to mispredict)
  for (let level = 0; level < m.depth; level++)
    k = 2 * k + 1 + ((m.threshold[base + k]! - b[m.feature[base + k]!]!) >>> 31);
  return m.leaf[t * (internal + 1) + k - internal]!;
}

/** what gbdtAddScores keeps per model: each internal node packed in one number (feature << 8 |
 *  threshold, one load per level), the binned row and the sums per class (neither of the last two
 *  outlives the call) */
interface Reader {
  nodes: Int32Array;
  bins: Uint8Array;
  sums: Float64Array;
}
const readers = new WeakMap<GbdtModel, Reader>();

function readerOf(m: GbdtModel): Reader {
  let r = readers.get(m);
  if (!r) {
    r = {
      nodes: Int32Array.from(m.feature, (f, k) => (f << 8) | m.threshold[k]!),
      bins: new Uint8Array(m.features),
      sums: new Float64Array(m.classes),
    };
    readers.set(m, r);
  }
  return r;
}

/** adds `weight` times the model's scores (logits) for row x to z[0 .. classes): the same sums, in
 *  the same order, as leafOf over every tree (about half the time of it: one load per level, and
 *  depth 3 unrolled) */
export function gbdtAddScores(model: GbdtModel, x: ArrayLike<number>, weight: number, z: Float64Array): void {
  const bins = readerOf(model).bins;
  const used = model.used;
  for (let k = 0; k < used.length; k++) bins[used[k]!] = binOf(model, used[k]!, x[used[k]!]!);
  gbdtAddBinnedScores(model, bins, weight, z);
}

/** as gbdtAddScores, for a row already binned: bins[f] is binOf(model, f, x[f]) for every feature
 *  of model.used (one bin per feature; the others may hold any bin, since only nodes that do not
 *  split read them, and those send every bin left) */
export function gbdtAddBinnedScores(
  model: GbdtModel,
  bins: Uint8Array,
  weight: number,
  z: Float64Array,
): void {
  const { nodes, sums } = readerOf(model);
  const C = model.classes;
  const leaf = model.leaf;
  const trees = leaf.length >> model.depth;
  sums.fill(0);
  let c = 0;
  // depth 3 (GBDT_DEFAULTS) unrolled over the packed nodes, as leafOf walks them
  if (model.depth === 3) {
    for (let t = 0, base = 0; t < trees; t++, base += 7) {
      let node = nodes[base]!;
      let k = 1 + (((node & 255) - bins[node >> 8]!) >>> 31);
      node = nodes[base + k]!;
      k = 2 * k + 1 + (((node & 255) - bins[node >> 8]!) >>> 31);
      node = nodes[base + k]!;
      k = 2 * k + 1 + (((node & 255) - bins[node >> 8]!) >>> 31);
      sums[c]! += leaf[t * 8 + k - 7]!;
      if (++c === C) c = 0;
    }
  } else {
    for (let t = 0; t < trees; t++) {
      sums[c]! += leafOf(model, t, bins);
      if (++c === C) c = 0;
    }
  }
  for (c = 0; c < C; c++) z[c]! += weight * sums[c]!;
}

/** the model's scores (logits) for one row */
export function gbdtScores(model: GbdtModel, x: ArrayLike<number>): Float64Array {
  const z = new Float64Array(model.classes);
  gbdtAddScores(model, x, 1, z);
  return z;
}

/** the model as stored in a model file (JSON: the edges without their +∞ padding) */
export interface GbdtFile {
  classes: number;
  depth: number;
  features: number;
  span: number;
  /** per feature, its edges */
  edges: number[][];
  feature: number[];
  threshold: number[];
  leaf: number[];
}

export function gbdtToFile(m: GbdtModel): GbdtFile {
  return {
    classes: m.classes,
    depth: m.depth,
    features: m.features,
    span: m.span,
    edges: Array.from({ length: m.features }, (_v, f) =>
      [...m.edges.subarray(f * m.span, (f + 1) * m.span)].filter((e) => e !== Number.POSITIVE_INFINITY),
    ),
    feature: [...m.feature],
    threshold: [...m.threshold],
    leaf: [...m.leaf],
  };
}

/** the features some node splits on */
export function usedFeatures(features: number, feature: Int32Array, threshold: Uint8Array): Int32Array {
  const split = new Uint8Array(features);
  for (let k = 0; k < feature.length; k++) if (threshold[k] !== 255) split[feature[k]!] = 1;
  const used: number[] = [];
  for (let f = 0; f < features; f++) if (split[f]) used.push(f);
  return Int32Array.from(used);
}

export function gbdtFromFile(file: GbdtFile): GbdtModel {
  const { classes, depth, features, span } = file;
  const internal = (1 << depth) - 1;
  const trees = file.leaf.length >> depth;
  if (
    file.edges.length !== features ||
    file.edges.some((e) => e.length >= span) ||
    file.feature.length !== trees * internal ||
    file.threshold.length !== trees * internal ||
    trees % classes !== 0 ||
    file.feature.some((f) => f < 0 || f >= features)
  )
    throw new Error('gbdt model file: inconsistent sizes (retrain: npm run train -- intent)');
  const edges = new Float64Array(features * span).fill(Number.POSITIVE_INFINITY);
  for (let f = 0; f < features; f++) edges.set(file.edges[f]!, f * span);
  const feature = Int32Array.from(file.feature);
  const threshold = Uint8Array.from(file.threshold);
  return {
    classes,
    depth,
    features,
    span,
    edges,
    used: usedFeatures(features, feature, threshold),
    feature,
    threshold,
    leaf: Float64Array.from(file.leaf),
  };
}
