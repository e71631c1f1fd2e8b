// Sentiment rows of `npm run eval`: macro-recall (TweetEval's official metric) of tweets and of
// Reddit comments, and of the tweet time split. CV figures of the models come from models/cv.json
// (trained per fold by `npm run train`); VADER is scored on the same folds here. Final splits go
// through `analyze`, the function POST /ml/analyze runs. One more row, without a target, reads the
// customer-service register, which no sentiment set here labels: how many of the complaints
// corpus's complaints (tweets to companies, never trained on by the sentiment models) come back
// negative, beside how many of its other tweets do.
import vader from 'vader-sentiment';
import type { LlmProvider } from '../../src/contract/items.js';
import { analyze } from '../../src/enrichment/engine/analyze.js';
import { SENTIMENT_LABELS } from '../../src/enrichment/engine/sentiment.js';
import { complaints, type Example, type Sentiment } from '../train/data.js';
import { macroRecall } from '../train/metrics.js';
import { ALL_CAMPAIGNS, sentimentFinal, sentimentPool } from '../train/sentiment.js';
import { cvFold, FOLDS, isComplaintFinal, isTweetNewer } from '../train/splits.js';
import { cvFigures } from './cv.js';
import { type EvalRow, type Figure, PRO_MARGIN, READ_FINAL } from './types.js';

/** flash with its tweet readout and calibration fitted on all the pool's tweets instead of the
 *  newest campaign's (scripts/train/sentiment.ts), measured by every training run */
const ALL_CAMPAIGNS_REF = 'flash fitted on all campaigns';

/** VADER's documented thresholds on the compound score */
export function vaderLabel(text: string): Sentiment {
  const c = vader.SentimentIntensityAnalyzer.polarity_scores(text).compound;
  return c >= 0.05 ? 'positive' : c <= -0.05 ? 'negative' : 'neutral';
}

function score(examples: readonly Example[], pred: readonly string[]): number {
  return macroRecall(
    examples.map((e) => SENTIMENT_LABELS.indexOf(e.label as Sentiment)),
    pred.map((p) => SENTIMENT_LABELS.indexOf(p as Sentiment)),
    3,
  );
}

export const apiSentiment = (texts: string[], provider: LlmProvider): string[] =>
  analyze({ texts, types: ['sentiment'], provider }).map((e) => e.sentiment!);

function vaderFolds(examples: readonly Example[]): number[] {
  const pred = examples.map((e) => vaderLabel(e.text));
  return Array.from({ length: FOLDS }, (_f, f) => {
    const idx = examples.flatMap((e, i) => (cvFold(e.id) === f ? [i] : []));
    return score(
      idx.map((i) => examples[i]!),
      idx.map((i) => pred[i]!),
    );
  });
}

/** The complaints corpus as a register check: per fold of its pool (and on its final split), the
 *  share of complaints read negative; the note gives the share of its other tweets read negative
 *  over the pool (a reader that calls everything negative would score 1 on the first share). */
export function complaintRegisterRow(): EvalRow {
  const all = complaints();
  const pool = all.filter((e) => !isComplaintFinal(e.id));
  const final = READ_FINAL ? all.filter((e) => isComplaintFinal(e.id)) : [];
  const readNegative = (examples: typeof all, labels: readonly string[], complaint: boolean) => {
    const idx = examples.flatMap((e, i) => ((e.label === 'complaint') === complaint ? [i] : []));
    return idx.filter((i) => labels[i] === 'negative').length / idx.length;
  };
  const fig = (read: (texts: string[]) => string[]): Figure => {
    const labels = read(pool.map((e) => e.text));
    const cv = Array.from({ length: FOLDS }, (_f, f) => {
      const idx = pool.flatMap((e, i) => (cvFold(e.id) === f ? [i] : []));
      return readNegative(
        idx.map((i) => pool[i]!),
        idx.map((i) => labels[i]!),
        true,
      );
    });
    const others = readNegative(pool, labels, false);
    return {
      cv,
      final: final.length > 0 ? readNegative(final, read(final.map((e) => e.text)), true) : undefined,
      note: `other tweets read negative ${others.toFixed(3)}`,
    };
  };
  return {
    task: 'sentiment',
    measure: `customer-service tweets (complaints corpus, no sentiment labels): complaints read negative (pool ${pool.length}; final ${final.length || '-'})`,
    flash: fig((texts) => apiSentiment(texts, 'model-2.0-flash')),
    pro: fig((texts) => apiSentiment(texts, 'model-1.5-pro')),
    refs: { VADER: fig((texts) => texts.map(vaderLabel)) },
  };
}

export default async function (): Promise<EvalRow[]> {
  const { all } = sentimentPool();
  const final = READ_FINAL ? sentimentFinal() : undefined;
  const sets = [
    { measure: 'tweets', pool: all.filter((e) => e.domain === 'tweet'), final: final?.tweets },
    { measure: 'reddit', pool: all.filter((e) => e.domain === 'reddit'), final: final?.reddit },
  ];
  const rows: EvalRow[] = [];
  for (const s of sets) {
    const fig = (model: string, provider?: LlmProvider): Figure => ({
      cv: cvFigures('sentiment', s.measure, model),
      final:
        provider && s.final
          ? score(
              s.final,
              apiSentiment(
                s.final.map((e) => e.text),
                provider,
              ),
            )
          : undefined,
    });
    rows.push({
      task: 'sentiment',
      measure:
        s.measure === 'tweets'
          ? `tweets, macro-recall (pool ${s.pool.length}; final: newest ${s.final?.length ?? '-'})`
          : `Reddit (GoEmotions), macro-recall (pool ${s.pool.length}; final ${s.final?.length ?? '-'})`,
      flash: fig('model-2.0-flash', 'model-2.0-flash'),
      pro: fig('model-1.5-pro', 'model-1.5-pro'),
      refs: {
        VADER: {
          cv: vaderFolds(s.pool),
          final: s.final
            ? score(
                s.final,
                s.final.map((e) => vaderLabel(e.text)),
              )
            : undefined,
        },
        plain: { cv: cvFigures('sentiment', s.measure, 'plain') },
        ...(s.measure === 'tweets'
          ? { [ALL_CAMPAIGNS_REF]: { cv: cvFigures('sentiment', 'tweets', ALL_CAMPAIGNS) } }
          : {}),
      },
      published:
        s.measure === 'tweets'
          ? 'TweetEval test: VADER ~0.56, linear n-grams 0.63-0.65, RoBERTa-base 0.71'
          : undefined,
      target: s.measure === 'tweets' ? 0.65 : 0.7,
      atLeast: 'plain',
      proMargin: PRO_MARGIN,
    });
  }
  const newer = all.filter((e) => isTweetNewer(e.id));
  const one = (v: number[] | undefined) => ({ cv: v });
  rows.push({
    task: 'sentiment',
    measure: `tweets time split: fit older, measure newer ${newer.length} (one split)`,
    flash: one(cvFigures('sentiment', 'tweets_time', 'model-2.0-flash')),
    pro: one(cvFigures('sentiment', 'tweets_time', 'model-1.5-pro')),
    refs: {
      VADER: {
        cv: [
          score(
            newer,
            newer.map((e) => vaderLabel(e.text)),
          ),
        ],
      },
      plain: one(cvFigures('sentiment', 'tweets_time', 'plain')),
      [ALL_CAMPAIGNS_REF]: one(cvFigures('sentiment', 'tweets_time', ALL_CAMPAIGNS)),
    },
    atLeast: 'plain',
    proMargin: PRO_MARGIN,
  });
  rows.push(complaintRegisterRow());
  return rows;
}
