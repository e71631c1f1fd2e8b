// Word vectors: what the unlabelled tweets and comments of the training files say about how words
// are used, as 64 numbers per word (scripts/train/word-vectors.ts: positive PMI of words within five
// words of each other, reduced by a truncated SVD). The intent model reads a text's vector (the sum
// of its words' vectors, scaled to a fixed length) beside its own cues, so a word it never saw
// labelled ("cleats", "hoody") reads like the words it is used like ("shoes", "shirt").
//
// File layout (little endian): 'GLWV' magic, u32 header length, UTF-8 JSON header (dims, words),
// then int8 components, word-major. A text's vector is an exact integer sum, normalized once, so
// the same text gives the same inputs on every machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS_DIR } from '../../paths.js';

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
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const head = Buffer.alloc(8);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(json.length, 4);
  const c = v.components;
  return Buffer.concat([head, json, Buffer.from(c.buffer, c.byteOffset, c.byteLength)]);
}

export function decodeWordVectors(buf: Buffer): WordVectors {
  if (buf.length < 8 || buf.readUInt32LE(0) !== MAGIC) throw new Error('not a Gleaner word-vector file');
  const len = buf.readUInt32LE(4);
  const header = JSON.parse(buf.subarray(8, 8 + len).toString('utf8')) as WordVectorsHeader;
  const body = buf.subarray(8 + len);
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
  dims: number;
  components: Int8Array;
  /** row of each word, and of its negated token */
  rows: Map<string, number>;
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
  return { dims: v.dims, components: v.components, rows, acc: new Int32Array(v.dims) };
}

let table: Table | undefined;
function shipped(): Table {
  table ??= tableOf(decodeWordVectors(readFileSync(join(MODELS_DIR, WORD_VECTOR_FILE))));
  return table;
}

/** Writes the vector of a text's tokens at out[at .. at + WORD_VECTOR_DIMS): the sum of its words'
 *  vectors scaled to TEXT_VECTOR_LENGTH, or zeros when none of its words has one. */
export function writeTextVector(
  tokens: readonly string[],
  out: Float64Array,
  at: number,
  vectors: Table = shipped(),
): void {
  const { dims, components, rows, acc } = vectors;
  acc.fill(0);
  let found = false;
  for (const t of tokens) {
    const r = rows.get(t);
    if (r === undefined) continue;
    found = true;
    // (dims is a multiple of 8: checked at load)
    for (let j = 0, o = r * dims; j < dims; j += 8, o += 8) {
      acc[j]! += components[o]!;
      acc[j + 1]! += components[o + 1]!;
      acc[j + 2]! += components[o + 2]!;
      acc[j + 3]! += components[o + 3]!;
      acc[j + 4]! += components[o + 4]!;
      acc[j + 5]! += components[o + 5]!;
      acc[j + 6]! += components[o + 6]!;
      acc[j + 7]! += components[o + 7]!;
    }
  }
  let sq = 0;
  for (let j = 0; j < dims; j++) sq += acc[j]! * acc[j]!;
  if (!found || sq === 0) {
    out.fill(0, at, at + dims);
    return;
  }
  const f = TEXT_VECTOR_LENGTH / Math.sqrt(sq);
  for (let j = 0; j < dims; j++) out[at + j] = acc[j]! * f;
}

/** a table of given vectors (tests, training) */
export const wordVectorTable = tableOf;
