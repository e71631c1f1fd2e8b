// `npm run eval`: every measure of the enrichment types as the API returns them (the same
// `analyze` that POST /ml/analyze runs), for both built-in providers beside the references (VADER,
// YAKE, a plain linear model), under the protocol of scripts/train/splits.ts: figures chosen and
// measured by 5-fold cross-validation over the pool (mean ± sd across folds), and the final split,
// read once per release. `npm run eval -- --cv` leaves the final split out (for development);
// `--only=intent,topics` runs those parts alone (sentiment, intent, topics, keywords), so that parts
// can run in separate processes side by side. Exits 1 when a target is missed.
import intentRows from './eval/intent.js';
import keywordRows from './eval/keywords.js';
import { checkRow, formatFigure } from './eval/report.js';
import sentimentRows from './eval/sentiment.js';
import topicRows from './eval/topics.js';
import { type EvalRow, READ_FINAL } from './eval/types.js';

const PARTS = { sentiment: sentimentRows, intent: intentRows, topics: topicRows, keywords: keywordRows };
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .filter(Boolean);
const unknown = (only ?? []).filter((name) => !(name in PARTS));
if (unknown.length > 0) {
  console.error(`--only: unknown part ${unknown.join(', ')}; the parts are ${Object.keys(PARTS).join(', ')}`);
  process.exit(2);
}
const rows: EvalRow[] = [];
for (const [name, part] of Object.entries(PARTS))
  if (!only || only.includes(name)) rows.push(...(await part()));

const header = ['task', 'measure', 'flash', 'pro', 'references', 'published', 'target', ''];
const problems: string[] = [];
const table = rows.map((r) => {
  const missed = checkRow(r);
  if (missed.length > 0) problems.push(`${r.task} ${r.measure}: ${missed.join('; ')}`);
  const target = [
    r.target !== undefined ? `≥ ${r.target.toFixed(2)}` : '',
    r.atLeast ? `≥ ${r.atLeast}` : '',
    r.proMargin !== undefined ? `pro ≥ flash + ${r.proMargin.toFixed(2)}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const refs = Object.entries(r.refs ?? {})
    .map(([name, f]) => `${name} ${formatFigure(f)}`)
    .join('; ');
  return [
    r.task,
    r.measure,
    formatFigure(r.flash),
    formatFigure(r.pro),
    refs || '-',
    r.published ?? '-',
    target || '-',
    missed.length > 0 ? 'MISSED' : target || r.missed !== undefined ? 'ok' : '',
  ];
});
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(
  `figures: CV mean ± sd over 5 folds${READ_FINAL ? ' / final split' : ' (final split not read: --cv)'}\n`,
);
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of table) console.log(line(r));

if (problems.length > 0) {
  console.error(`\n${problems.length} target(s) missed:\n- ${problems.join('\n- ')}`);
  process.exitCode = 1;
}
