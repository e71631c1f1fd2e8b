import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FeatureCache } from '../../src/enrichment/engine/features.js';
import { predictSentiment, sentimentAnalyzer } from '../../src/enrichment/engine/sentiment.js';
import { tokenize } from '../../src/enrichment/engine/tokenizer.js';
import {
  decodeWordVectors,
  encodeWordVectors,
  reloadWordVectors,
  shippedVectorsVersion,
  TEXT_VECTOR_LENGTH,
  vectorWord,
  WORD_VECTOR_DIMS,
  WORD_VECTOR_FILE,
  type WordVectors,
  wordVectorTable,
  writeTextVector,
} from '../../src/enrichment/engine/word-vectors.js';
import { MODELS_DIR } from '../../src/paths.js';

/** a table of WORD_VECTOR_DIMS components where each word has one non-zero component */
function tiny(): WordVectors {
  const words = ['buy', 'order', 'rain'];
  const components = new Int8Array(words.length * WORD_VECTOR_DIMS);
  components[0 * WORD_VECTOR_DIMS + 0] = 100;
  components[1 * WORD_VECTOR_DIMS + 0] = 60;
  components[1 * WORD_VECTOR_DIMS + 1] = 80;
  components[2 * WORD_VECTOR_DIMS + 2] = -127;
  return { format: 1, producer: 'test', dims: WORD_VECTOR_DIMS, words, components };
}

const vectorOf = (tokens: string[], v = wordVectorTable(tiny())) => {
  const out = new Float64Array(WORD_VECTOR_DIMS + 2).fill(7);
  writeTextVector(tokens, out, 1, v);
  return out;
};
const length = (xs: Float64Array) => Math.sqrt(xs.reduce((s, x) => s + x * x, 0));
const cosine = (v: WordVectors, a: string, b: string) => {
  const row = (w: string) => {
    const r = v.words.indexOf(w);
    expect(r, w).toBeGreaterThanOrEqual(0);
    return Float64Array.from(v.components.subarray(r * v.dims, (r + 1) * v.dims));
  };
  const x = row(a);
  const y = row(b);
  return x.reduce((s, xi, i) => s + xi * y[i]!, 0) / (length(x) * length(y));
};

describe('word vectors', () => {
  it('survive encoding, and a truncated or foreign file is refused', () => {
    const v = tiny();
    const buf = encodeWordVectors(v);
    const back = decodeWordVectors(buf);
    expect(back.words).toEqual(v.words);
    expect([...back.components]).toEqual([...v.components]);
    expect(() => decodeWordVectors(buf.subarray(0, buf.length - 1))).toThrow(/expected/);
    expect(() => decodeWordVectors(Buffer.from('GLNM0000'))).toThrow(/not a Gleaner word-vector file/);
  });

  it("give a text the sum of its words' vectors at a fixed length, touching only its own slots", () => {
    const out = vectorOf(['i', 'want', 'to', 'buy', 'order', '!']);
    expect(out[0]).toBe(7);
    expect(out[WORD_VECTOR_DIMS + 1]).toBe(7);
    const v = out.subarray(1, WORD_VECTOR_DIMS + 1);
    expect(length(v)).toBeCloseTo(TEXT_VECTOR_LENGTH, 12);
    // (100 + 60, 80) scaled
    expect(v[0]! / v[1]!).toBeCloseTo(160 / 80, 12);
    expect(v[2]).toBe(0);
  });

  it('read a negated word as the word, and the order of words changes nothing', () => {
    expect([...vectorOf(['NEG_buy', 'order'])]).toEqual([...vectorOf(['order', 'buy'])]);
  });

  it('give zeros to a text without a known word (not the previous text’s vector)', () => {
    const v = wordVectorTable(tiny());
    vectorOf(['buy'], v);
    const out = vectorOf(['<url>', 'zzz', '??'], v);
    expect([...out.subarray(1, WORD_VECTOR_DIMS + 1)].every((x) => x === 0)).toBe(true);
  });

  it('are learned for words only: placeholders, tags, numbers and punctuation have none', () => {
    expect(tokenize('NOT buying #deals at 5 :) <3').flatMap((t) => vectorWord(t) ?? [])).toEqual([
      'not',
      'buying',
      'deals',
      'at',
    ]);
  });

  it('are shipped, and words used alike read alike', () => {
    const v = decodeWordVectors(readFileSync(join(MODELS_DIR, WORD_VECTOR_FILE)));
    expect(v.dims).toBe(WORD_VECTOR_DIMS);
    expect(v.words.length).toBeGreaterThan(5_000);
    expect(cosine(v, 'buy', 'purchase')).toBeGreaterThan(cosine(v, 'buy', 'rain') + 0.2);
    expect(cosine(v, 'tickets', 'ticket')).toBeGreaterThan(cosine(v, 'tickets', 'refund') + 0.2);
    expect(cosine(v, 'awesome', 'amazing')).toBeGreaterThan(cosine(v, 'awesome', 'refund') + 0.2);
  });

  it("read through the rows the fused sums keep with each token, the same vector as through the vectors' own lookup", () => {
    const texts = [
      "I can't believe they didn't ship my order, worst store ever",
      'Where can I buy these shoes?? #want',
      'sooo happy with the new phone, thanks @support :)',
      'Not bad at all. NOT BAD. never again though',
    ];
    for (const provider of ['model-2.0-flash', 'model-1.5-pro'] as const)
      for (const text of texts) {
        const features = new FeatureCache(tokenize(text));
        predictSentiment(sentimentAnalyzer(provider), features);
        const rows = features.vectorRows;
        expect(rows?.length).toBe(features.tokens.length);
        expect(rows!.some((r) => r >= 0)).toBe(true);
        const looked = new Float64Array(WORD_VECTOR_DIMS);
        const kept = new Float64Array(WORD_VECTOR_DIMS);
        writeTextVector(features.tokens, looked, 0);
        writeTextVector(features.tokens, kept, 0, undefined, rows);
        expect(kept).toEqual(looked);
        expect(length(kept)).toBeCloseTo(TEXT_VECTOR_LENGTH, 9);
      }
  });

  it('are those of the last reload, and the rows kept with the fused sums follow them', () => {
    const text = "Where can I buy these?? can't wait, thanks @shop";
    const read = () => {
      const features = new FeatureCache(tokenize(text));
      predictSentiment(sentimentAnalyzer('model-2.0-flash'), features);
      const kept = new Float64Array(WORD_VECTOR_DIMS);
      writeTextVector(features.tokens, kept, 0, undefined, features.vectorRows);
      const looked = new Float64Array(WORD_VECTOR_DIMS);
      writeTextVector(features.tokens, looked, 0);
      return { rows: features.vectorRows!, kept, looked };
    };
    const shippedReading = read();
    const version = shippedVectorsVersion();
    try {
      // the tokens were read (and their rows kept) with the shipped vectors; tiny() knows only 'buy'
      reloadWordVectors(tiny());
      expect(shippedVectorsVersion()).toBe(version + 1);
      const tinyReading = read();
      const buy = tokenize(text).indexOf('buy');
      expect(tinyReading.rows).toEqual(tokenize(text).map((_, i) => (i === buy ? 0 : -1)));
      expect(tinyReading.kept).toEqual(tinyReading.looked);
      expect(tinyReading.kept).toEqual(
        vectorOf(['buy'], wordVectorTable(tiny())).subarray(1, 1 + WORD_VECTOR_DIMS),
      );
    } finally {
      reloadWordVectors();
    }
    const again = read();
    expect(again.rows).toEqual(shippedReading.rows);
    expect(again.kept).toEqual(shippedReading.looked);
  });
});
