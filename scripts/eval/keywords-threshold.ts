// The length at which a document reads with the long-document parameters (LONG_UNITS in
// src/enrichment/keywords/index.ts), compared over a grid: Inspec F1@10 (all 2,000 abstracts; the
// requirement is not to lose it) and the long-document pool's papers cut to their first 300, 600 and
// 900 words (the news-length stand-in of npm run eval; mean of the 5 folds). The rule: the lowest
// value whose Inspec F1@10 is within 0.001 of its figure without the switch (the largest value).
// The final split is not read.
//   npx tsx scripts/eval/keywords-threshold.ts   (flash; a few seconds per value)
import { extractKeywords, LONG_UNITS } from '../../src/enrichment/keywords/index.js';
import { isFinal20 } from '../train/splits.js';
import { f1At, firstWords, loadInspec, loadLongDocs, MEDIUM_WORDS } from './keywords.js';

const GRID = [100, 200, 250, 300, 400, 600, 1000, 1_000_000];
const INSPEC_SLACK = 0.001;

export interface ThresholdRow {
  longUnits: number;
  /** Inspec F1@10 */
  insp: number;
  /** F1@10 of the pool's papers cut to each of MEDIUM_WORDS */
  medium: number[];
}

/** every grid value's figures, and the value the rule chooses */
export function thresholdGrid(): { rows: ThresholdRow[]; chosen: number } {
  const inspec = loadInspec();
  const pool = loadLongDocs().filter((d) => !isFinal20(d.id));
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, chosen } = thresholdGrid();
  console.log(
    `long-document switch at … words: Inspec F1@10 / first ${MEDIUM_WORDS.join(' / ')} words F1@10 (pool)`,
  );
  for (const r of rows)
    console.log(
      `${r.longUnits >= 1_000_000 ? 'never' : r.longUnits}: ${r.insp.toFixed(4)} / ${r.medium.map((m) => m.toFixed(3)).join(' / ')}` +
        `${r.longUnits === chosen ? ' (chosen)' : ''}${r.longUnits === LONG_UNITS ? ' (shipped)' : ''}`,
    );
  if (chosen !== LONG_UNITS) {
    console.log(`the rule chooses ${chosen}, the code ships ${LONG_UNITS}`);
    process.exitCode = 1;
  }
}
