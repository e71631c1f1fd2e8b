// The shipped term-rarity table (models/keywords-rarity.tsv, built by scripts/train-keywords.ts from
// the shared social corpora): a quantized IDF per term. It is loaded once, lazily, and also serves
// as the word list of the hashtag splitter.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS_DIR } from '../../paths.js';

export interface RarityTable {
  /** IDF in nats of a known term, or undefined */
  get(term: string): number | undefined;
  /** IDF given to unseen terms (the rarest value) */
  readonly unseen: number;
  readonly size: number;
}

let table: RarityTable | undefined;

export function parseRarity(text: string): RarityTable {
  const lines = text.split('\n');
  const header = lines[0] ?? '';
  const def = /default=(\d+)/.exec(header);
  if (!header.startsWith('#keywords-rarity v1') || !def) throw new Error('keywords-rarity.tsv: bad header');
  const map = new Map<string, number>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    map.set(line.slice(0, tab), Number(line.slice(tab + 1)) / 10);
  }
  return { get: (t) => map.get(t), unseen: Number(def[1]) / 10, size: map.size };
}

export function rarity(): RarityTable {
  table ??= parseRarity(readFileSync(join(MODELS_DIR, 'keywords-rarity.tsv'), 'utf8'));
  return table;
}
