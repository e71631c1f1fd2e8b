// Sentiment rows of `npm run eval`: macro-recall (TweetEval's official metric) on TweetEval val
// and GoEmotions dev, for both providers and for VADER in the same run.
import vader from 'vader-sentiment';
import type { LlmProvider } from '../../src/contract/items.js';
import {
  predictSentiment,
  SENTIMENT_LABELS,
  sentimentAnalyzer,
} from '../../src/enrichment/engine/sentiment.js';
import { tokenize } from '../../src/enrichment/engine/tokenizer.js';
import { type Example, goEmotions, type Sentiment, tweetEval } from '../train/data.js';
import { macroRecall } from '../train/metrics.js';
import type { EvalRow } from './types.js';

/** VADER's documented thresholds on the compound score */
export function vaderLabel(text: string): Sentiment {
  const c = vader.SentimentIntensityAnalyzer.polarity_scores(text).compound;
  return c >= 0.05 ? 'positive' : c <= -0.05 ? 'negative' : 'neutral';
}

function score(examples: readonly Example<Sentiment>[], predict: (text: string) => Sentiment): number {
  const gold = examples.map((e) => SENTIMENT_LABELS.indexOf(e.label));
  const pred = examples.map((e) => SENTIMENT_LABELS.indexOf(predict(e.text)));
  return macroRecall(gold, pred, 3);
}

const ours = (provider: LlmProvider) => {
  const a = sentimentAnalyzer(provider);
  return (text: string) => predictSentiment(a, tokenize(text)).label;
};

export default async function (): Promise<EvalRow[]> {
  const sets = [
    {
      dataset: 'TweetEval val (2,000)',
      examples: tweetEval('sentiment/tweeteval-val.jsonl'),
      reference: 'VADER ~0.56, linear n-grams 0.63-0.65, RoBERTa-base 0.71 (test split)',
      target: 0.68,
    },
    {
      dataset: 'GoEmotions dev (4,547 unambiguous)',
      examples: goEmotions('sentiment/goemotions-dev.jsonl'),
      reference: '-',
      target: 0.72,
    },
  ];
  return sets.map((s) => ({
    task: 'sentiment',
    dataset: s.dataset,
    metric: 'macro-recall',
    flash: score(s.examples, ours('model-2.0-flash')),
    pro: score(s.examples, ours('model-1.5-pro')),
    vader: score(s.examples, vaderLabel),
    reference: s.reference,
    target: s.target,
  }));
}
