// Fused weight tables: the hashed linear models of a provider that read the same feature space
// (same bits, n-grams within FULL_SPEC) are interleaved row by row at load time, so a text's
// feature costs one random memory access for all of them (sentiment members, the domain gate and
// the complaint model) instead of one per model. A token's own features (its unigram and character
// n-grams) are summed once and remembered (TokenSums), so a text costs one lookup per token and
// one row per word bigram. Each model's integer sums are exactly those of reading it alone, so
// neither changes output, only speed.
import {
  BIGRAM_END,
  BIGRAM_START,
  bigramHash,
  FeatureCache,
  FULL_SPEC,
  hashString,
  KIND_BIGRAM,
  KIND_UNIGRAM,
  tokenCharNgrams,
  unigramHash,
} from './features.js';
import { hasLexicon, tokenValence } from './lexicon.js';
import type { LinearModel } from './linear.js';
import { wordSpansOfTokens } from './tokenizer.js';
import { shippedVectorRow, shippedVectorsVersion } from './word-vectors.js';

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
  /** integer weight sums of every part, at its sumOffset (plain arrays of small integers: a typed
   *  array of this size would take a buffer outside the heap, slow to allocate for every text) */
  sums: number[];
  /** number of features each part read */
  counts: number[];
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

/** the distinct lexicon contributions of tokens (lexicon.ts tokenValence), by index; index 0
 *  stands for a token outside the lexicon (adding nothing) */
const VALENCES: number[] = [0];
const valenceIndex = new Map<number, number>();

function valenceOf(tok: string): number {
  if (!hasLexicon()) return 0;
  const v = tokenValence(tok);
  // a zero valence adds nothing either (neg − 0 and neg − (−0) are neg, which is never −0)
  if (v === undefined || v === 0) return 0;
  let i = valenceIndex.get(v);
  if (i === undefined) {
    i = VALENCES.length;
    VALENCES.push(v);
    valenceIndex.set(v, i);
  }
  return i;
}

/** A token's own features (its unigram and its character n-grams) depend on the token alone, so
 *  their sums are kept per token: entry = [hashString(token), sums (sumWidth), counts (parts),
 *  index of its lexicon valence in VALENCES, its row in the shipped word vectors (-1: none)]. The
 *  row is kept here because the text's vector (word-vectors.ts) would otherwise look every token up
 *  in a map of its own, whose scattered entries miss the CPU caches, where this entry has just
 *  been read.
 *  Two generations of bounded size: a token seen in the older one is copied to the newer one, and
 *  when the newer one is full it becomes the older one. Integer sums do not depend on the order
 *  of addition, so a text's sums are the same whether its tokens were remembered or not. */
class TokenSums {
  readonly width: number;
  private young = new Map<string, number>();
  private old = new Map<string, number>();
  private youngSlab: Int32Array;
  private oldSlab: Int32Array;
  private next = 0;
  /** scratch for a token's feature hashes and kinds */
  private readonly hashes: number[] = [];
  private readonly kinds: number[] = [];
  private readonly moved: Int32Array;
  /** the direct-mapped cache: token, its offset in the newer slab, and the generation it was in */
  private readonly hotKeys: (string | undefined)[] = new Array(HOT_SIZE).fill(undefined);
  private readonly hotAt = new Int32Array(HOT_SIZE);
  private readonly hotGen = new Int32Array(HOT_SIZE).fill(-1);
  private gen = 0;
  /** the shipped word vectors the entries' rows belong to (shippedVectorsVersion) */
  private vectors = shippedVectorsVersion();

  constructor(
    private readonly table: FusedTable,
    private readonly capacity = TOKEN_MEMO_SIZE,
  ) {
    this.width = 3 + table.sumWidth + table.parts.length;
    this.youngSlab = new Int32Array(Math.min(capacity, 1024) * this.width);
    this.oldSlab = new Int32Array(0);
    this.moved = new Int32Array(this.width);
  }

  /** where the token's entry is in `slab` (valid until the next call) */
  entry(tok: string): number {
    // a small direct-mapped cache in front of the maps: the frequent tokens are found there without
    // probing a large table (whose scattered entries miss the CPU caches)
    const slot = hashString(tok) & (HOT_SIZE - 1);
    if (this.hotKeys[slot] === tok && this.hotGen[slot] === this.gen) return this.hotAt[slot]!;
    const at = this.young.get(tok);
    if (at !== undefined) {
      this.hotKeys[slot] = tok;
      this.hotGen[slot] = this.gen;
      this.hotAt[slot] = at;
      return at;
    }
    const o = this.old.get(tok);
    // copied out first: claiming a slot may turn the older generation's slab into the newer one
    if (o !== undefined) this.moved.set(this.oldSlab.subarray(o, o + this.width));
    const to = this.claim(tok);
    if (o !== undefined) this.youngSlab.set(this.moved, to);
    else this.compute(tok, this.youngSlab, to);
    this.hotKeys[slot] = tok;
    this.hotGen[slot] = this.gen;
    this.hotAt[slot] = to;
    return to;
  }

  /** forgets every entry when the shipped word vectors were reloaded since they were computed */
  sync(): void {
    if (this.vectors === shippedVectorsVersion()) return;
    this.vectors = shippedVectorsVersion();
    this.young.clear();
    this.old.clear();
    this.next = 0;
    this.gen++;
  }

  /** the generation entry() leaves its tokens in (an offset it gave stays valid while it is the same) */
  get generation(): number {
    return this.gen;
  }

  /** the entries of the newer generation, where entry() always leaves the token */
  get slab(): Int32Array {
    return this.youngSlab;
  }

  private claim(tok: string): number {
    if (this.next === this.capacity) {
      // the newer generation is full: it becomes the older one, and its slab is reused
      [this.old, this.young] = [this.young, this.old];
      [this.oldSlab, this.youngSlab] = [this.youngSlab, this.oldSlab];
      this.young.clear();
      this.next = 0;
      this.gen++;
    }
    const need = (this.next + 1) * this.width;
    if (this.youngSlab.length < need) {
      const grown = new Int32Array(Math.min(this.capacity, Math.max(1024, this.next * 2)) * this.width);
      grown.set(this.youngSlab.subarray(0, this.next * this.width));
      this.youngSlab = grown;
    }
    const at = this.next * this.width;
    this.young.set(tok, at);
    this.next++;
    return at;
  }

  private compute(tok: string, slab: Int32Array, at: number): void {
    const t = this.table;
    slab.fill(0, at, at + this.width);
    const h = hashString(tok);
    slab[at] = h | 0;
    const hashes = this.hashes;
    const kinds = this.kinds;
    hashes.length = 0;
    kinds.length = 0;
    hashes.push(unigramHash(h));
    kinds.push(KIND_UNIGRAM);
    tokenCharNgrams(tok, FULL_SPEC.charMin, FULL_SPEC.charMax, hashes, kinds);
    const sums = at + 1;
    const counts = sums + t.sumWidth;
    const mask = (1 << t.bits) - 1;
    // a first pass only touches each row, so that the CPU overlaps their cache misses
    const w = t.weights;
    let touch = 0;
    for (let i = 0; i < hashes.length; i++) touch ^= w[(hashes[i]! & mask) * t.stride]!;
    _sink ^= touch;
    for (let i = 0; i < hashes.length; i++) {
      const kind = kinds[i]!;
      addRow(t, (hashes[i]! & mask) * t.stride, kind, slab, sums);
      const list = t.byKind[kind]!;
      for (let q = 0; q < list.length; q++) slab[counts + list[q]!]!++;
    }
    slab[counts + t.parts.length] = valenceOf(tok);
    slab[counts + t.parts.length + 1] = shippedVectorRow(tok);
  }
}

/** distinct tokens remembered per table and generation (see TokenSums) */
export const TOKEN_MEMO_SIZE = 1 << 15;
const HOT_SIZE = 1 << 12;
const tokenSums = new WeakMap<FusedTable, TokenSums>();

/** adds the weights that features of `kind` read from the row at `row` to out[at..] */
function addRow(t: FusedTable, row: number, kind: number, out: Int32Array, at: number): void {
  const w = t.weights;
  if (t.prefix) {
    const len = t.prefix[kind]!;
    for (let j = 0; j < len; j++) out[at + j]! += w[row + j]!;
    return;
  }
  const list = t.byKind[kind]!;
  for (let q = 0; q < list.length; q++) {
    const p = t.parts[list[q]!]!;
    const base = row + p.offset;
    const so = at + p.sumOffset;
    for (let j = 0; j < p.width; j++) out[so + j]! += w[base + j]!;
  }
}

/** addRow for a word bigram's row, into a text's sums: a plain array, where addRow writes a token's
 *  Int32Array slab (one function per array kind keeps each one's stores monomorphic) */
function addBigramRow(t: FusedTable, row: number, out: number[]): void {
  const w = t.weights;
  if (t.prefix) {
    const len = t.prefix[KIND_BIGRAM]!;
    for (let j = 0; j < len; j++) out[j]! += w[row + j]!;
    return;
  }
  const list = t.byKind[KIND_BIGRAM]!;
  for (let q = 0; q < list.length; q++) {
    const p = t.parts[list[q]!]!;
    const base = row + p.offset;
    const so = p.sumOffset;
    for (let j = 0; j < p.width; j++) out[so + j]! += w[base + j]!;
  }
}

/** the token index of the first word span from `k` on that gave its own token (-1: none) */
function nextOwnToken(spans: { count: number; tokenAt: Int32Array }, k: number): number {
  for (; k < spans.count; k++) if (spans.tokenAt[k]! >= 0) return spans.tokenAt[k]!;
  return -1;
}

let bigramRows = new Int32Array(256);

/** The sums of every part of `table` over the text's features (memoised in the cache). */
export function fusedSums(table: FusedTable, cache: FeatureCache): FusedSums {
  const hit = cache.recall(table) as FusedSums | undefined;
  if (hit) return hit;
  const tokens = cache.tokens;
  const width = table.sumWidth;
  const nParts = table.parts.length;
  const sums: number[] = [];
  for (let j = 0; j < width; j++) sums.push(0);
  const counts: number[] = [];
  for (let p = 0; p < nParts; p++) counts.push(0);
  let memo = tokenSums.get(table);
  if (!memo) {
    memo = new TokenSums(table);
    tokenSums.set(table, memo);
  } else memo.sync();
  // each token's own features, from its remembered sums
  if (bigramRows.length < tokens.length + 1) bigramRows = new Int32Array(2 * (tokens.length + 1));
  const rows = bigramRows;
  const mask = (1 << table.bits) - 1;
  const stride = table.stride;
  let prev = BIGRAM_START;
  // the word unigram and bigram hashes, in extractHashes' order, for the intent models (features.ts)
  const wordHashes: number[] | undefined = cache.wantsWordNgrams() ? [] : undefined;
  // the lexicon features' sums, in token order as lexiconFeatures adds them
  let pos = 0;
  let neg = 0;
  // each token's word-vector row, for the intent inputs
  const vectorRows: number[] | undefined = cache.vectorRows === undefined ? [] : undefined;
  // a word's own token is found through the tokenizer's entry of the word when it holds its offset
  const spans = wordSpansOfTokens(tokens);
  let k = 0;
  let nextWord = spans !== undefined && spans.count > 0 ? nextOwnToken(spans, 0) : -1;
  for (let i = 0; i < tokens.length; i++) {
    let at: number;
    if (i === nextWord) {
      while (spans!.tokenAt[k] !== i) k++;
      const e = spans!.entries[k]!;
      if (e.sumsMemo === memo && e.sumsGen === memo.generation) at = e.sumsAt;
      else {
        at = memo.entry(tokens[i]!);
        e.sumsMemo = memo;
        e.sumsGen = memo.generation;
        e.sumsAt = at;
      }
      nextWord = nextOwnToken(spans!, k + 1);
    } else at = memo.entry(tokens[i]!);
    const slab = memo.slab;
    for (let j = 0; j < width; j++) sums[j]! += slab[at + 1 + j]!;
    const c = at + 1 + width;
    for (let p = 0; p < nParts; p++) counts[p]! += slab[c + p]!;
    const vi = slab[c + nParts]!;
    vectorRows?.push(slab[c + nParts + 1]!);
    if (vi !== 0) {
      const v = VALENCES[vi]!;
      if (v > 0) pos += v;
      else neg -= v;
    }
    const h = slab[at]! >>> 0;
    const bh = bigramHash(prev, h);
    rows[i] = (bh & mask) * stride;
    if (wordHashes !== undefined) wordHashes.push(unigramHash(h), bh);
    prev = h;
  }
  // bigrams: one row each. A first pass only touches each row: its loads are independent, so the
  // CPU overlaps the cache misses that the accumulating pass would otherwise wait for one by one.
  const nRows = tokens.length > 0 ? tokens.length + 1 : 0;
  if (nRows > 0) {
    const end = bigramHash(prev, BIGRAM_END);
    rows[tokens.length] = (end & mask) * stride;
    wordHashes?.push(end);
    const w = table.weights;
    let touch = 0;
    for (let i = 0; i < nRows; i++) touch ^= w[rows[i]!]!;
    _sink ^= touch;
    for (let i = 0; i < nRows; i++) addBigramRow(table, rows[i]!, sums);
    for (const pi of table.byKind[KIND_BIGRAM]!) counts[pi]! += nRows;
  }
  if (wordHashes !== undefined) cache.setWordNgrams(wordHashes);
  if (vectorRows !== undefined) cache.vectorRows = vectorRows;
  if (hasLexicon()) {
    cache.lexPos = pos;
    cache.lexNeg = neg;
    cache.lexRead = true;
  }
  const out = { sums, counts };
  cache.remember(table, out);
  return out;
}

// every table a model belongs to, so that a model read on its own finds sums already computed
/** where a model sits in a table: the table and the model's part index there */
interface Place {
  table: FusedTable;
  part: number;
}
// every table a model belongs to, so that a model read on its own finds sums already computed
const placesOf = new WeakMap<LinearModel, Place[]>();
const solo = new WeakMap<LinearModel, Place>();

/** Registers a table for its models (newest first), and returns it. */
export function register(table: FusedTable): FusedTable {
  table.parts.forEach((p, part) => {
    const list = placesOf.get(p.model) ?? [];
    list.unshift({ table, part });
    placesOf.set(p.model, list);
  });
  return table;
}

/** One model's sums and feature count: from a table already computed for this text if any, else
 *  from the first table holding the model, else from a table of its own. The model's sums are
 *  sums[at .. at + its blocks × classes). */
export function modelSums(
  model: LinearModel,
  cache: FeatureCache,
): { sums: readonly number[]; at: number; n: number } {
  const places = placesOf.get(model);
  let place: Place | undefined;
  if (places) {
    place = places[0];
    for (let i = 1; i < places.length && cache.recall(place!.table) === undefined; i++)
      if (cache.recall(places[i]!.table) !== undefined) place = places[i];
  } else {
    place = solo.get(model);
    if (!place) {
      place = { table: fuse([model]), part: 0 };
      solo.set(model, place);
    }
  }
  const { table, part } = place!;
  const r = fusedSums(table, cache);
  const p = table.parts[part]!;
  return { sums: r.sums, at: p.sumOffset, n: r.counts[part]! };
}

export { FeatureCache };
