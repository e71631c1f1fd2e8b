// Intent: one of six labels, decided in a fixed order of precedence from cheap patterns, the
// learned complaint detector and the sentiment reading:
//   purchase_intent > suggestion > complaint > question > praise > engagement.
// Purchase and suggestion phrasings are specific enough for patterns; complaints are learned
// (they are often implicit: "still waiting for my refund"); a question that is also a complaint
// ("why hasn't my order arrived?") is a complaint; praise needs both a clearly positive reading
// and a praise cue, so merely cheerful chatter stays engagement.
import type { Intent } from '../../contract/items.js';
import { type ComplaintDetector, complaintLogit } from './complaint.js';
import type { FeatureCache } from './features.js';
import type { SentimentResult } from './sentiment.js';

// Patterns run on at most this many leading characters: intent shows early, and the cap bounds
// the regex cost on huge inputs.
const SCAN_CHARS = 2000;

const PURCHASE_RE = new RegExp(
  [
    '\\bwhere (?:can|could|do|should) (?:i|we|you|u) (?:buy|get|order|find|purchase)',
    '\\bwhere to (?:buy|get|order)\\b',
    '\\b(?:just|finally|already) (?:ordered|bought|purchased|pre-?ordered|got my)\\b',
    '\\b(?:i|we) (?:just )?(?:ordered|pre-?ordered|purchased)\\b',
    '\\btake my money\\b',
    "\\b(?:i|we)(?:'m| am| are|'re)? (?:gonna|going to|about to|planning to|will|need to|have to|want to|wanna|would love to|can't wait to|cant wait to) (?:buy|order|purchase|pre-?order|get (?:one|this|these|it|tickets?|a new))",
    '\\b(?:i|we) (?:want|need) (?:to buy|to order|one|this in my life)\\b',
    '\\b(?:considering|thinking (?:of|about)) (?:buying|getting|ordering|purchasing)\\b',
    '\\badd(?:ed)? (?:it |this )?to (?:my )?(?:cart|basket|wishlist)\\b',
    '\\bhow much (?:is|are|does|do|for)\\b',
    '\\b(?:is|are) (?:it|this|these|they) (?:available|in stock|on sale)\\b',
    '\\bin stock\\b.*\\?',
    '\\bgo(?:es)? on sale\\b.*\\?',
    '\\b(?:can|could) i (?:buy|order|purchase)\\b',
    '\\bcode (?:we|i) can (?:enter|use)\\b',
    '\\bwhere (?:did|do) you (?:buy|get)\\b',
    '\\b(?:have|need|got|want) to (?:buy|order|get (?:a new|new|some|tickets?))\\b',
    "\\b(?:i|we|i'm|im|i'll)\\b[^.!?]{0,20}\\b(?:buy|order|get|getting|grab) (?:tickets?|a new|new)\\b",
    '\\btickets? (?:for|on) sale\\b[^.!]*\\?',
    '\\bdo you (?:have|sell|stock|carry)\\b[^?]*\\?',
    "\\b(?:i|we|i'm|im)\\b[^.!?]{0,20}\\bto buy\\b",
  ].join('|'),
  'i',
);

const SUGGESTION_RE = new RegExp(
  [
    '\\b(?:you|u|they|we) (?:guys )?(?:should|ought to|could|need to|have to|must) (?:really )?(?:add|make|bring|try|consider|release|fix|do|have|put|give|change|offer|get|start|stop|update|include|allow|let|think|check|go|watch|read|listen)\\b',
    '\\bplease (?:add|make|bring|consider|release|include|allow|let|give|do|change|update|stop|start)\\b',
    '\\bit would be (?:nice|great|cool|awesome|good|better|amazing) (?:if|to)\\b',
    '\\bwould(?:n.t)? it be (?:nice|great|cool|better)\\b',
    '\\b(?:i|we) (?:suggest|recommend|propose)\\b',
    '\\b(?:i|we) wish (?:you|they|there|it)\\b',
    "\\bwhy (?:don't|dont|not) (?:you|they|we)\\b",
    '\\bhow about (?:adding|making|a|an|some)\\b',
    '\\byou might want to\\b',
    '\\b(?:should|could) (?:add|include|bring back|make)\\b',
    '\\b(?:my )?suggestion\\b',
    '\\b(?:they|we|people|everyone|everybody|fans|someone|somebody) (?:really )?(?:should|ought to|must)\\b',
    '^(?:somebody|someone|everyone|everybody) (?:get|go|make|tell|give|help)\\b',
    '^(?:go|try|take|check out|watch|read|listen to|get|grab|vote|follow|tune in)\\b',
  ].join('|'),
  'i',
);

const WH_START_RE =
  /^(?:@\w+\s+)*(?:who|what|when|where|why|how|which|whose|whom|is|are|am|was|were|do|does|did|can|could|would|will|should|shall|has|have|had|may|anyone|anybody|any1)\b/i;
const ASKS_RE =
  /\b(?:anyone know|does anyone|do you know|can (?:someone|anyone|you) (?:tell|help|explain))\b/i;

const PRAISE_RE = new RegExp(
  [
    '\\b(?:love|loved|loving|adore)\\b',
    '\\b(?:amazing|awesome|great|best|brilliant|excellent|fantastic|wonderful|beautiful|gorgeous|perfect|incredible|superb|outstanding|stunning|lovely|impressive|fabulous|legend|legendary|masterpiece|talented|genius|goat)\\b',
    '\\b(?:thanks?|thank you|thx|ty|grateful|appreciate(?:d)?|kudos|props|bravo|congrat\\w*|well done|good job|great job|nice work|great work|proud of)\\b',
    '\\b(?:so good|so cute|so pretty|so happy|the goat|nailed it|killed it|slay\\w*)\\b',
    '[❤♥😍🥰😘👏🙌🔥💯💕💖💗💓💞🤩⭐🌟]|<3',
  ].join('|'),
  'iu',
);

// a sentence that ends in '?' and opens like a question, or a text whose last sentence is one
const SENTENCE_RE = /[^.!?\n]*\?+/gu;
const TRAILING_RE = /\?[\s\p{Extended_Pictographic}\p{P}]*(?:(?:#|@|https?:\/\/)\S+\s*)*$/u;

function isQuestion(head: string): boolean {
  if (!head.includes('?')) return ASKS_RE.test(head);
  if (TRAILING_RE.test(head)) return true;
  for (const m of head.matchAll(SENTENCE_RE)) if (WH_START_RE.test(m[0].trim())) return true;
  return ASKS_RE.test(head);
}

/** thresholds of the learned parts, chosen by cross-validation on the labelled intent set
 *  (scripts/eval/intent.ts; docs/enrichment.md) */
export interface IntentParams {
  /** complaint: the complaint logit must exceed this, p(positive) stay below complaintPos and
   *  p(negative) reach complaintNeg */
  complaintLogit: number;
  complaintPos: number;
  complaintNeg: number;
  /** praise: p(positive) at least praisePos (with a praise cue) */
  praisePos: number;
}
export const INTENT_PARAMS: IntentParams = {
  complaintLogit: 0,
  complaintPos: 0.5,
  complaintNeg: 0.15,
  praisePos: 0.6,
};

export interface IntentInputs {
  text: string;
  features: FeatureCache;
  sentiment: SentimentResult;
  complaint: ComplaintDetector;
  params?: IntentParams;
}

export function classifyIntent({
  text,
  features,
  sentiment,
  complaint,
  params = INTENT_PARAMS,
}: IntentInputs): Intent {
  const tokens = features.tokens;
  if (tokens.length === 0) return 'engagement';
  const head = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
  if (PURCHASE_RE.test(head)) return 'purchase_intent';
  if (SUGGESTION_RE.test(head)) return 'suggestion';
  const pNeg = sentiment.probs[0]!;
  const pPos = sentiment.probs[2]!;
  if (
    pPos < params.complaintPos &&
    pNeg >= params.complaintNeg &&
    complaintLogit(complaint, features, sentiment.probs) > params.complaintLogit
  )
    return 'complaint';
  if (isQuestion(head)) return 'question';
  if (pPos >= params.praisePos && pNeg < 0.2 && PRAISE_RE.test(head)) return 'praise';
  return 'engagement';
}
