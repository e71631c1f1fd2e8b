// The built-in analyzer: synchronous and pure. One Enrichment per text, holding only the keys of
// the requested types, in the order sentiment, sentiment_score, topics, intent, keywords.
// Models load lazily on first use and stay for the life of the process or worker thread.
import type { Enrichment, Intent, LlmProvider } from '../../contract/items.js';
import type { EnrichRequest } from '../interface.js';
import { extractKeywords } from '../keywords/index.js';
import { classifyTopics } from '../topics/index.js';
import { complaintDetector } from './complaint.js';
import { FeatureCache } from './features.js';
import { classifyIntent, intentModel } from './intent.js';
import { predictSentiment, type SentimentResult, sentimentAnalyzer } from './sentiment.js';
import { restoreEscapes, tokenize } from './tokenizer.js';

// Sentiment and intent read at most this many characters: beyond it the verdict does not change
// in practice, and the cost of a 100,000-character text stays bounded.
const MODEL_MAX_CHARS = 20_000;

const NEUTRAL: SentimentResult = { label: 'neutral', score: 0, probs: [0, 1, 0] };

export function analyzeOne(
  input: string,
  types: ReadonlySet<string>,
  provider: LlmProvider,
  categories?: string[],
): Enrichment {
  const pro = provider === 'model-1.5-pro';
  const text = restoreEscapes(input);
  const out: Enrichment = {};
  const needSentiment = types.has('sentiment') || types.has('intent');
  const clipped = text.length > MODEL_MAX_CHARS ? text.slice(0, MODEL_MAX_CHARS) : text;
  const features = new FeatureCache(needSentiment ? tokenize(clipped) : []);
  const tokens = features.tokens;
  const sentiment =
    needSentiment && tokens.length > 0 ? predictSentiment(sentimentAnalyzer(provider), features) : NEUTRAL;
  if (types.has('sentiment')) {
    out.sentiment = sentiment.label;
    out.sentiment_score = sentiment.score;
  }
  if (types.has('topics')) out.topics = classifyTopics(text, { categories, pro });
  if (types.has('intent')) {
    const intent: Intent =
      tokens.length === 0
        ? 'engagement'
        : classifyIntent({
            text: clipped,
            features,
            sentiment,
            complaint: complaintDetector(provider),
            model: intentModel(provider),
          });
    out.intent = intent;
  }
  if (types.has('keywords')) out.keywords = extractKeywords(text, { max: 10, pro });
  return out;
}

export function analyze(req: EnrichRequest): Enrichment[] {
  const types = new Set<string>(req.types);
  return req.texts.map((t) => analyzeOne(t, types, req.provider, req.categories?.topic));
}
