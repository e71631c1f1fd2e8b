// Word vectors for the intent model (src/enrichment/engine/word-vectors.ts), from the texts alone
// (no labels): every tweet and comment of the training files' CV pools (TweetEval train without
// its final tweets, TweetEval val, GoEmotions train + dev without the Reddit final split, the
// complaints corpus without its final split), without the texts of the intent set's final split.
// Words are the analyzer's tokens (a negated token counts as its word); a word needs MIN_COUNT
// occurrences. Co-occurrence within WINDOW words either side, positive PMI with the context
// distribution smoothed by 0.75, a rank-WORD_VECTOR_DIMS truncated SVD by randomized subspace
// iteration (fixed seed), rows U·sqrt(S) scaled to unit length and quantized to int8.
// Writes models/word-vectors.bin.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { restoreEscapes, tokenize } from '../../src/enrichment/engine/tokenizer.js';
import {
  encodeWordVectors,
  reloadWordVectors,
  vectorWord,
  WORD_VECTOR_DIMS,
  WORD_VECTOR_FILE,
  type WordVectors,
} from '../../src/enrichment/engine/word-vectors.js';
import { MODELS_DIR } from '../../src/paths.js';
import { readJsonl } from './data.js';
import { intentDev, isIntentFinal, itemKey } from './intent.js';
import { mulberry32 } from './sgd.js';
import { isComplaintFinal, isRedditFinal, isTweetFinal } from './splits.js';

const MIN_COUNT = 5;
const WINDOW = 5;
const OVERSAMPLE = 16;
const POWER_ITERATIONS = 7;
const SEED = 20_261_128;

/** the unlabelled texts the vectors learn from (pool texts only; see the file's comment) */
export function vectorCorpus(): string[] {
  const intentFinal = new Set(intentDev().filter(isIntentFinal).map(itemKey));
  const sources: [string, (id: string) => boolean][] = [
    ['sentiment/tweeteval-train.jsonl', isTweetFinal],
    ['sentiment/tweeteval-val.jsonl', () => false],
    ['sentiment/goemotions-train.jsonl', isRedditFinal],
    ['sentiment/goemotions-dev.jsonl', isRedditFinal],
    ['complaints/train.jsonl', isComplaintFinal],
  ];
  const out: string[] = [];
  for (const [file, isFinal] of sources)
    for (const r of readJsonl(file)) {
      const id = String(r.id ?? r.tweet_id);
      if (isFinal(id) || intentFinal.has(`${file}#${id}`)) continue;
      out.push(restoreEscapes(String(r.text)));
    }
  return out;
}

interface Csr {
  n: number;
  start: Int32Array;
  col: Int32Array;
  val: Float64Array;
}

/** the positive-PMI matrix of the corpus's words (symmetric) */
function ppmi(docs: readonly number[][], n: number): Csr {
  const counts = new Map<number, number>();
  for (const ids of docs)
    for (let a = 0; a < ids.length; a++)
      for (let b = Math.max(0, a - WINDOW); b < Math.min(ids.length, a + WINDOW + 1); b++) {
        if (b === a) continue;
        const k = ids[a]! * n + ids[b]!;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
  const row = new Float64Array(n);
  let total = 0;
  for (const [k, c] of counts) {
    row[Math.floor(k / n)]! += c;
    total += c;
  }
  // the matrix is symmetric, so the context counts are the row counts
  const smoothed = Float64Array.from(row, (c) => c ** 0.75);
  const smoothedTotal = smoothed.reduce((a, b) => a + b, 0);
  const entries = [...counts]
    .map(([k, c]) => {
      const i = Math.floor(k / n);
      const j = k % n;
      return { i, j, v: Math.log(c / total / ((row[i]! / total) * (smoothed[j]! / smoothedTotal))) };
    })
    .filter((e) => e.v > 0)
    .sort((x, y) => x.i - y.i || x.j - y.j);
  const start = new Int32Array(n + 1);
  for (const e of entries) start[e.i + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  return {
    n,
    start,
    col: Int32Array.from(entries, (e) => e.j),
    val: Float64Array.from(entries, (e) => e.v),
  };
}

/** P · Q for a dense n × k matrix Q (row-major) */
function times(p: Csr, q: Float64Array, k: number): Float64Array {
  const out = new Float64Array(p.n * k);
  for (let i = 0; i < p.n; i++)
    for (let e = p.start[i]!; e < p.start[i + 1]!; e++) {
      const v = p.val[e]!;
      const o = p.col[e]! * k;
      for (let c = 0; c < k; c++) out[i * k + c]! += v * q[o + c]!;
    }
  return out;
}

/** orthonormalizes the k columns of an n × k row-major matrix in place (modified Gram-Schmidt) */
function orthonormalize(q: Float64Array, n: number, k: number): void {
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < c; d++) {
      let dot = 0;
      for (let i = 0; i < n; i++) dot += q[i * k + c]! * q[i * k + d]!;
      for (let i = 0; i < n; i++) q[i * k + c]! -= dot * q[i * k + d]!;
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += q[i * k + c]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < n; i++) q[i * k + c]! /= norm;
  }
}

/** eigenvalues and eigenvectors (columns of a k × k row-major matrix) of a symmetric matrix, by
 *  cyclic Jacobi rotations */
function symmetricEigen(a: Float64Array, k: number): { values: Float64Array; vectors: Float64Array } {
  const m = Float64Array.from(a);
  const v = new Float64Array(k * k);
  for (let i = 0; i < k; i++) v[i * k + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) off += m[i * k + j]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < k; p++)
      for (let q = p + 1; q < k; q++) {
        const apq = m[p * k + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (m[q * k + q]! - m[p * k + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let r = 0; r < k; r++) {
          const mrp = m[r * k + p]!;
          const mrq = m[r * k + q]!;
          m[r * k + p] = c * mrp - s * mrq;
          m[r * k + q] = s * mrp + c * mrq;
        }
        for (let r = 0; r < k; r++) {
          const mpr = m[p * k + r]!;
          const mqr = m[q * k + r]!;
          m[p * k + r] = c * mpr - s * mqr;
          m[q * k + r] = s * mpr + c * mqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = v[r * k + p]!;
          const vrq = v[r * k + q]!;
          v[r * k + p] = c * vrp - s * vrq;
          v[r * k + q] = s * vrp + c * vrq;
        }
      }
  }
  return { values: Float64Array.from({ length: k }, (_x, i) => m[i * k + i]!), vectors: v };
}

/** rows of U·sqrt(|S|) for the `dims` largest singular values of the symmetric matrix p */
function truncatedSvd(p: Csr, dims: number): Float64Array {
  const n = p.n;
  const k = dims + OVERSAMPLE;
  const rand = mulberry32(SEED);
  let q: Float64Array = Float64Array.from({ length: n * k }, () => {
    // standard normal by Box-Muller
    const u = 1 - rand();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  });
  q = times(p, q, k);
  orthonormalize(q, n, k);
  for (let it = 0; it < POWER_ITERATIONS; it++) {
    q = times(p, q, k);
    orthonormalize(q, n, k);
  }
  // B = Qᵀ P Q (k × k, symmetric): its eigenpairs give those of P in the subspace
  const pq = times(p, q, k);
  const b = new Float64Array(k * k);
  for (let i = 0; i < n; i++)
    for (let r = 0; r < k; r++) {
      const qir = q[i * k + r]!;
      for (let c = 0; c < k; c++) b[r * k + c]! += qir * pq[i * k + c]!;
    }
  for (let r = 0; r < k; r++)
    for (let c = r + 1; c < k; c++) {
      const avg = (b[r * k + c]! + b[c * k + r]!) / 2;
      b[r * k + c] = avg;
      b[c * k + r] = avg;
    }
  const { values, vectors } = symmetricEigen(b, k);
  const order = [...values.keys()].sort((x, y) => Math.abs(values[y]!) - Math.abs(values[x]!)).slice(0, dims);
  const out = new Float64Array(n * dims);
  for (let i = 0; i < n; i++)
    order.forEach((e, d) => {
      let s = 0;
      for (let r = 0; r < k; r++) s += q[i * k + r]! * vectors[r * k + e]!;
      out[i * dims + d] = s * Math.sqrt(Math.abs(values[e]!));
    });
  return out;
}

export function trainWordVectors(log: (s: string) => void): void {
  const texts = vectorCorpus();
  const tokenized = texts.map((t) => tokenize(t).flatMap((tok) => vectorWord(tok) ?? []));
  const counts = new Map<string, number>();
  for (const ws of tokenized) for (const w of ws) counts.set(w, (counts.get(w) ?? 0) + 1);
  const words = [...counts]
    .filter(([, c]) => c >= MIN_COUNT)
    .map(([w]) => w)
    .sort();
  const index = new Map(words.map((w, i) => [w, i]));
  const docs = tokenized.map((ws) => ws.flatMap((w) => index.get(w) ?? []));
  const p = ppmi(docs, words.length);
  const u = truncatedSvd(p, WORD_VECTOR_DIMS);
  const components = new Int8Array(words.length * WORD_VECTOR_DIMS);
  for (let i = 0; i < words.length; i++) {
    let norm = 0;
    for (let d = 0; d < WORD_VECTOR_DIMS; d++) norm += u[i * WORD_VECTOR_DIMS + d]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < WORD_VECTOR_DIMS; d++)
      components[i * WORD_VECTOR_DIMS + d] = Math.round((127 * u[i * WORD_VECTOR_DIMS + d]!) / norm);
  }
  const vectors: WordVectors = {
    format: 1,
    producer: `scripts/train/word-vectors.ts: ${texts.length} unlabelled pool texts, ${words.length} words (≥ ${MIN_COUNT} occurrences), PPMI within ${WINDOW} words, rank-${WORD_VECTOR_DIMS} SVD`,
    dims: WORD_VECTOR_DIMS,
    words,
    components,
  };
  writeFileSync(join(MODELS_DIR, WORD_VECTOR_FILE), encodeWordVectors(vectors));
  // the intent model trained next in this process reads these, not vectors read earlier
  reloadWordVectors(vectors);
  log(`word vectors: ${texts.length} texts, ${words.length} words, ${p.val.length} positive PMI pairs`);
}
