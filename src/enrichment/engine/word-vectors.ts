// Word vectors: what the unlabelled tweets and comments of the training files say about how words
// are used, as 64 numbers per word (scripts/train/word-vectors.ts: positive PMI of words within five
// words of each other, reduced by a truncated SVD). The intent model reads a text's vector (the sum
// of its words' vectors, scaled to a fixed length) beside its own cues, so a word it never saw
// labelled ("cleats", "hoody") reads like the words it is used like ("shoes", "shirt").
//
// File layout: model-file.ts's framing with the magic 'GLWV', a JSON header (dims, words) and int8
// components, word-major. A text's vector is an exact integer sum, normalized once, so
// the same text gives the same inputs on every machine.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS_DIR } from '../../paths.js';
import { decodeFramed, encodeFramed } from './model-file.js';

export const WORD_VECTOR_DIMS = 64;
export const WORD_VECTOR_FILE = 'word-vectors.bin';
/** the length of a text's vector as the intent model reads it (chosen with the intent model's
 *  settings fixed, by pooled out-of-fold macro-F1 on the intent pool: 1, 3, 5; docs/enrichment.md) */
export const TEXT_VECTOR_LENGTH = 3;
/** tokens (engine/tokenizer.ts) read in a negation scope carry this prefix; they read as the word */
const NEGATED_PREFIX = 'NEG_';

export interface WordVectorsHeader {
  format: 1;
  producer: string;
  dims: number;
  words: string[];
}

export interface WordVectors extends WordVectorsHeader {
  /** words.length × dims int8 components */
  components: Int8Array;
}

const MAGIC = 0x56574c47; // 'GLWV'

export function encodeWordVectors(v: WordVectors): Buffer {
  const header: WordVectorsHeader = { format: v.format, producer: v.producer, dims: v.dims, words: v.words };
  return encodeFramed(MAGIC, header, v.components);
}

export function decodeWordVectors(buf: Buffer): WordVectors {
  const { header, body } = decodeFramed<WordVectorsHeader>(buf, MAGIC, 'word-vector');
  if (body.length !== header.words.length * header.dims)
    throw new Error(`word vectors: expected ${header.words.length * header.dims} bytes, got ${body.length}`);
  const components = new Int8Array(body.length);
  components.set(new Int8Array(body.buffer, body.byteOffset, body.byteLength));
  return { ...header, components };
}

/** the word of a token that has a vector, or undefined (placeholders, numbers, punctuation,
 *  emoticons and '#tags' have none; the tokenizer also emits a hashtag's bare word) */
export function vectorWord(token: string): string | undefined {
  const w = token.startsWith(NEGATED_PREFIX) ? token.slice(NEGATED_PREFIX.length) : token;
  return WORD_RE.test(w) ? w : undefined;
}
const WORD_RE = /^\p{L}[\p{L}\p{N}_']*$/u;

interface Table {
  components: Int8Array;
  /** row of each word, and of its negated token */
  rows: Map<string, number>;
  /** the sums of the text being read */
  acc: Int32Array;
}

function tableOf(v: WordVectors): Table {
  if (v.dims !== WORD_VECTOR_DIMS)
    throw new Error(`word vectors: ${v.dims} dims, expected ${WORD_VECTOR_DIMS}`);
  const rows = new Map<string, number>();
  v.words.forEach((w, r) => {
    rows.set(w, r);
    rows.set(NEGATED_PREFIX + w, r);
  });
  return { components: v.components, rows, acc: new Int32Array(WORD_VECTOR_DIMS) };
}

let table: Table | undefined;
function shipped(): Table {
  table ??= tableOf(decodeWordVectors(readFileSync(join(MODELS_DIR, WORD_VECTOR_FILE))));
  return table;
}
let present: boolean | undefined;
let version = 0;

/** the row of a token in the shipped word vectors, or -1 (no vector, or no vector file: the models
 *  that do not read the vectors must not need it) */
export function shippedVectorRow(token: string): number {
  present ??= table !== undefined || existsSync(join(MODELS_DIR, WORD_VECTOR_FILE));
  return present ? (shipped().rows.get(token) ?? -1) : -1;
}

/** which shipped vectors the rows of shippedVectorRow belong to: it changes when they are reloaded
 *  (whoever keeps rows, fused.ts, forgets them then) */
export const shippedVectorsVersion = (): number => version;

/** Forgets the shipped vectors: from now on they are `vectors` (training, which has just written
 *  them to models/ and trains the intent model on them in the same process), or, without it, read
 *  again from models/ on next use. */
export function reloadWordVectors(vectors?: WordVectors): void {
  table = vectors === undefined ? undefined : tableOf(vectors);
  present = vectors === undefined ? undefined : true;
  version++;
}

/** Writes the vector of a text's tokens at out[at .. at + WORD_VECTOR_DIMS): the sum of its words'
 *  vectors scaled to TEXT_VECTOR_LENGTH, or zeros when none of its words has one. `shippedRows`,
 *  the shipped vectors' row of each token (-1: none; FeatureCache.vectorRows), saves looking the
 *  tokens up. */
export function writeTextVector(
  tokens: readonly string[],
  out: Float64Array,
  at: number,
  vectors: Table = shipped(),
  shippedRows?: readonly number[],
): void {
  const { components, rows, acc } = vectors;
  const dims = WORD_VECTOR_DIMS;
  acc.fill(0);
  const kept = shippedRows !== undefined && vectors === table && shippedRows.length === tokens.length;
  for (let i = 0; i < tokens.length; i++) {
    const r = kept ? shippedRows[i]! : (rows.get(tokens[i]!) ?? -1);
    if (r < 0) continue;
    const o = r * dims;
    for (let j = 0; j < dims; j++) acc[j]! += components[o + j]!;
  }
  let sq = 0;
  for (let j = 0; j < dims; j++) sq += acc[j]! * acc[j]!;
  // (no known word leaves every sum at 0)
  if (sq === 0) {
    out.fill(0, at, at + dims);
    return;
  }
  const f = TEXT_VECTOR_LENGTH / Math.sqrt(sq);
  for (let j = 0; j < dims; j++) out[at + j] = acc[j]! * f;
}

/** a table of given vectors (tests, training) */
export const wordVectorTable = tableOf;
