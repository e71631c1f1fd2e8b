// Sentiment from hashed n-gram linear models (see docs/enrichment.md).
//
// Tweets and Reddit comments label sentiment differently (what counts as neutral, base rates),
// so each model holds shared weights plus per-domain corrections (three weight blocks per
// feature: shared, tweet, Reddit), and a gate model estimates how tweet-like a text is; the answer
// mixes the two domain readings by that estimate. A provider is a list of member models whose
// log-probabilities are averaged, then go through an optional per-domain readout (a linear map of
// them, a constant and the text's two lexicon features, lexicon.ts) and a per-domain class
// calibration, both tuned on out-of-fold predictions of the training data.
// A provider's models (and the complaint model) are fused into one table, so each feature of a
// text costs one memory access for all of them (fused.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LlmProvider } from '../../contract/items.js';
import { MODELS_DIR } from '../../paths.js';
import { FeatureCache } from './features.js';
import { canFuse, fuse, modelSums, register } from './fused.js';
import { lexiconFeatures, squashValence } from './lexicon.js';
import { type LinearModel, loadModel } from './linear.js';

export type SentimentLabel = 'negative' | 'neutral' | 'positive';
export const SENTIMENT_LABELS: readonly SentimentLabel[] = ['negative', 'neutral', 'positive'];
export const DOMAINS = ['tweet', 'reddit'] as const;

export interface SentimentAnalyzer {
  members: LinearModel[];
  gate: LinearModel;
  /** the gate's logit is multiplied by this before the sigmoid (> 1 sharpens the mix) */
  gateSharpness: number;
  /** additive log-probability offsets, [domain][class] */
  calibration: number[][];
  /** optional per-domain readout (null: none): logit k = Σ_j W[k][j]·logp_j + W[k][3]
   *  (+ Σ_j W[k][4 + j]·lex_j when the rows are longer), applied to the averaged member
   *  log-probabilities before the calibration */
  readout?: (number[][] | null)[];
  /** the readout reads the lexicon features (readsLexicon) */
  lexicon?: boolean;
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
  providers: Record<
    LlmProvider,
    { members: string[]; calibration: number[][]; gateSharpness: number; readout?: (number[][] | null)[] }
  >;
}

export const SENTIMENT_MANIFEST = 'sentiment.json';
/** the complaint model's manifest (complaint.ts); its model is fused with the sentiment models */
export const COMPLAINT_MANIFEST = 'complaint.json';

export type TextFeatures = readonly string[] | FeatureCache;
export const featureCache = (t: TextFeatures): FeatureCache =>
  t instanceof FeatureCache ? t : new FeatureCache(t);

/** the gate's logit for "Reddit rather than tweet" */
export function gateLogit(gate: LinearModel, text: TextFeatures): number {
  const { sums, at, n } = modelSums(gate, featureCache(text));
  const norm = gate.sqrtNorm && n > 0 ? gate.scale / Math.sqrt(n) : gate.scale;
  return (
    (sums[at + 1]! - sums[at]!) * norm +
    gate.bias[1]! -
    gate.bias[0]! +
    gate.calibration[1]! -
    gate.calibration[0]!
  );
}

/** p(tweet) from the gate model */
export function tweetLikeness(gate: LinearModel, text: TextFeatures, sharpness = 1): number {
  return 1 / (1 + Math.exp(sharpness * gateLogit(gate, text)));
}

function logSoftmax3(z0: number, z1: number, z2: number, out: number[], scale: number): void {
  const max = Math.max(z0, z1, z2);
  const lse = max + Math.log(Math.exp(z0 - max) + Math.exp(z1 - max) + Math.exp(z2 - max));
  out[0]! += (z0 - lse) * scale;
  out[1]! += (z1 - lse) * scale;
  out[2]! += (z2 - lse) * scale;
}

/** Averaged member log-probabilities for each domain reading: [domain][class]. A member's weights
 *  are [feature][shared, tweet, reddit][class]; a text's features count twice (shared and domain),
 *  so the sums are scaled by 1/sqrt(2n). */
export function memberLogProbs(members: readonly LinearModel[], text: TextFeatures): number[][] {
  const out = DOMAINS.map(() => [0, 0, 0]);
  const cache = featureCache(text);
  const share = 1 / members.length;
  for (const m of members) {
    if (m.blocks !== 3 || m.classes.length !== 3)
      throw new Error('sentiment member: expected 3 blocks × 3 classes');
    const { sums, at, n } = modelSums(m, cache);
    const norm = n > 0 ? m.scale / Math.sqrt(2 * n) : m.scale;
    const b0 = m.bias[0]! + m.calibration[0]!;
    const b1 = m.bias[1]! + m.calibration[1]!;
    const b2 = m.bias[2]! + m.calibration[2]!;
    for (let d = 0; d < 2; d++) {
      const o = at + 3 + 3 * d;
      logSoftmax3(
        (sums[at]! + sums[o]!) * norm + b0,
        (sums[at + 1]! + sums[o + 1]!) * norm + b1,
        (sums[at + 2]! + sums[o + 2]!) * norm + b2,
        out[d]!,
        share,
      );
    }
  }
  return out;
}

const NEUTRAL_PROBS: readonly number[] = [0, 1, 0];
const lexScratch = [0, 0];

/** a domain reading through its readout (see SentimentAnalyzer.readout); unchanged without one.
 *  A row longer than 4 also weighs the text's lexicon features (lexicon.ts): w[4 + j] · lex[j]. */
export function applyReadout(
  W: readonly (readonly number[])[] | null | undefined,
  l: readonly number[],
  lex?: readonly number[],
): number[] {
  if (!W) return l as number[];
  return W.map((w) => {
    let z = w[0]! * l[0]! + w[1]! * l[1]! + w[2]! * l[2]! + w[3]!;
    for (let j = 4; j < w.length; j++) z += w[j]! * lex![j - 4]!;
    return z;
  });
}

/** whether a provider's readout reads the lexicon features */
export const readsLexicon = (readout: SentimentAnalyzer['readout']): boolean =>
  (readout ?? []).some((W) => W?.some((w) => w.length > 4) ?? false);

export function predictSentiment(a: SentimentAnalyzer, text: TextFeatures): SentimentResult {
  const cache = featureCache(text);
  if (cache.tokens.length === 0) return { label: 'neutral', score: 0, probs: [...NEUTRAL_PROBS] };
  const g = tweetLikeness(a.gate, cache, a.gateSharpness);
  const logs = memberLogProbs(a.members, cache);
  // the fused sums above have added up the lexicon valence as they read the tokens
  const lex = a.lexicon
    ? cache.lexRead
      ? squashValence(cache.lexPos, cache.lexNeg, lexScratch)
      : lexiconFeatures(cache.tokens, lexScratch)
    : undefined;
  const probs = [0, 0, 0];
  for (let d = 0; d < DOMAINS.length; d++) {
    const w = d === 0 ? g : 1 - g;
    const l = applyReadout(a.readout?.[d], logs[d]!, lex);
    const c = a.calibration[d]!;
    const z0 = l[0]! + c[0]!;
    const z1 = l[1]! + c[1]!;
    const z2 = l[2]! + c[2]!;
    const max = Math.max(z0, z1, z2);
    const e0 = Math.exp(z0 - max);
    const e1 = Math.exp(z1 - max);
    const e2 = Math.exp(z2 - max);
    const s = w / (e0 + e1 + e2);
    probs[0]! += e0 * s;
    probs[1]! += e1 * s;
    probs[2]! += e2 * s;
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

/** Fuses models that share a feature space into one table per size (see fused.ts). */
export function fuseProvider(models: readonly LinearModel[]): void {
  const byBits = new Map<number, LinearModel[]>();
  for (const m of models) {
    if (!canFuse(m)) continue;
    const list = byBits.get(m.spec.bits) ?? [];
    if (!list.includes(m)) list.push(m);
    byBits.set(m.spec.bits, list);
  }
  for (const list of byBits.values()) register(fuse(list));
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
      gateSharpness: p.gateSharpness ?? 1,
      calibration: p.calibration,
      readout: p.readout,
      lexicon: readsLexicon(p.readout),
    };
    const complaintFile = join(MODELS_DIR, COMPLAINT_MANIFEST);
    const complaint = existsSync(complaintFile)
      ? [loadModelFile((JSON.parse(readFileSync(complaintFile, 'utf8')) as { model: string }).model)]
      : [];
    fuseProvider([...a.members, a.gate, ...complaint]);
    analyzers.set(provider, a);
  }
  return a;
}
