// Sentiment lexicon features: how much positive and negative valence a text's words carry by a
// fixed word list (models/sentiment-lexicon.tsv, the VADER lexicon of Hutto and Gilbert 2014,
// written there by `npm run train -- sentiment`). The n-gram models learn word weights from the
// training tweets alone, so a sentiment word that was rare or absent in them carries little; the
// lexicon knows it anyway, which matters most on text later than the training data. The two
// features enter the sentiment readout (sentiment.ts) beside the members' log-probabilities.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS_DIR } from '../../paths.js';
import { LITOTES } from './tokenizer.js';

export const SENTIMENT_LEXICON = 'sentiment-lexicon.tsv';
/** a word read in a negation scope (`NEG_word`) counts with its valence times this (VADER's factor) */
export const NEGATED_VALENCE = -0.74;
/** litotes (tokenizer.ts LITOTES: "not bad", "I don't hate it") counts as VADER reads "not bad", whose
 *  word is the commonest of them: bad's −2.5 times NEGATED_VALENCE */
export const LITOTES_VALENCE = -2.5 * NEGATED_VALENCE;

let table: Map<string, number> | undefined;
let present: boolean | undefined;

/** whether the lexicon file is there (the models that do not read it must not need it) */
export function hasLexicon(): boolean {
  present ??= table !== undefined || existsSync(join(MODELS_DIR, SENTIMENT_LEXICON));
  return present;
}

/** a token's signed contribution to the lexicon features: its valence, a negated word's valence
 *  times NEGATED_VALENCE; undefined when the token is not in the lexicon. lexiconFeatures sums
 *  these in token order, and so do the fused sums (fused.ts) from their per-token memo. */
export function tokenValence(t: string): number | undefined {
  const lex = lexicon();
  if (t.startsWith('NEG_')) {
    const v = lex.get(t.slice(4));
    return v === undefined ? undefined : v * NEGATED_VALENCE;
  }
  return t === LITOTES ? LITOTES_VALENCE : lex.get(t);
}

/** the two features from the summed positive and negative valence (see lexiconFeatures) */
export function squashValence(pos: number, neg: number, out: number[]): number[] {
  out[0] = pos / Math.sqrt(pos * pos + 15);
  out[1] = neg / Math.sqrt(neg * neg + 15);
  return out;
}

/** word → valence (−4 to 4), loaded once per process or worker thread */
export function lexicon(): Map<string, number> {
  if (!table) {
    const file = join(MODELS_DIR, SENTIMENT_LEXICON);
    if (!existsSync(file)) throw new Error(`missing ${file}: run npm run train -- sentiment`);
    table = new Map();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.startsWith('#')) continue; // the header (no lexicon entry starts with '#')
      const tab = line.indexOf('\t');
      if (tab > 0) table.set(line.slice(0, tab), Number(line.slice(tab + 1)));
    }
  }
  return table;
}

/** The two lexicon features of a token list: the positive and the negative valence summed over the
 *  words (a negated word's valence times NEGATED_VALENCE), each squashed into [0, 1) as VADER
 *  normalizes its sum (x / √(x² + 15)). */
export function lexiconFeatures(tokens: readonly string[], out: number[] = [0, 0]): number[] {
  let pos = 0;
  let neg = 0;
  for (let i = 0; i < tokens.length; i++) {
    const v = tokenValence(tokens[i]!);
    if (v === undefined) continue;
    if (v > 0) pos += v;
    else neg -= v;
  }
  return squashValence(pos, neg, out);
}
