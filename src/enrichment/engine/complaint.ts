// Complaint detection: a hashed n-gram logistic regression trained on customer-service tweets,
// stacked with the sentiment model's probabilities (complaints are mostly negative, but not all
// negative texts are complaints).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LlmProvider } from '../../contract/items.js';
import { MODELS_DIR } from '../../paths.js';
import { modelSums } from './fused.js';
import type { LinearModel } from './linear.js';
import {
  COMPLAINT_MANIFEST,
  featureCache,
  loadModelFile,
  sentimentAnalyzer,
  type TextFeatures,
} from './sentiment.js';

export { COMPLAINT_MANIFEST };

export interface ComplaintManifest {
  producer: string;
  model: string;
  /** weights of [text margin, log p(negative), log p(positive), 1], per provider */
  stack: Record<LlmProvider, number[]>;
}

export interface ComplaintDetector {
  model: LinearModel;
  stack: number[];
}

export function stackFeatures(textMargin: number, sentimentProbs: readonly number[]): number[] {
  return [textMargin, Math.log(sentimentProbs[0]! + 1e-4), Math.log(sentimentProbs[2]! + 1e-4), 1];
}

/** the complaint logit: > 0 means complaint */
export function complaintLogit(
  d: ComplaintDetector,
  text: TextFeatures,
  sentimentProbs: readonly number[],
): number {
  const m = d.model;
  const { sums, at, n } = modelSums(m, featureCache(text));
  const norm = m.sqrtNorm && n > 0 ? m.scale / Math.sqrt(n) : m.scale;
  const margin =
    (sums[at + 1]! - sums[at]!) * norm + m.bias[1]! - m.bias[0]! + m.calibration[1]! - m.calibration[0]!;
  const x = stackFeatures(margin, sentimentProbs);
  let s = 0;
  for (let k = 0; k < x.length; k++) s += x[k]! * d.stack[k]!;
  return s;
}

const detectors = new Map<LlmProvider, ComplaintDetector>();

export function complaintDetector(provider: LlmProvider): ComplaintDetector {
  let d = detectors.get(provider);
  if (!d) {
    sentimentAnalyzer(provider); // loads and fuses the provider's tables, this model included
    const m = JSON.parse(readFileSync(join(MODELS_DIR, COMPLAINT_MANIFEST), 'utf8')) as ComplaintManifest;
    d = { model: loadModelFile(m.model), stack: m.stack[provider] };
    detectors.set(provider, d);
  }
  return d;
}
