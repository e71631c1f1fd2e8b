// Enrichment throughput on one thread: texts per second for each type alone and all four
// together, for both providers, beside VADER's sentiment-only speed measured in the same run.
// The sample is a fixed slice of real texts (TweetEval val and GoEmotions dev), read at run time.
import vader from 'vader-sentiment';
import { goEmotions, tweetEval } from '../scripts/train/data.js';
import type { EnrichmentType, LlmProvider } from '../src/contract/items.js';
import { analyze } from '../src/enrichment/engine/analyze.js';

const SAMPLE = 2_000;
const MIN_MS = 1_500;

function sample(): string[] {
  const tweets = tweetEval('sentiment/tweeteval-val.jsonl').map((e) => e.text);
  const reddit = goEmotions('sentiment/goemotions-dev.jsonl').map((e) => e.text);
  const out: string[] = [];
  for (let i = 0; out.length < SAMPLE; i++)
    out.push(i % 2 === 0 ? tweets[i % tweets.length]! : reddit[i % reddit.length]!);
  return out;
}

/** texts per second: repeat passes over the sample until MIN_MS has elapsed (after one warm-up pass) */
function rate(texts: readonly string[], fn: (t: string) => unknown): number {
  for (const t of texts) fn(t);
  let n = 0;
  const t0 = performance.now();
  let dt = 0;
  while (dt < MIN_MS) {
    for (const t of texts) fn(t);
    n += texts.length;
    dt = performance.now() - t0;
  }
  return (n / dt) * 1000;
}

export default async function run(): Promise<void> {
  const texts = sample();
  const vaderRate = rate(texts, (t) => vader.SentimentIntensityAnalyzer.polarity_scores(t));
  const chars = texts.reduce((s, t) => s + t.length, 0);
  console.log(
    `enrichment, one thread, ${texts.length} real texts (mean ${(chars / texts.length).toFixed(0)} chars)`,
  );
  console.log(`VADER sentiment only: ${vaderRate.toFixed(0)} texts/s\n`);
  const cases: [string, EnrichmentType[]][] = [
    ['sentiment', ['sentiment']],
    ['topics', ['topics']],
    ['intent', ['intent']],
    ['keywords', ['keywords']],
    ['all four', ['sentiment', 'topics', 'intent', 'keywords']],
  ];
  const rows: string[][] = [['types', 'provider', 'texts/s', '× VADER sentiment']];
  for (const provider of ['model-2.0-flash', 'model-1.5-pro'] as LlmProvider[]) {
    for (const [name, types] of cases) {
      const r = rate(texts, (t) => analyze({ texts: [t], types, provider }));
      rows.push([name, provider, r.toFixed(0), (r / vaderRate).toFixed(2)]);
    }
  }
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows)
    console.log(r.map((c, i) => (i >= 2 ? c.padStart(w[i]!) : c.padEnd(w[i]!))).join('  '));
  console.log('\nrequirement: all four together ≥ 2.00 × VADER sentiment-only, on one core');
}
