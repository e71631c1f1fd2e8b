// Sentiment from hashed n-gram linear models (see docs/enrichment.md).
//
// Tweets and Reddit comments label sentiment differently (what counts as neutral, base rates),
// so each model holds shared weights plus per-domain corrections, and a small gate model
// estimates how tweet-like a text is; the answer mixes the two domain readings by that estimate.
// A provider is a list of member models whose log-probabilities are averaged (flash: one member,
// pro: an ensemble), followed by a per-domain class calibration tuned on held-out training data.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LlmProvider } from '../../contract/items.js';
import { MODELS_DIR } from '../../paths.js';
import { domainCopy, FeatureCache } from './features.js';
import { type LinearModel, loadModel, logitsOf, softmax } from './linear.js';

export type SentimentLabel = 'negative' | 'neutral' | 'positive';
export const SENTIMENT_LABELS: readonly SentimentLabel[] = ['negative', 'neutral', 'positive'];
export const DOMAINS = ['tweet', 'reddit'] as const;

export interface SentimentAnalyzer {
  members: LinearModel[];
  gate: LinearModel;
  /** additive log-probability offsets, [domain][class] */
  calibration: number[][];
}

export interface SentimentResult {
  label: SentimentLabel;
  /** p(positive) − p(negative), rounded to 4 decimals */
  score: number;
  probs: number[];
}

export interface SentimentManifest {
  producer: string;
  gate: string;
  providers: Record<LlmProvider, { members: string[]; calibration: number[][] }>;
}

export const SENTIMENT_MANIFEST = 'sentiment.json';

export type TextFeatures = readonly string[] | FeatureCache;
export const featureCache = (t: TextFeatures): FeatureCache =>
  t instanceof FeatureCache ? t : new FeatureCache(t);

/** p(tweet) from the gate model */
export function tweetLikeness(gate: LinearModel, text: TextFeatures): number {
  return softmax(logitsOf(gate, featureCache(text).indices(gate.spec)))[0]!;
}

/** Averaged member log-probabilities for each domain reading: [domain][class]. */
export function memberLogProbs(members: readonly LinearModel[], text: TextFeatures): number[][] {
  const out = DOMAINS.map(() => [0, 0, 0]);
  const cache = featureCache(text);
  for (const m of members) {
    const base = cache.indices(m.spec);
    // integer sums: the shared part once, then each domain's correction; the same numbers as
    // logitsOf() over [base, copies], computed with half the lookups
    const w = m.weights;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < base.length; i++) {
      const b = base[i]! * 3;
      s0 += w[b]!;
      s1 += w[b + 1]!;
      s2 += w[b + 2]!;
    }
    const norm = base.length > 0 ? m.scale / Math.sqrt(2 * base.length) : m.scale;
    for (let d = 0; d < DOMAINS.length; d++) {
      let d0 = s0;
      let d1 = s1;
      let d2 = s2;
      for (let i = 0; i < base.length; i++) {
        const b = domainCopy(base[i]!, d, m.spec.bits) * 3;
        d0 += w[b]!;
        d1 += w[b + 1]!;
        d2 += w[b + 2]!;
      }
      const p = softmax([
        d0 * norm + m.bias[0]! + m.calibration[0]!,
        d1 * norm + m.bias[1]! + m.calibration[1]!,
        d2 * norm + m.bias[2]! + m.calibration[2]!,
      ]);
      for (let k = 0; k < 3; k++) out[d]![k]! += Math.log(Math.max(p[k]!, 1e-12)) / members.length;
    }
  }
  return out;
}

export function predictSentiment(a: SentimentAnalyzer, text: TextFeatures): SentimentResult {
  const cache = featureCache(text);
  if (cache.tokens.length === 0) return { label: 'neutral', score: 0, probs: [0, 1, 0] };
  const g = tweetLikeness(a.gate, cache);
  const logs = memberLogProbs(a.members, cache);
  const probs = [0, 0, 0];
  for (let d = 0; d < DOMAINS.length; d++) {
    const w = d === 0 ? g : 1 - g;
    const p = softmax(logs[d]!.map((l, k) => l + a.calibration[d]![k]!));
    for (let k = 0; k < 3; k++) probs[k]! += w * p[k]!;
  }
  let best = 0;
  for (let k = 1; k < 3; k++) if (probs[k]! > probs[best]!) best = k;
  const score = Math.round((probs[2]! - probs[0]!) * 1e4) / 1e4;
  // -0 would serialize as 0 but compare unequal in some checks; normalize it
  return { label: SENTIMENT_LABELS[best]!, score: score === 0 ? 0 : score, probs };
}

const fileCache = new Map<string, LinearModel>();
const analyzers = new Map<LlmProvider, SentimentAnalyzer>();

export function loadModelFile(name: string): LinearModel {
  let m = fileCache.get(name);
  if (!m) {
    m = loadModel(join(MODELS_DIR, name));
    fileCache.set(name, m);
  }
  return m;
}

/** The shipped analyzer of a provider, loaded on first use and kept for the process/thread. */
export function sentimentAnalyzer(provider: LlmProvider): SentimentAnalyzer {
  let a = analyzers.get(provider);
  if (!a) {
    const manifest = JSON.parse(
      readFileSync(join(MODELS_DIR, SENTIMENT_MANIFEST), 'utf8'),
    ) as SentimentManifest;
    const p = manifest.providers[provider];
    a = {
      members: p.members.map(loadModelFile),
      gate: loadModelFile(manifest.gate),
      calibration: p.calibration,
    };
    analyzers.set(provider, a);
  }
  return a;
}
