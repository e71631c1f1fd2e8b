// `npm run eval`: the field's metrics for every enrichment type, for both built-in providers and
// for VADER in the same run, on data the shipped models never trained on. Exits 1 when a figure
// misses its target.
import intentRows from './eval/intent.js';
import keywordRows from './eval/keywords.js';
import sentimentRows from './eval/sentiment.js';
import topicRows from './eval/topics.js';
import type { EvalRow } from './eval/types.js';

const rows: EvalRow[] = [];
for (const part of [sentimentRows, intentRows, topicRows, keywordRows]) rows.push(...(await part()));

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
const header = ['task', 'dataset', 'metric', 'flash', 'pro', 'VADER', 'published reference', 'target', ''];
const table = rows.map((r) => {
  const missed = r.target !== undefined && (r.flash < r.target || r.pro < r.target);
  return [
    r.task,
    r.dataset,
    r.metric,
    fmt(r.flash),
    fmt(r.pro),
    fmt(r.vader),
    r.reference ?? '-',
    fmt(r.target),
    missed ? 'MISSED' : r.target !== undefined ? 'ok' : '',
  ];
});
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of table) console.log(line(r));

const missed = rows.filter((r) => r.target !== undefined && (r.flash < r.target || r.pro < r.target));
if (missed.length > 0) {
  console.error(
    `\n${missed.length} target(s) missed: ${missed.map((r) => `${r.task} on ${r.dataset}`).join('; ')}`,
  );
  process.exitCode = 1;
}
