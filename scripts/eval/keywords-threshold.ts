// The length at which a document reads with the long-document parameters (LONG_UNITS in
// src/enrichment/keywords/index.ts), compared over a grid: Inspec F1@10 (all 2,000 abstracts; the
// requirement is not to lose it) and the long-document pool's papers cut to their first 300, 600 and
// 900 words (the news-length stand-in of npm run eval, over the whole pool). The rule: the lowest
// value whose Inspec F1@10 is within 0.001 of its figure without the switch (the largest value).
// The final split is not read. The grid and the rule are thresholdGrid in keywords.ts (npm run eval
// fails when the shipped switch is not the rule's choice).
//   npx tsx scripts/eval/keywords-threshold.ts   (flash; a few seconds per value)
import { LONG_UNITS } from '../../src/enrichment/keywords/index.js';
import { MEDIUM_WORDS, thresholdGrid } from './keywords.js';

const { rows, chosen } = thresholdGrid();
console.log(
  `long-document switch at … words: Inspec F1@10 / first ${MEDIUM_WORDS.join(' / ')} words F1@10 (pool), their mean`,
);
for (const r of rows)
  console.log(
    `${r.longUnits >= 1_000_000 ? 'never' : r.longUnits}: ${r.insp.toFixed(4)} / ${r.medium.map((m) => m.toFixed(3)).join(' / ')}, ` +
      `${(r.medium.reduce((x, y) => x + y, 0) / r.medium.length).toFixed(3)}` +
      `${r.longUnits === chosen ? ' (chosen)' : ''}${r.longUnits === LONG_UNITS ? ' (shipped)' : ''}`,
  );
if (chosen !== LONG_UNITS) {
  console.log(`the rule chooses ${chosen}, the code ships ${LONG_UNITS}`);
  process.exitCode = 1;
}
