// Fused weight tables: the hashed linear models of a provider that read the same feature space
// (same bits, n-grams within FULL_SPEC) are interleaved row by row at load time, so a text's
// feature costs one random memory access for all of them (sentiment members, the domain gate and
// the complaint model) instead of one per model. Each model's integer sums are exactly those of
// reading it alone, so fusing changes speed, never output.
import { FeatureCache, FULL_SPEC, KIND_BIGRAM, KIND_UNIGRAM } from './features.js';
import type { LinearModel } from './linear.js';

interface Part {
  model: LinearModel;
  /** offset of the model's weights within a row */
  offset: number;
  /** weights per feature: blocks × classes */
  width: number;
  /** offset of the model's sums in the result */
  sumOffset: number;
}

export interface FusedTable {
  bits: number;
  stride: number;
  weights: Int8Array;
  parts: Part[];
  /** for each feature kind (0 unigram, 1 bigram, n character n-gram), the parts that read it */
  byKind: number[][];
  /** when the parts that read each kind form a prefix of the row: that prefix's length per kind */
  prefix: Int32Array | undefined;
  sumWidth: number;
}

export interface FusedSums {
  /** integer weight sums of every part, at its sumOffset */
  sums: Int32Array;
  /** number of features each part read */
  counts: Int32Array;
}

const MAX_KIND = FULL_SPEC.charMax;
/** keeps the touching pass of fusedSums from being optimized away */
let _sink = 0;

function reads(model: LinearModel, kind: number): boolean {
  const s = model.spec;
  if (kind === KIND_UNIGRAM) return true;
  if (kind === KIND_BIGRAM) return s.bigrams;
  return s.charMax > 0 && kind >= s.charMin && kind <= s.charMax;
}

export function canFuse(model: LinearModel): boolean {
  const s = model.spec;
  return (
    (!s.bigrams || FULL_SPEC.bigrams) &&
    (s.charMax === 0 || (s.charMin >= FULL_SPEC.charMin && s.charMax <= FULL_SPEC.charMax))
  );
}

/** Interleaves models of the same bits into one table. */
export function fuse(models: readonly LinearModel[]): FusedTable {
  const bits = models[0]!.spec.bits;
  const parts: Part[] = [];
  let stride = 0;
  // models that read more kinds of n-grams first, so that each kind reads a prefix of the row
  const kindsRead = (m: LinearModel) => {
    let n = 0;
    for (let k = 0; k <= MAX_KIND; k++) if (reads(m, k)) n++;
    return n;
  };
  const ordered = models
    .map((m, i) => ({ m, i }))
    .sort((x, y) => kindsRead(y.m) - kindsRead(x.m) || x.i - y.i)
    .map((x) => x.m);
  for (const model of ordered) {
    if (model.spec.bits !== bits || !canFuse(model))
      throw new Error('fuse: models do not share a feature space');
    const width = (model.blocks ?? 1) * model.classes.length;
    parts.push({ model, offset: stride, width, sumOffset: stride });
    stride += width;
  }
  const used = stride;

  const rows = 1 << bits;
  const weights = new Int8Array(rows * stride);
  for (const p of parts) {
    const src = p.model.weights;
    for (let r = 0; r < rows; r++) {
      const from = r * p.width;
      const to = r * stride + p.offset;
      for (let j = 0; j < p.width; j++) weights[to + j] = src[from + j]!;
    }
  }
  const byKind: number[][] = [];
  for (let k = 0; k <= MAX_KIND; k++) byKind.push(parts.flatMap((p, i) => (reads(p.model, k) ? [i] : [])));
  let prefix: Int32Array | undefined = new Int32Array(MAX_KIND + 1);
  for (let k = 0; k <= MAX_KIND && prefix; k++) {
    const list = byKind[k]!;
    if (list.some((pi, q) => pi !== q)) prefix = undefined;
    else prefix[k] = list.length ? parts[list.length - 1]!.offset + parts[list.length - 1]!.width : 0;
  }
  return { bits, stride, weights, parts, byKind, prefix, sumWidth: used };
}

/** The sums of every part of `table` over the text's features (memoised in the cache). */
export function fusedSums(table: FusedTable, cache: FeatureCache): FusedSums {
  const hit = cache.memo.get(table) as FusedSums | undefined;
  if (hit) return hit;
  const { hashes, kinds } = cache.all();
  const sums = new Int32Array(table.sumWidth);
  const counts = new Int32Array(table.parts.length);
  const kindCounts = new Int32Array(MAX_KIND + 1);
  const w = table.weights;
  const stride = table.stride;
  const mask = (1 << table.bits) - 1;
  const parts = table.parts;
  const prefix = table.prefix;
  if (prefix) {
    // each kind reads the first prefix[kind] weights of its row: one tight loop. A first pass only
    // touches each row: its loads are independent, so the CPU overlaps the cache misses that the
    // accumulating pass would otherwise wait for one by one.
    let touch = 0;
    for (let i = 0; i < hashes.length; i++) touch ^= w[(hashes[i]! & mask) * stride]!;
    _sink ^= touch;
    for (let i = 0; i < hashes.length; i++) {
      const kind = kinds[i]!;
      kindCounts[kind]!++;
      const row = (hashes[i]! & mask) * stride;
      const len = prefix[kind]!;
      for (let j = 0; j < len; j++) sums[j]! += w[row + j]!;
    }
  } else
    for (let i = 0; i < hashes.length; i++) {
      const kind = kinds[i]!;
      kindCounts[kind]!++;
      const row = (hashes[i]! & mask) * stride;
      const list = table.byKind[kind]!;
      for (let q = 0; q < list.length; q++) {
        const p = parts[list[q]!]!;
        const base = row + p.offset;
        const so = p.sumOffset;
        for (let j = 0; j < p.width; j++) sums[so + j]! += w[base + j]!;
      }
    }
  for (let k = 0; k <= MAX_KIND; k++) for (const pi of table.byKind[k]!) counts[pi]! += kindCounts[k]!;
  const out = { sums, counts };
  cache.memo.set(table, out);
  return out;
}

// every table a model belongs to, so that a model read on its own finds sums already computed
const tablesOf = new WeakMap<LinearModel, FusedTable[]>();
const solo = new WeakMap<LinearModel, FusedTable>();

/** Registers a table for its models (newest first), and returns it. */
export function register(table: FusedTable): FusedTable {
  for (const p of table.parts) {
    const list = tablesOf.get(p.model) ?? [];
    list.unshift(table);
    tablesOf.set(p.model, list);
  }
  return table;
}

/** One model's sums and feature count: from a table already computed for this text if any, else
 *  from the first table holding the model, else from a table of its own. */
export function modelSums(model: LinearModel, cache: FeatureCache): { sums: Int32Array; n: number } {
  const tables = tablesOf.get(model) ?? [];
  let table = tables.find((t) => cache.memo.has(t)) ?? tables[0];
  if (!table) {
    table = solo.get(model);
    if (!table) {
      table = fuse([model]);
      solo.set(model, table);
    }
  }
  const r = fusedSums(table, cache);
  const pi = table.parts.findIndex((p) => p.model === model);
  const p = table.parts[pi]!;
  return { sums: r.sums.subarray(p.sumOffset, p.sumOffset + p.width), n: r.counts[pi]! };
}

export { FeatureCache };
