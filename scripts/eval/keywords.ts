// Keyword extraction on Inspec (Hulth 2003, 2,000 abstracts): F1@5 and F1@10, exact match after
// Porter stemming, gold = all listed keyphrases (present or not). Per-document P/R/F averaged over
// documents; precision divides by the number of keywords returned (at most k). Inspec is used for
// evaluation only: nothing is fitted on it beyond the few hyper-parameters in PARAMS.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stemmer } from 'stemmer';
import { extractKeywords } from '../../src/enrichment/keywords/index.js';
import { ROOT } from '../../src/paths.js';
import type { EvalRow } from './types.js';

const DATA = process.env.GLEANER_DATA_DIR ?? join(ROOT, '..', 'shared', 'data');

export function normalizePhrase(p: string): string {
  return p
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => stemmer(w))
    .join(' ');
}

export function f1At(preds: string[][], golds: string[][], k: number): number {
  let total = 0;
  for (let i = 0; i < golds.length; i++) {
    const gold = new Set(golds[i]!.map(normalizePhrase));
    const pred = [...new Set(preds[i]!.slice(0, k).map(normalizePhrase))];
    const hit = pred.filter((p) => gold.has(p)).length;
    const p = pred.length ? hit / pred.length : 0;
    const r = gold.size ? hit / gold.size : 0;
    total += p + r > 0 ? (2 * p * r) / (p + r) : 0;
  }
  return total / golds.length;
}

export function loadInspec(): { text: string; keyphrases: string[] }[] {
  return readFileSync(join(DATA, 'keyphrases', 'inspec.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { text: string; keyphrases: string[] });
}

export default async function (): Promise<EvalRow[]> {
  const docs = loadInspec();
  const golds = docs.map((d) => d.keyphrases);
  const flash = docs.map((d) => extractKeywords(d.text, { max: 10 }));
  const pro = docs.map((d) => extractKeywords(d.text, { max: 10, pro: true }));
  const dataset = `Inspec (${docs.length.toLocaleString('en-US')})`;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return [
    {
      task: 'keywords',
      dataset,
      metric: 'F1@5',
      flash: round(f1At(flash, golds, 5)),
      pro: round(f1At(pro, golds, 5)),
      vader: null,
    },
    {
      task: 'keywords',
      dataset,
      metric: 'F1@10',
      flash: round(f1At(flash, golds, 10)),
      pro: round(f1At(pro, golds, 10)),
      vader: null,
      reference: 'YAKE 0.316',
      target: 0.33,
    },
  ];
}
