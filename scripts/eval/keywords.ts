// Keyword extraction through `analyze` (what /ml/analyze runs), beside YAKE on the same documents:
// Inspec (Hulth 2003, 2,000 abstracts) F1@5 and F1@10, and long documents (Nguyen & Kan 2007, 209
// papers, author and reader keyphrases) F1@10 per fold of the pool and on the final 20%, and the
// same papers cut to their first 300, 600 and 900 words (news-length text). Exact match
// after Porter stemming, gold = all listed keyphrases (present or not); per-document P/R/F averaged
// over documents; precision divides by the number of keywords returned (at most k).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stemmer } from 'stemmer';
import type { LlmProvider } from '../../src/contract/items.js';
import { analyze } from '../../src/enrichment/engine/analyze.js';
import { extractKeywords, LONG_UNITS } from '../../src/enrichment/keywords/index.js';
import { ROOT } from '../../src/paths.js';
import { cvFold, FOLDS, isFinal20 } from '../train/splits.js';
import { type EvalRow, type Figure, READ_FINAL } from './types.js';
import { yake } from './yake.js';

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

export function loadLongDocs(): { id: string; text: string; keyphrases: string[] }[] {
  return readFileSync(join(DATA, 'keyphrases', 'nguyen2007.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { id: string; text: string; keyphrases: string[] });
}

/** the lengths (in words) the papers are cut to as a stand-in for news-length documents */
export const MEDIUM_WORDS = [300, 600, 900];
/** the first n whitespace-separated words of a text */
export const firstWords = (text: string, n: number): string => text.split(/\s+/).slice(0, n).join(' ');

/** the long-document switch compared over a grid (scripts/eval/keywords-threshold.ts prints it): Inspec
 *  F1@10 and the pool's papers cut to MEDIUM_WORDS; the rule takes the lowest value whose Inspec F1@10
 *  is within 0.001 of its figure without the switch. The final split is not read. */
const GRID = [100, 200, 250, 300, 400, 600, 1000, 1_000_000];
const INSPEC_SLACK = 0.001;

export interface ThresholdRow {
  longUnits: number;
  /** Inspec F1@10 */
  insp: number;
  /** F1@10 of the pool's papers cut to each of MEDIUM_WORDS */
  medium: number[];
}

/** every grid value's figures, and the value the rule chooses (`inspec` and `long`: the documents,
 *  when the caller has read them already) */
export function thresholdGrid(
  inspec = loadInspec(),
  long = loadLongDocs(),
): { rows: ThresholdRow[]; chosen: number } {
  const pool = long.filter((d) => !isFinal20(d.id));
  const read = (texts: readonly string[], longUnits: number) =>
    texts.map((t) => extractKeywords(t, { max: 10, longUnits }));
  const rows = GRID.map((longUnits) => ({
    longUnits,
    insp: f1At(
      read(
        inspec.map((d) => d.text),
        longUnits,
      ),
      inspec.map((d) => d.keyphrases),
      10,
    ),
    medium: MEDIUM_WORDS.map((n) =>
      f1At(
        read(
          pool.map((d) => firstWords(d.text, n)),
          longUnits,
        ),
        pool.map((d) => d.keyphrases),
        10,
      ),
    ),
  }));
  const without = rows[rows.length - 1]!.insp;
  return { rows, chosen: rows.find((r) => r.insp >= without - INSPEC_SLACK)!.longUnits };
}

const apiKeywords = (texts: string[], provider: LlmProvider): string[][] =>
  analyze({ texts, types: ['keywords'], provider }).map((e) => e.keywords!);

/** per-fold F1@k of `preds` on the documents' folds */
function folds(docs: readonly { id: string }[], preds: string[][], golds: string[][], k: number): number[] {
  return Array.from({ length: FOLDS }, (_f, f) => {
    const idx = docs.flatMap((d, i) => (cvFold(d.id) === f ? [i] : []));
    return f1At(
      idx.map((i) => preds[i]!),
      idx.map((i) => golds[i]!),
      k,
    );
  });
}

export default async function (): Promise<EvalRow[]> {
  const rows: EvalRow[] = [];
  // Inspec: nothing is fitted on it; every abstract is measured (shown as one figure)
  const inspec = loadInspec();
  const iGold = inspec.map((d) => d.keyphrases);
  const iFlash = apiKeywords(
    inspec.map((d) => d.text),
    'model-2.0-flash',
  );
  const iPro = apiKeywords(
    inspec.map((d) => d.text),
    'model-1.5-pro',
  );
  const iYake = inspec.map((d) => yake(d.text, 10));
  for (const k of [5, 10])
    rows.push({
      task: 'keywords',
      measure: `Inspec abstracts (${inspec.length.toLocaleString('en-US')}), F1@${k}`,
      flash: { cv: [f1At(iFlash, iGold, k)] },
      pro: { cv: [f1At(iPro, iGold, k)] },
      refs: { YAKE: { cv: [f1At(iYake, iGold, k)] } },
      published: k === 10 ? 'YAKE 0.316' : undefined,
      target: k === 10 ? 0.33 : undefined,
    });
  // long documents: the pool's folds; the final 20% by id
  const long = loadLongDocs();
  const pool = long.filter((d) => !isFinal20(d.id));
  const final = READ_FINAL ? long.filter((d) => isFinal20(d.id)) : [];
  const fig = (set: typeof long, pred: (texts: string[]) => string[][]) => {
    const golds = set.map((d) => d.keyphrases);
    return { preds: pred(set.map((d) => d.text)), golds };
  };
  const measure = (pred: (texts: string[]) => string[][]): Figure => {
    const p = fig(pool, pred);
    const f = READ_FINAL ? fig(final, pred) : undefined;
    return { cv: folds(pool, p.preds, p.golds, 10), final: f ? f1At(f.preds, f.golds, 10) : undefined };
  };
  rows.push({
    task: 'keywords',
    measure: `long documents (Nguyen & Kan 2007 papers: pool ${pool.length}, final ${final.length || '-'}), F1@10`,
    flash: measure((t) => apiKeywords(t, 'model-2.0-flash')),
    pro: measure((t) => apiKeywords(t, 'model-1.5-pro')),
    refs: { YAKE: measure((t) => t.map((x) => yake(x, 10))) },
    atLeast: 'YAKE',
  });
  // news-length documents: no such set with keyphrases is at hand, so the same papers cut to their
  // first 300, 600 and 900 words (title, abstract, the start of the body) stand in; the figure is
  // the mean of the three F1@10 (gold: the whole paper's keyphrases, for every system alike)
  const medium = (pred: (texts: string[]) => string[][]): Figure => {
    const per = MEDIUM_WORDS.map((n) => measure((t) => pred(t.map((x) => firstWords(x, n)))));
    const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      cv: Array.from({ length: FOLDS }, (_f, f) => mean(per.map((p) => p.cv![f]!))),
      final: READ_FINAL ? mean(per.map((p) => p.final!)) : undefined,
    };
  };
  // the switch to the long-document parameters must be the one the rule chooses (on the pool and
  // Inspec; keywords-threshold.ts)
  const { chosen } = thresholdGrid(inspec, long);
  rows.push({
    task: 'keywords',
    measure: `news-length stand-in (the same papers' first ${MEDIUM_WORDS.join(' / ')} words, mean), F1@10`,
    published: `switch at ${LONG_UNITS} words${chosen === LONG_UNITS ? ' = the rule' : ` ≠ the rule's ${chosen}`}`,
    missed: chosen !== LONG_UNITS,
    flash: medium((t) => apiKeywords(t, 'model-2.0-flash')),
    pro: medium((t) => apiKeywords(t, 'model-1.5-pro')),
    refs: { YAKE: medium((t) => t.map((x) => yake(x, 10))) },
    atLeast: 'YAKE',
  });
  return rows;
}
