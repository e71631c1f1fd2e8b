// Enrichment throughput on one thread: texts per second for each type alone and all four
// together, for both providers, beside VADER's sentiment-only speed measured in the same run.
// The machine may be shared, so the measurements are interleaved: each round times VADER and then
// every case for a short slice, and the table reports medians over the rounds (the ratio column
// is the median of the per-round ratios, each against the VADER slice of its own round).
// The texts are real (TweetEval and GoEmotions), read at run time: a warm-up pass over the val/dev
// texts, then every case reads the train texts from its own starting point, so that what it
// analyzes is new to the engine (whose per-word memos would flatter a small sample read again and
// again) until it has read them all.
// BENCH_BASELINE=<git revision>[,<revision>…] adds each revision's engine (all four types) to the
// same rounds, then compares this code with it case by case in pairs timed by CPU time
// (BENCH_PAIRS pairs per case, default 100).
import { join } from 'node:path';
import vader from 'vader-sentiment';
import { goEmotions, tweetEval } from '../scripts/train/data.js';
import { ENRICHMENT_TYPES, type EnrichmentType, type LlmProvider } from '../src/contract/items.js';
import { analyze } from '../src/enrichment/engine/analyze.js';
import { BASELINES, baselineCheckout } from './lib/baseline.js';

/** all four enrichment types together, against VADER's sentiment only (docs/enrichment.md) */
const REQUIRED_RATIO = 2;

const WARMUP = 2_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 400);
/** beside a baseline: pairs per case, and texts per pair (see pairedSpeedups) */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 100);
const PAIR_TEXTS = 200;

/** tweets and Reddit comments, alternating */
function mix(tweetFile: string, redditFile: string, n = Number.POSITIVE_INFINITY): string[] {
  const tweets = tweetEval(tweetFile).map((e) => e.text);
  const reddit = goEmotions(redditFile).map((e) => e.text);
  const out: string[] = [];
  for (let i = 0; out.length < Math.min(n, 2 * Math.min(tweets.length, reddit.length)); i++)
    out.push(i % 2 === 0 ? tweets[i >> 1]! : reddit[i >> 1]!);
  return out;
}

/** texts per second over one slice: passes over the sample (resuming where the last slice of
 *  this case stopped) until SLICE_MS has elapsed */
function timeSlice(texts: readonly string[], fn: (t: string) => unknown, pos: { i: number }): number {
  let n = 0;
  const t0 = performance.now();
  let dt = 0;
  while (dt < SLICE_MS) {
    for (let k = 0; k < 100; k++) {
      fn(texts[pos.i]!);
      pos.i = (pos.i + 1) % texts.length;
    }
    n += 100;
    dt = performance.now() - t0;
  }
  return (n / dt) * 1000;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Case {
  name: string;
  provider: LlmProvider | null;
  fn: (t: string) => unknown;
  pos: { i: number };
  rates: number[];
  ratios: number[];
}

export default async function run(): Promise<void> {
  const warmup = mix('sentiment/tweeteval-val.jsonl', 'sentiment/goemotions-dev.jsonl', WARMUP);
  const texts = mix('sentiment/tweeteval-train.jsonl', 'sentiment/goemotions-train.jsonl');
  const chars = texts.reduce((s, t) => s + t.length, 0);
  const vaderCase: Case = {
    name: 'VADER sentiment',
    provider: null,
    fn: (t) => vader.SentimentIntensityAnalyzer.polarity_scores(t),
    pos: { i: 0 },
    rates: [],
    ratios: [],
  };
  const types: [string, EnrichmentType[]][] = [
    ['sentiment', ['sentiment']],
    ['topics', ['topics']],
    ['intent', ['intent']],
    ['keywords', ['keywords']],
    ['all four', [...ENRICHMENT_TYPES]],
  ];
  const cases: Case[] = [];
  for (const provider of ['model-2.0-flash', 'model-1.5-pro'] as LlmProvider[])
    for (const [name, t] of types)
      cases.push({
        name,
        provider,
        fn: (text) => analyze({ texts: [text], types: t, provider }),
        pos: { i: 0 },
        rates: [],
        ratios: [],
      });
  const baselines = BASELINES.map((rev) => baselineCheckout(rev));
  const baselineAnalyze = new Map<string, typeof analyze>();
  for (const baseline of baselines) {
    const mod = (await import(join(baseline.root, 'src/enrichment/engine/analyze.ts'))) as {
      analyze: typeof analyze;
    };
    baselineAnalyze.set(baseline.rev, mod.analyze);
    for (const provider of ['model-2.0-flash', 'model-1.5-pro'] as LlmProvider[])
      cases.push({
        name: `all four @ ${baseline.rev}`,
        provider,
        fn: (text) => mod.analyze({ texts: [text], types: [...ENRICHMENT_TYPES], provider }),
        pos: { i: 0 },
        rates: [],
        ratios: [],
      });
  }
  // warm-up: one pass of each over other texts (loads the models, lets the JIT settle); then each
  // case starts at its own place in the texts
  const all = [vaderCase, ...cases];
  all.forEach((c, k) => {
    for (const t of warmup) c.fn(t);
    c.pos.i = Math.floor((k * texts.length) / all.length);
  });
  for (let r = 0; r < ROUNDS; r++) {
    const v = timeSlice(texts, vaderCase.fn, vaderCase.pos);
    vaderCase.rates.push(v);
    for (const c of cases) {
      const x = timeSlice(texts, c.fn, c.pos);
      c.rates.push(x);
      c.ratios.push(x / v);
    }
  }
  console.log(
    `enrichment, one thread, ${texts.length} real texts (mean ${(chars / texts.length).toFixed(0)} chars, each case from its own start), ` +
      `${ROUNDS} interleaved rounds of ${SLICE_MS} ms per case, medians`,
  );
  console.log(`VADER sentiment only: ${median(vaderCase.rates).toFixed(0)} texts/s\n`);
  const rows: string[][] = [['types', 'provider', 'texts/s', '× VADER sentiment']];
  for (const c of cases)
    rows.push([c.name, c.provider!, median(c.rates).toFixed(0), median(c.ratios).toFixed(2)]);
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows)
    console.log(r.map((c, i) => (i >= 2 ? c.padStart(w[i]!) : c.padEnd(w[i]!))).join('  '));
  const flash = cases.find((c) => c.name === 'all four' && c.provider === 'model-2.0-flash')!;
  const lo = Math.min(...flash.ratios);
  const hi = Math.max(...flash.ratios);
  console.log(`\nall four (flash) per-round ratio: ${lo.toFixed(2)}-${hi.toFixed(2)}`);
  const ratio = median(flash.ratios);
  const met = ratio >= REQUIRED_RATIO;
  console.log(
    `requirement: all four together ≥ ${REQUIRED_RATIO.toFixed(2)} × VADER sentiment-only, on one core: ` +
      `${met ? 'met' : 'NOT MET'} (median ${ratio.toFixed(2)})`,
  );
  if (!met) process.exitCode = 1;
  for (const [rev, old] of baselineAnalyze) pairedSpeedups(rev, old, types, texts);
  for (const b of baselines) b.remove();
}

/** Speed-ups of this code over a baseline revision's `analyze`, by CPU time in fine-grained pairs:
 *  each pair puts the same PAIR_TEXTS texts through both, one after the other (which goes first
 *  alternates), so that a machine whose speed drifts moves both sides of a pair alike; the figure is
 *  the median of the per-pair speed-ups, with their quartiles. */
function pairedSpeedups(
  rev: string,
  old: typeof analyze,
  types: [string, EnrichmentType[]][],
  texts: readonly string[],
): void {
  const cpuPerText = (f: typeof analyze, t: EnrichmentType[], provider: LlmProvider, at: number) => {
    const u0 = process.cpuUsage();
    for (let i = 0; i < PAIR_TEXTS; i++) f({ texts: [texts[(at + i) % texts.length]!], types: t, provider });
    const u = process.cpuUsage(u0);
    return (u.user + u.system) / PAIR_TEXTS;
  };
  const quantile = (xs: readonly number[], q: number) =>
    [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;
  console.log(
    `\npaired against ${rev}: ${PAIRS} pairs of ${PAIR_TEXTS} texts per case, CPU time, median speed-up (quartiles)`,
  );
  let at = 0;
  for (const provider of ['model-2.0-flash', 'model-1.5-pro'] as LlmProvider[])
    for (const [name, t] of types) {
      const ups: number[] = [];
      const mine: number[] = [];
      const theirs: number[] = [];
      // the first pairs warm both sides up on this case and are not counted
      for (let k = -4; k < PAIRS; k++) {
        let a: number;
        let b: number;
        if (k % 2 === 0) {
          a = cpuPerText(old, t, provider, at);
          b = cpuPerText(analyze, t, provider, at);
        } else {
          b = cpuPerText(analyze, t, provider, at);
          a = cpuPerText(old, t, provider, at);
        }
        at += PAIR_TEXTS;
        if (k < 0) continue;
        theirs.push(a);
        mine.push(b);
        ups.push(a / b);
      }
      console.log(
        `  ${name.padEnd(9)} ${provider.padEnd(16)} ${median(ups).toFixed(2)}× (${quantile(ups, 0.25).toFixed(2)}-${quantile(ups, 0.75).toFixed(2)}); ` +
          `${median(mine).toFixed(1)} against ${median(theirs).toFixed(1)} µs of CPU per text`,
      );
    }
}
