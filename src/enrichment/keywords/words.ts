// What the keyword extractor and the topic classifier read of a lowercase word whatever its context
// (its part-of-speech facts, its Porter stem, its rarity), remembered in one bounded table. The
// shared tokenizer attaches each word's entry to its token, so a word is looked up once per text
// instead of once per use (each lookup of a fresh string in a large map mostly waits on memory).
// Every value is a pure function of the word: remembering it changes no output.
import { stemmer } from 'stemmer';
import { rarity } from './rarity.js';

export interface WordFacts {
  /** the keyword extractor's WordInfo bits (keywords/index.ts); -1 until first read */
  info: number;
  /** Porter stem; undefined until first read */
  stem: string | undefined;
  /** IDF in the rarity table (undefined: not in it); read when idfRead */
  idf: number | undefined;
  idfRead: boolean;
  /** the built-in topic index's reading of the word (topics/index.ts); undefined until first read */
  topic: object | undefined;
}

const WORDS = new Map<string, WordFacts>();
const WORDS_MAX = 50_000;

/** the remembered entry of a lowercase word (created empty on first sight) */
export function factsOf(word: string): WordFacts {
  let f = WORDS.get(word);
  if (f === undefined) {
    if (WORDS.size >= WORDS_MAX) WORDS.clear();
    f = { info: -1, stem: undefined, idf: undefined, idfRead: false, topic: undefined };
    WORDS.set(word, f);
  }
  return f;
}

/** the Porter stem of `word`, whose entry `f` is */
export function stemWith(f: WordFacts, word: string): string {
  let s = f.stem;
  if (s === undefined) {
    s = stemmer(word);
    f.stem = s;
  }
  return s;
}

/** the rarity table's IDF of `word` (undefined: not in it), whose entry `f` is */
export function idfWith(f: WordFacts, word: string): number | undefined {
  if (!f.idfRead) {
    f.idf = rarity().get(word);
    f.idfRead = true;
  }
  return f.idf;
}
