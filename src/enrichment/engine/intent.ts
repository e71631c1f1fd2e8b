// Intent: one of six labels, chosen by a learned model (a multinomial logistic regression over dense
// inputs and hashed words, plus gradient-boosted trees over the dense inputs; scripts/train/
// intent.ts). One of its inputs is the verdict of a fixed order of precedence over cheap patterns,
// the learned complaint detector and the sentiment reading (ruleIntent):
//   purchase_intent > suggestion > complaint > question > praise > engagement.
// Purchase and suggestion phrasings are specific enough for patterns; complaints are learned
// (they are often implicit: "still waiting for my refund"); a question that is also a complaint
// ("why hasn't my order arrived?") is a complaint; praise needs both a clearly positive reading
// and a praise cue, so merely cheerful chatter stays engagement.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INTENTS, type Intent, type LlmProvider } from '../../contract/items.js';
import { MODELS_DIR } from '../../paths.js';
import { type ComplaintDetector, complaintLogit } from './complaint.js';
import { type FeatureCache, WORD_NGRAMS } from './features.js';
import { binOf, type GbdtFile, type GbdtModel, gbdtAddBinnedScores, gbdtFromFile } from './gbdt.js';
import { type LinearModel, loadModel, logitsOf, softmax } from './linear.js';
import type { SentimentResult } from './sentiment.js';
import { WORD_VECTOR_DIMS, writeTextVector } from './word-vectors.js';

// Patterns run on at most this many leading characters: intent shows early, and the cap bounds
// the regex cost on huge inputs.
const SCAN_CHARS = 2000;

/** The top-level alternatives of a regex source (split at each '|' outside groups and classes). */
export function topLevelAlternatives(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let cur = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      cur += c + (source[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

/** The alternation of `alternatives` (regex sources) with the word boundary that opens most of
 *  them tested once: '\bA|\bB|^C|^D|E' becomes '\b(?:A|B)|^(?:C|D)|E'. At every position this
 *  matches exactly when one of the alternatives does, so `test` answers the same, about twice as
 *  fast on the large intent patterns (each alternative's own '\b' keeps the engine from sharing
 *  the test, and from skipping positions where no alternative can start). */
export function hoistBoundaries(alternatives: readonly string[]): string {
  const all = alternatives.flatMap(topLevelAlternatives);
  const bounded = all.filter((a) => a.startsWith('\\b')).map((a) => a.slice(2));
  const anchored = all.filter((a) => a.startsWith('^')).map((a) => a.slice(1));
  const rest = all.filter((a) => !a.startsWith('\\b') && !a.startsWith('^'));
  const groups: string[] = [];
  if (bounded.length > 0) groups.push(`\\b(?:${bounded.join('|')})`);
  if (anchored.length > 0) groups.push(`^(?:${anchored.join('|')})`);
  return [...groups, ...rest].join('|');
}

const PURCHASE_RE = new RegExp(
  hoistBoundaries([
    // (finding or getting a manual, a setting or help is not buying)
    "\\bwhere (?:can|could|do|should) (?:i|we|you|u) (?:buy|get|order|find|purchase)(?! (?:the |a |an |my |your |some |more )?(?:user |owner'?s )?(?:manual|instructions?|info(?:rmation)?|settings?|options?|menu|button|files?|folders?|docs|documentation|answers?|links?|page|form|address|number|email|details|help|support|guide|faq|password|out)\\b)",
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
    "\\b(?:i|we)(?:'m| am|'ll| will)? (?:just |really |definitely |probably |totally )?(?:gonna|going to|will|about to) (?:buy|order|purchase|pre-?order) (?:it|this|that|them|one|some)\\b",
    '\\b(?:i|we) (?:really |so |still )?(?:want|need) (?:\\S+ ){0,3}tickets?\\b',
    '\\b(?:just|finally) (?:got|bought|booked|grabbed|scored)\\b[^.!?]{0,30}\\btickets?\\b',
    '\\b(?:time to|going|go|went) shopping\\b|\\btime to shop\\b',
    '\\bavailable (?:to (?:order|buy|purchase)|in (?:any |your )?(?:stores?|shops?))\\b',
    '\\b(?:which|what) (?:store|shop)s?\\b[^.!?]{0,30}\\b(?:buy|get|find|stock)\\b',
    '\\bdo you (?:still )?have (?:this|these|the|it|any)\\b[^.!?]{0,60}\\b(?:stores?|in stock|size|medium|small|large)\\b',
    '\\bprice match\\b',
    '\\bhow much\\b[^.!?]{0,30}\\b(?:tickets?|costs?|price)\\b',
    '\\bwhat (?:were|are|is|was) (?:the )?(?:tickets?|prices?)\\b',
    '\\b(?:get|getting) to (?:buy|order|pre-?order)\\b',
    '\\b(?:may|might) (?:wanna|want to) (?:buy|purchase|order)\\b',
    '\\bgift ideas?\\b|\\b(?:help (?:me )?)?find(?:ing)? (?:a|the) (?:gift|present) for\\b',
    // buying as shoppers word it anywhere ("in the market for", "looking to buy", "should I get
    // it?", "worth buying?", "saving up for a new …")
    '\\bin the market for\\b|\\blooking to (?:buy(?! time\\b)|order|purchase|pick up)\\b|\\bworth (?:buying|purchasing|the upgrade)\\b',
    '\\bsaving (?:up )?(?:for (?:a|an|the|my) (?!rainy\\b)(?:new )?\\w+|to buy)\\b',
    '\\b(?:planning|plan|decided|deciding|hoping) (?:on|to) (?:buy|order|purchase|pre-?order)',
    '\\bshould (?:i|we) (?:buy|order|purchase|pre-?order|get (?:it|this|that|one|the|a|an)\\b|upgrade|splurge)',
    "\\bcan(?:no|')?t wait to (?:buy|order|pre-?order|get my hands on)\\b",
    '\\b(?:thinking|thought) (?:of|about) upgrading to\\b|\\bany (?:good )?deals? on\\b',
    '\\b(?:does|do) (?:anyone|anybody|any1) (?:sell|stock|carry)\\b|\\bwho sells\\b',
    // and as marketplaces and shop questions word it: "I'd like to purchase it", "anyone know where
    // I can get a cheap one?" (not "where I can get it fixed"), "is this still available?"
    "\\b(?:i|we)(?:'d| would) (?:like|love) to (?:buy|order|purchase|pre-?order)\\b",
    '\\bwhere (?:i|we) (?:can|could) (?:buy|order|purchase|get (?:a|an|one|some|tickets?|cheap|new)\\b)',
    '\\b(?:is|are) (?:it|this|these|they|that|those) still (?:available|in stock)\\b',
  ]),
  'i',
);

/** requests as forums, reviews and issue trackers word them that the labelled texts (tweets, comments)
 *  never use: no text of the intent set's pool matches one. The learned model has no evidence on them
 *  and reads such sentences by their tweet-like neighbours ("Allow to create alerts from background
 *  tasks." as engagement), so a match adds the model's `requestBoost` to suggestion's logit (intentOf) */
const REQUEST_ALTERNATIVES = [
  // "Allow users to …", "Add an option …", "I'd like to be able to …", "Need an option to …"
  '^(?:please )?(?:allow(?! me\\b)|provide|implement|enable|disable|extend|introduce|expose)\\b',
  '^(?:(?:also|at least|just|maybe|perhaps|ideally|please),? )?(?:add|create|fix|include|improve|offer|increase|reduce|remove) (?:a|an|the|some|more|support|options?|the ability|abilit(?:y|ies)|capabilit(?:y|ies)|it|this|that|these|them|back)\\b',
  '^(?:also|at least|just|maybe|perhaps|ideally),? (?:allow|provide|enable|support|implement|give|let)\\b|^support (?:for|\\w+ing)\\b',
  '\\bwould be (?:a |an )?(?:\\w+ )?(?:addition|benefit|improvement|feature|enhancement)\\b',
  "\\b(?:i'?d|i would|we'?d|we would) (?:really |much |also )?(?:like|prefer) (?:to see|to be able|to have|an? (?:option|way|setting|button|feature)|the (?:option|ability)|support for)\\b",
  '\\b(?:we|i|you|users|developers|devs) (?:really |badly |desperately |also )?need (?:an? (?:option|way|setting|button|feature|api|ability)|the (?:ability|option)|support for|to be able to)\\b',
  '^(?:we )?need (?:an?|the|some|more) (?:\\w+ )?(?:option|way|setting|button|feature|api|ability|support|tool|version|update)\\b|^(?:we )?need to be able\\b',
  '\\b(?<!would )consider (?:adding|making|allowing|providing|including|supporting|offering|implementing|bringing|changing|removing)\\b',
  '\\bgive (?:us|users|developers|devs) (?:the |an? )?(?:ability|option|choice|access|way|possibility)\\b',
  '\\b(?:let|allow|enable|permit) (?:users?|developers|devs|apps?|applications|the user|people to)\\b',
  '\\bhope (?:you|they|\\w+) (?:will|would|can|could) (?:add|include|bring|consider|allow|support|implement|release|offer)\\b',
];

const SUGGESTION_RE = new RegExp(
  hoistBoundaries([
    '\\b(?:you|u|they|we) (?:guys )?(?:should|ought to|could|need to|have to|must) (?:really )?(?:add|make|bring|try|consider|release|fix|do|have|put|give|change|offer|get|start|stop|update|include|allow|let|think|check|go|watch|read|listen)\\b',
    '\\bplease (?:add|make|bring|consider|release|include|allow|let|give|do|change|update|stop|start)\\b',
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
    "\\bplease (?:just |kindly )?(?:get rid of|support|reconsider|keep|check|see|respond|follow|call|fix|bring|block|report|go|don'?t|do not|never|remove|share|vote|sign|tell|send)\\b",
    '^(?:\\W*(?:mate|bro|dude|man|guys|just|so|maybe|now|and|then)\\W+)+(?:go|try|get|take|share|support|watch|read|listen|check|buy|make|give|keep|stop|start|learn|use|ask|call)\\b',
    '^(?:share|support|stop|start|keep|bring|give|make|consider|remember|avoid|ask|call|send|use|learn|tread)\\b',
    "\\b(?:there|y'?all|yall|you all|you guys|fans|\\w+ fans|(?:a|the) (?:\\S+ )?(?:rule|law|change)) (?:really )?(?:should|need to|needs to|must)\\b",
    '\\bshould (?:allow|be required|be allowed|be banned|consider|debate|stop|start|win|rock|get to)\\b',
    '^wish\\b|\\bwish (?:@\\w+|\\w+) (?:had|would|could|did)\\b',
    "\\b(?:it )?(?:may|might|'s|is) (?:be )?time to (?:upgrade|switch|change|move|try|start|stop|get|buy)\\b",
    '\\b(?:pro|bro|hot|quick) tip\\b|\\btip:',
    '\\b(?:maybe|perhaps) (?:you|we|they|u) (?:should|need|could|can)\\b',
    "\\byou (?:may|might|would|will|'d|'ll)(?: just| also| really)? (?:like|love|enjoy)\\b",
    '\\bhow about (?:not|you|we|trying|getting)\\b',
    '\\bbring (?:it |them |this )?back\\b',
    '\\b(?:can|could) (?:we|you|u) (?:please )?(?:have|add|bring|make) (?:a|an|the|it|this|some|\\w+ in)\\b',
    // feature requests worded in ways tweets use too ("it would be nice if", "should be able to")
    '\\b(?:would|could) be (?:very |really |so |also |much |even )?(?:useful|helpful|handy|welcome)\\b|\\bwill be (?:very |really |so )?(?:useful|helpful|handy) (?:if|to have)\\b|\\bwould be (?:nice|good|great) (?:too|also|as well)\\b',
    // "it would be nice if", "it'd be useful to", "would be dope if" ("it would" and "that would"
    // match at their "would")
    "\\b(?:it'?d|that'?d|would) (?:also |really |just |definitely )?be (?:very |really |so |also |much |even )?(?:nice|great|cool|awesome|good|better|amazing|dope|sick|useful|helpful|ideal|handy|fantastic|wonderful|lovely|excellent|preferable|easier|simpler|more \\w+) (?:if|to|when)\\b",
    '\\b(?:users?|developers|devs|apps?|applications|people|we|you|customers|publishers|everyone|they) should be able to\\b|\\bshould (?:be (?:added|available|possible|optional|supported|implemented|included|an option)|(?:have|get|include|support|provide|offer) (?:an? |the )?(?:option|ability|way|setting|button|feature|support))\\b',
    '\\b(?:can|could) (?:you|they|u|the devs?|developers) (?:please )?(?:add|include|allow|support|implement|enable)\\b',
    '\\bwe (?:really |also )?need (?:an?|some|more|better) (?:\\w+ )?(?:option|way|app|feature|api|button|setting|support|tool|version|update|events?)\\b',
    '\\bwhy not (?:just )?(?:let|allow|add|make|have|use|give|create|provide|include|offer)\\b',
    ...REQUEST_ALTERNATIVES,
  ]),
  'i',
);
const REQUEST_RE = new RegExp(hoistBoundaries(REQUEST_ALTERNATIVES), 'i');

const WH_START_RE =
  /^(?:@\w+\s+)*(?:who|what|when|where|why|how|which|whose|whom|is|are|am|was|were|do|does|did|can|could|would|will|should|shall|has|have|had|may|anyone|anybody|any1)\b/i;
const ASKS_RE =
  /\b(?:anyone know|does anyone|do you know|can (?:someone|anyone|you) (?:tell|help|explain))\b/i;

const PRAISE_WORDS = [
  '\\b(?:love|loved|loving|adore)\\b',
  '\\b(?:amazing|awesome|great|best|brilliant|excellent|fantastic|wonderful|beautiful|gorgeous|perfect|incredible|superb|outstanding|stunning|lovely|impressive|fabulous|legend|legendary|masterpiece|talented|genius|goat)\\b',
  '\\b(?:thanks?|thank you|thx|ty|grateful|appreciate(?:d)?|kudos|props|bravo|congrat\\w*|well done|good job|great job|nice work|great work|proud of)\\b',
  '\\b(?:so good|so cute|so pretty|so happy|the goat|nailed it|killed it|slay\\w*)\\b',
];
const PRAISE_EMOJI = '[❤♥😍🥰😘👏🙌🔥💯💕💖💗💓💞🤩⭐🌟]|<3';
const PRAISE_RE = new RegExp(hoistBoundaries([...PRAISE_WORDS, PRAISE_EMOJI]), 'iu');
// The same test, faster: case-insensitive matching under the u flag is slow, and for these ASCII
// words it differs from the plain i flag only on the two characters Unicode case folding maps to
// ASCII letters (ſ → s, the Kelvin sign → k; both also count as \w there). Texts without them
// read the words with the i flag and the emoji (which have no case) with the u flag alone.
const PRAISE_WORDS_RE = new RegExp(hoistBoundaries(PRAISE_WORDS), 'i');
const PRAISE_EMOJI_RE = new RegExp(PRAISE_EMOJI, 'u');
const FOLDS_TO_ASCII_RE = /[\u017f\u212a]/;

function hasPraise(head: string): boolean {
  if (FOLDS_TO_ASCII_RE.test(head)) return PRAISE_RE.test(head);
  return PRAISE_WORDS_RE.test(head) || PRAISE_EMOJI_RE.test(head);
}

// a sentence that ends in '?' and opens like a question (a match of /[^.!?\n]*\?+/gu, found by
// questionSentenceOpensLikeOne), or a text whose last sentence is one
const TRAILING_RE = /\?[\s\p{Extended_Pictographic}\p{P}]*(?:(?:#|@|https?:\/\/)\S+\s*)*$/u;

/** isQuestion from the text's parts the intent model reads anyway */
function isQuestionOf(head: string, hasQuestionMark: boolean, trailing: boolean, asks: boolean): boolean {
  if (!hasQuestionMark) return asks;
  return trailing || questionSentenceOpensLikeOne(head) || asks;
}

/** whether a match of /[^.!?\n]*\?+/gu (in the order matchAll gives them) opens like a question, in one
 *  pass: the pattern matches at a position exactly when the first of . ! ? or newline from there
 *  is a '?', so the matches start where the scan starts or right after such a character, and a
 *  failed start is not retried at every later position of the same run (which is quadratic) */
function questionSentenceOpensLikeOne(head: string): boolean {
  const n = head.length;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const c = head.charCodeAt(i);
    if (c === 63 /* ? */) {
      let end = i + 1;
      while (end < n && head.charCodeAt(end) === 63) end++;
      if (WH_START_RE.test(head.slice(start, end).trim())) return true;
      start = end;
      i = end - 1;
    } else if (c === 46 /* . */ || c === 33 /* ! */ || c === 10 /* \n */) {
      start = i + 1;
    }
  }
  return false;
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
  /** the learned model of the provider (intentModel(provider)) */
  model: IntentModel;
  params?: IntentParams;
}

// offering to sell ("anyone want to buy my tickets?") or refusing to buy is not buying
const NOT_BUYING_RE = new RegExp(
  hoistBoundaries([
    '\\b(?:any(?:one|body|1)|who)\\b[^.!?]{0,30}\\b(?:wants?|wanna|needs?) (?:to buy|tickets?)\\b',
    '\\b(?:for sale|selling|spare tickets?|extra tickets?)\\b',
    "\\b(?:don'?t|dont|never|won'?t|wont|not) (?:buy|order|purchase)\\b",
  ]),
  'i',
);

/** the patterns' verdict alone, in the fixed order of precedence (one input of the learned model) */
export function ruleIntent(
  head: string,
  sentiment: SentimentResult,
  logit: number,
  params: IntentParams = INTENT_PARAMS,
): Intent {
  return ruleFrom(patternsOf(head), sentiment, logit, params);
}

interface Patterns {
  purchase: boolean;
  notBuying: boolean;
  suggestion: boolean;
  /** a request as forums word it (REQUEST_RE, a part of the suggestion pattern) */
  request: boolean;
  question: boolean;
  praise: boolean;
  /** parts of the question test: has a '?', ends in a question (TRAILING_RE), ASKS_RE */
  hasQuestionMark: boolean;
  trailing: boolean;
  asks: boolean;
}

// "it would be great if …": a word of praise in a hypothetical praises nothing yet (it is how
// requests are worded), so the praise cue reads the text without it
const HYPOTHETICAL_RE =
  /\b(?:it'?d|would|will|could) (?:also |really |just |definitely )?be (?:very |really |so |also |much |even )?(?:a |an )?(?:nice|great|cool|awesome|good|amazing|ideal|fantastic|wonderful|lovely|excellent|perfect|brilliant)\b/gi;

/** the patterns of a text, each run once (they are most of the intent's cost) */
function patternsOf(head: string): Patterns {
  const hasQuestionMark = head.includes('?');
  // TRAILING_RE opens with '?'
  const trailing = hasQuestionMark && TRAILING_RE.test(head);
  const asks = ASKS_RE.test(head);
  const suggestion = SUGGESTION_RE.test(head);
  return {
    purchase: PURCHASE_RE.test(head),
    notBuying: NOT_BUYING_RE.test(head),
    suggestion,
    request: suggestion && REQUEST_RE.test(head),
    question: isQuestionOf(head, hasQuestionMark, trailing, asks),
    // (replace returns the text itself when nothing matches)
    praise: hasPraise(head.replace(HYPOTHETICAL_RE, ' ')),
    hasQuestionMark,
    trailing,
    asks,
  };
}

function ruleFrom(p: Patterns, sentiment: SentimentResult, logit: number, params: IntentParams): Intent {
  if (p.purchase && !p.notBuying) return 'purchase_intent';
  if (p.suggestion) return 'suggestion';
  const pNeg = sentiment.probs[0]!;
  const pPos = sentiment.probs[2]!;
  if (pPos < params.complaintPos && pNeg >= params.complaintNeg && logit > params.complaintLogit)
    return 'complaint';
  if (p.question) return 'question';
  if (pPos >= params.praisePos && pNeg < 0.2 && p.praise) return 'praise';
  return 'engagement';
}

// Cues the learned model weighs besides the rules' verdict.
const PLEASE_RE = /\b(?:please|pls|plz|kindly)\b/i;
const THANKS_RE = /\b(?:thanks?|thank you|thx|ty|appreciated?)\b/i;
const HELP_RE = /\b(?:help|assist|advise|support)\b/i;
const MODAL_RE = /\b(?:should|shouldn'?t|ought to|need to|needs to|must|have to|has to)\b/i;
const IMPERATIVE_RE =
  /^(?:[.@]\S+\s+)*(?:please\s+|pls\s+|plz\s+)?(?:add|make|bring|give|let|stop|start|try|go|get|check|watch|read|listen|call|send|fix|consider|tell|follow|vote|ask|buy|use|keep|take|put|come|show|do|don't|dont|never|be|share|leave|remember|sign|join|help|update|release|reconsider|explain|remove|change|learn|look|find|pick|grab|enjoy)\b/i;
const FIRST_RE = /\b(?:i|i'm|im|i've|i'll|i'd|my|me|we|our|us)\b/i;
const SECOND_RE = /\b(?:you|your|u|ur|y'all|yall)\b/i;
const ADDRESSED_RE = /^\s*\.?@\w/;
/** whether a text opens with an @account (a reply, or a post to a company's support account) */
export const isAddressed = (text: string): boolean => ADDRESSED_RE.test(text);
const PROBLEM_RE =
  /\b(?:not working|doesn'?t work|won'?t|isn'?t|can'?t|cannot|error|broken|still (?:no|not|waiting|hasn'?t|haven'?t)|never (?:received|arrived|got)|refund|cancel(?:led)?|issue|problem|wrong|missing|delay(?:ed)?|waiting|terrible|worst|awful|disappointed|disappointing|unacceptable|ridiculous)\b/i;
const WISH_RE = /\b(?:wish|hope|hoping|would love)\b/i;
const QUESTION_CUE_RE =
  /\b(?:any(?:one|body|1) know|does any(?:one|body)|do you know|(?:can|could) (?:someone|somebody|anyone|you|u) (?:please )?(?:tell|help|explain|give|confirm|let|update)|would you be able to|any (?:suggestions?|ideas?|tips|recs|recommendations|update|news|reason|fix|word)|is there (?:a|any)|what time|when (?:will|is|does|should|can|do)|where (?:is|are|can|do|did|should)|how (?:do|can|long|much|many) (?:i|we|you|u|it)|wondered|wondering)\b/i;
const RHETORIC_RE = /\b(?:lol|lmao|lmfao|haha\w*|smh|smdh|wtf|tf|really)\b|\?!|!\?|\?\?\?/i;
const YOU_QUESTION_RE = /\b(?:you|u|your|ur)\b[^.!?\n]*\?/i;
const BUY_WORD_RE =
  /\b(?:buy|buying|bought|order|ordered|purchase|purchased|pre-?order(?:ed)?|tickets?|price|cost|in stock|shop|shopping|cart|afford)\b/i;

/** the dense inputs of the learned intent model, in this order */
export const INTENT_DENSE = [
  'bias',
  'rule:purchase_intent',
  'rule:complaint',
  'rule:question',
  'rule:praise',
  'rule:suggestion',
  'rule:engagement',
  'purchase pattern',
  'selling or refusing to buy',
  'suggestion pattern',
  'question pattern',
  'has ?',
  'ends in ?',
  'question cue',
  'rhetorical cue',
  'question to you',
  'asks',
  'praise cue',
  'p(negative)',
  'p(positive)',
  'complaint logit',
  'complaint gate',
  'addressed to an account',
  'please',
  'thanks',
  'help',
  'modal',
  'imperative opening',
  'first person',
  'second person',
  'problem cue',
  'wish',
  'buying word',
  'length',
  // the cue model's reading (GoEmotions emotions grouped as the intents see them)
  'cue: gratitude',
  'cue: admiration',
  'cue: curiosity',
  'cue: desire',
  'cue: annoyance',
  // conjunctions the patterns' precedence expressed and a linear model cannot form by itself
  'praise cue × p(positive)',
  'thanks × p(positive)',
  'question pattern × addressed',
  'question pattern × problem cue',
  'question pattern × rhetorical cue',
  'please × addressed',
  'imperative opening × addressed',
  'modal × second person',
  'problem cue × addressed',
  'complaint logit × addressed',
  'first person × buying word',
  'p(negative) × addressed',
] as const;

/** the dense inputs: INTENT_DENSE, then the text's word vector (WORD_VECTOR_DIMS numbers,
 *  engine/word-vectors.ts) */
export const INTENT_DENSE_INPUTS = INTENT_DENSE.length + WORD_VECTOR_DIMS;

/** positions in INTENT_DENSE of the inputs the conjunctions read */
const denseAt = (name: (typeof INTENT_DENSE)[number]): number => INTENT_DENSE.indexOf(name);
const AT_ADDRESSED_TO_AN_ACCOUNT = denseAt('addressed to an account');
const AT_BUYING_WORD = denseAt('buying word');
const AT_COMPLAINT_LOGIT = denseAt('complaint logit');
const AT_FIRST_PERSON = denseAt('first person');
const AT_IMPERATIVE_OPENING = denseAt('imperative opening');
const AT_MODAL = denseAt('modal');
const AT_PLEASE = denseAt('please');
const AT_PRAISE_CUE = denseAt('praise cue');
const AT_PROBLEM_CUE = denseAt('problem cue');
const AT_QUESTION_PATTERN = denseAt('question pattern');
const AT_RHETORICAL_CUE = denseAt('rhetorical cue');
const AT_SECOND_PERSON = denseAt('second person');
const AT_THANKS = denseAt('thanks');

/** The cue model: a softmax over word 1-2-grams trained on GoEmotions (scripts/train/intent.ts)
 *  whose classes group the emotions an intent goes with; its probabilities (all but "other") are
 *  inputs of the intent model. It carries what 40,000 labelled Reddit comments say about thanks,
 *  admiration, curiosity, desire and annoyance into the small labelled intent set. */
export const INTENT_CUE_CLASSES = ['gratitude', 'admiration', 'curiosity', 'desire', 'annoyance', 'other'];
export const INTENT_CUE_FILE = 'intent-cues.bin';
export const INTENT_CUE_SPEC = { bits: 17, bigrams: true, charMin: 0, charMax: 0 };

let cueModel: LinearModel | undefined;
export function intentCueProbs(features: FeatureCache): number[] {
  cueModel ??= loadModel(join(MODELS_DIR, INTENT_CUE_FILE));
  return softmax(logitsOf(cueModel, features.indices(INTENT_CUE_SPEC)));
}

/** hashed word unigrams and bigrams of the learned intent model: 2^bits buckets */
export const INTENT_WORD_BITS = 14;

export interface IntentInputVector {
  /** INTENT_DENSE values, then the text's word vector (INTENT_DENSE_INPUTS in all) */
  dense: Float64Array;
  /** bucket of each word unigram and bigram (repeats count) */
  words: number[];
  /** the value of each word feature: 1/sqrt(number of word features) */
  wordValue: number;
  /** the patterns' verdict alone */
  rule: Intent;
  /** whether the text words a request as forums do (IntentModel.requestBoost) */
  request: boolean;
}

const WORD_SPEC = { ...WORD_NGRAMS, bits: INTENT_WORD_BITS };

/** the inputs of the learned model for one text (non-empty tokens); with `dense`, the dense inputs
 *  are written there (a Float64Array of INTENT_DENSE_INPUTS) instead of into a new array */
export function intentInputs(
  { text, features, sentiment, complaint, params = INTENT_PARAMS }: Omit<IntentInputs, 'model'>,
  dense?: Float64Array,
): IntentInputVector {
  const head = text.length > SCAN_CHARS ? text.slice(0, SCAN_CHARS) : text;
  const logit = complaintLogit(complaint, features, sentiment.probs);
  const pat = patternsOf(head);
  const rule = ruleFrom(pat, sentiment, logit, params);
  const pNeg = sentiment.probs[0]!;
  const pPos = sentiment.probs[2]!;
  const d = dense ? dense.fill(0) : new Float64Array(INTENT_DENSE_INPUTS);
  let k = 0;
  d[k++] = 1;
  for (const label of INTENTS) d[k++] = rule === label ? 1 : 0;
  d[k++] = pat.purchase ? 1 : 0;
  d[k++] = pat.notBuying ? 1 : 0;
  d[k++] = pat.suggestion ? 1 : 0;
  d[k++] = pat.question ? 1 : 0;
  d[k++] = pat.hasQuestionMark ? 1 : 0;
  d[k++] = pat.trailing ? 1 : 0;
  d[k++] = QUESTION_CUE_RE.test(head) ? 1 : 0;
  d[k++] = RHETORIC_RE.test(head) ? 1 : 0;
  // every match of YOU_QUESTION_RE ends in a '?': without one it cannot match
  d[k++] = pat.hasQuestionMark && YOU_QUESTION_RE.test(head) ? 1 : 0;
  d[k++] = pat.asks ? 1 : 0;
  d[k++] = pat.praise ? 1 : 0;
  d[k++] = pNeg;
  d[k++] = pPos;
  d[k++] = Math.max(-2, Math.min(2, logit / 2));
  d[k++] = pPos < params.complaintPos && pNeg >= params.complaintNeg && logit > params.complaintLogit ? 1 : 0;
  d[k++] = ADDRESSED_RE.test(head) ? 1 : 0;
  d[k++] = PLEASE_RE.test(head) ? 1 : 0;
  d[k++] = THANKS_RE.test(head) ? 1 : 0;
  d[k++] = HELP_RE.test(head) ? 1 : 0;
  d[k++] = MODAL_RE.test(head) ? 1 : 0;
  d[k++] = IMPERATIVE_RE.test(head) ? 1 : 0;
  d[k++] = FIRST_RE.test(head) ? 1 : 0;
  d[k++] = SECOND_RE.test(head) ? 1 : 0;
  d[k++] = PROBLEM_RE.test(head) ? 1 : 0;
  d[k++] = WISH_RE.test(head) ? 1 : 0;
  d[k++] = BUY_WORD_RE.test(head) ? 1 : 0;
  d[k++] = Math.min(features.tokens.length, 60) / 30;
  const cues = intentCueProbs(features);
  for (let c = 0; c < INTENT_CUE_CLASSES.length - 1; c++) d[k++] = cues[c]!;
  const addressed = d[AT_ADDRESSED_TO_AN_ACCOUNT]!;
  d[k++] = d[AT_PRAISE_CUE]! * pPos;
  d[k++] = d[AT_THANKS]! * pPos;
  d[k++] = d[AT_QUESTION_PATTERN]! * addressed;
  d[k++] = d[AT_QUESTION_PATTERN]! * d[AT_PROBLEM_CUE]!;
  d[k++] = d[AT_QUESTION_PATTERN]! * d[AT_RHETORICAL_CUE]!;
  d[k++] = d[AT_PLEASE]! * addressed;
  d[k++] = d[AT_IMPERATIVE_OPENING]! * addressed;
  d[k++] = d[AT_MODAL]! * d[AT_SECOND_PERSON]!;
  d[k++] = d[AT_PROBLEM_CUE]! * addressed;
  d[k++] = d[AT_COMPLAINT_LOGIT]! * addressed;
  d[k++] = d[AT_FIRST_PERSON]! * d[AT_BUYING_WORD]!;
  d[k++] = pNeg * addressed;
  writeTextVector(features.tokens, d, k, undefined, features.vectorRows);
  const words = features.indices(WORD_SPEC);
  return {
    dense: d,
    words,
    wordValue: words.length > 0 ? 1 / Math.sqrt(words.length) : 0,
    rule,
    request: pat.request,
  };
}

/** A multinomial logistic regression over the dense inputs and hashed words, with gradient-boosted
 *  trees over the dense inputs beside it (scripts/train/intent.ts). */
export interface IntentModel {
  /** dense weights, [INTENT_DENSE_INPUTS][INTENTS.length] row-major */
  dense: Float64Array;
  /** word weights by bucket, INTENTS.length each; buckets never seen in training are absent */
  words: Map<number, Float64Array>;
  /** added to purchase_intent's logit when the buying pattern matches (and the selling one does
   *  not): shoppers' questions ("does anyone sell …?", "how much is the blue one?") otherwise read
   *  as questions, since the labelled set has few of them (IntentFitOptions.purchaseBoost) */
  purchaseBoost: number;
  /** added to suggestion's logit when the text words a request as forums do (REQUEST_RE), a form
   *  the labelled texts never use (IntentFitOptions.requestBoost) */
  requestBoost: number;
  /** gradient-boosted trees over the dense inputs and the presence of common words, whose scores,
   *  times `treeWeight`, are added to the logits (IntentFitOptions.treeWeight) */
  trees?: IntentTrees;
  treeWeight: number;
}

/** The intent model's trees: their inputs are the dense inputs (INTENT_DENSE_INPUTS), then one per
 *  word bucket of `words`, 1 when the text has that word unigram or bigram (treeInputs). */
export interface IntentTrees {
  gbdt: GbdtModel;
  /** the word buckets the trees read, in the order of their inputs */
  words: Int32Array;
  /** what treeBins reads and writes: the dense inputs some tree splits on; per word bucket (of the
   *  2^INTENT_WORD_BITS), 1 + the input of its word when some tree splits on it, else 0; per input,
   *  the bins of 0 and 1; the binned row of the text being read (intentScores), reused */
  denseUsed: Int32Array;
  wordInput: Int16Array;
  wordUsed: Int32Array;
  binOf0: Uint8Array;
  binOf1: Uint8Array;
  bins: Uint8Array;
}

/** the trees of `gbdt` over the dense inputs and the word buckets `words`; throws when the trees
 *  read another number of inputs */
export function intentTrees(gbdt: GbdtModel, words: ArrayLike<number>): IntentTrees {
  if (gbdt.features !== INTENT_DENSE_INPUTS + words.length || gbdt.classes !== INTENTS.length)
    throw new Error(
      `intent model: trees over ${gbdt.features} inputs and ${gbdt.classes} classes, expected ${INTENT_DENSE_INPUTS} dense inputs + ${words.length} words and ${INTENTS.length} classes (retrain: npm run train -- intent)`,
    );
  const w = Int32Array.from(words);
  const buckets = 1 << INTENT_WORD_BITS;
  if (w.some((b) => b < 0 || b >= buckets))
    throw new Error(
      `intent model: a tree word's bucket is outside 0 .. ${buckets - 1} (retrain: npm run train -- intent)`,
    );
  const used = [...gbdt.used];
  const wordUsed = Int32Array.from(used.filter((f) => f >= INTENT_DENSE_INPUTS));
  const wordInput = new Int16Array(buckets);
  for (const f of wordUsed) wordInput[w[f - INTENT_DENSE_INPUTS]!] = f + 1;
  const binned = (v: number) => Uint8Array.from({ length: gbdt.features }, (_x, f) => binOf(gbdt, f, v));
  return {
    gbdt,
    words: w,
    denseUsed: Int32Array.from(used.filter((f) => f < INTENT_DENSE_INPUTS)),
    wordInput,
    wordUsed,
    binOf0: binned(0),
    binOf1: binned(1),
    bins: new Uint8Array(gbdt.features),
  };
}

/** the trees' binned inputs for `x`, written to trees.bins: the same bins as the model's binning of
 *  the row treeInputs writes, for every input some tree splits on (the others are left as they are:
 *  only nodes that do not split read them), without writing that row: the dense inputs are binned
 *  where they are, and a word input, 0 or 1, takes the bin of 0 or of 1 */
export function treeBins(trees: IntentTrees, x: IntentInputVector): Uint8Array {
  const { gbdt, bins, denseUsed, wordUsed, wordInput, binOf0, binOf1 } = trees;
  const dense = x.dense;
  for (let k = 0; k < denseUsed.length; k++) {
    const f = denseUsed[k]!;
    bins[f] = binOf(gbdt, f, dense[f]!);
  }
  for (let k = 0; k < wordUsed.length; k++) bins[wordUsed[k]!] = binOf0[wordUsed[k]!]!;
  for (const b of x.words) {
    const f = wordInput[b]! - 1;
    if (f >= 0) bins[f] = binOf1[f]!;
  }
  return bins;
}

/** the trees' inputs for `x`, written to `out` (INTENT_DENSE_INPUTS + wordAt.size long): its dense
 *  inputs, then 1 at the position `wordAt` gives each word bucket of the text, 0 elsewhere */
export function treeInputs(
  wordAt: ReadonlyMap<number, number>,
  x: IntentInputVector,
  out: Float64Array,
): Float64Array {
  out.set(x.dense);
  out.fill(0, x.dense.length);
  for (const b of x.words) {
    const j = wordAt.get(b);
    if (j !== undefined) out[INTENT_DENSE_INPUTS + j] = 1;
  }
  return out;
}

/** keeps the touching pass of intentLogits from being optimized away */
let _sink = 0;

/** the model's logits, one per INTENTS label */
function intentLogits(model: IntentModel, x: IntentInputVector): Float64Array {
  const C = INTENTS.length;
  const z = new Float64Array(C);
  for (let j = 0; j < x.dense.length; j++) {
    const v = x.dense[j]!;
    if (v === 0) continue;
    for (let c = 0; c < C; c++) z[c]! += v * model.dense[j * C + c]!;
  }
  const table = wordTables.get(model);
  if (table) {
    // the same additions in the same order as through the map; k / 1e4 is exactly the weight
    const { tenThousandths, known } = table;
    // a first pass only touches each word's row, so that the CPU overlaps the cache misses
    let touch = 0;
    for (const b of x.words) touch ^= tenThousandths[b * C]!;
    _sink ^= touch;
    for (const b of x.words) {
      if (known[b] === 0) continue;
      const o = b * C;
      for (let c = 0; c < C; c++) z[c]! += x.wordValue * (tenThousandths[o + c]! / 1e4);
    }
    return z;
  }
  for (const b of x.words) {
    const w = model.words.get(b);
    if (w) for (let c = 0; c < C; c++) z[c]! += x.wordValue * w[c]!;
  }
  return z;
}

/** A shipped model's word weights as one flat table by bucket (no map lookup per word), with a
 *  flag for the buckets the map holds. Training rounds the weights to 4 decimals, so each is
 *  k / 1e4 for a small integer k, and that division gives back exactly the same number: the table
 *  holds k as 16 bits (196 KB instead of 786 KB of doubles, which mostly missed the CPU caches). */
interface WordTable {
  tenThousandths: Int16Array;
  known: Uint8Array;
}
const wordTables = new WeakMap<IntentModel, WordTable>();

/** the model's flat word table, or undefined when a weight is not exactly k / 1e4 with k in 16 bits
 *  (intentLogits then reads the map) */
function wordTableOf(model: IntentModel): WordTable | undefined {
  const C = INTENTS.length;
  const n = 1 << INTENT_WORD_BITS;
  const tenThousandths = new Int16Array(n * C);
  const known = new Uint8Array(n);
  for (const [b, w] of model.words) {
    if (b < 0 || b >= n || w.length !== C) return undefined;
    for (let c = 0; c < C; c++) {
      const k = Math.round(w[c]! * 1e4);
      if (k / 1e4 !== w[c] || k < -32768 || k > 32767) return undefined;
      tenThousandths[b * C + c] = k;
    }
    known[b] = 1;
  }
  return { tenThousandths, known };
}

const PURCHASE = INTENTS.indexOf('purchase_intent');
const SUGGESTION = INTENTS.indexOf('suggestion');
const AT_NOT_BUYING = denseAt('selling or refusing to buy');
const AT_PURCHASE_PATTERN = denseAt('purchase pattern');

/** The scores whose largest intentOf picks: the model's logits (plus its trees' scores times their
 *  weight), where a text that offers to sell or
 *  refuses to buy ("anyone want to buy my tickets?", "I don't buy") gets −∞ for purchase_intent,
 *  whatever its words read like; one the buying pattern matches gets the model's `purchaseBoost`
 *  added to purchase_intent's logit, and one worded as a forum's request the model's
 *  `requestBoost` added to suggestion's. */
export function intentScores(model: IntentModel, x: IntentInputVector): Float64Array {
  const z = intentLogits(model, x);
  if (x.request) z[SUGGESTION]! += model.requestBoost;
  z[PURCHASE] =
    x.dense[AT_NOT_BUYING] === 1
      ? Number.NEGATIVE_INFINITY
      : z[PURCHASE]! + (x.dense[AT_PURCHASE_PATTERN] === 1 ? model.purchaseBoost : 0);
  // last, as training adds them to the scores above (scripts/train/intent.ts, chooseSettings)
  if (model.trees && model.treeWeight !== 0)
    gbdtAddBinnedScores(model.trees.gbdt, treeBins(model.trees, x), model.treeWeight, z);
  return z;
}

/** the label of the largest of intentScores (the first of equal ones) */
export function intentOf(model: IntentModel, x: IntentInputVector): Intent {
  const z = intentScores(model, x);
  let best = 0;
  for (let c = 1; c < z.length; c++) if (z[c]! > z[best]!) best = c;
  return INTENTS[best]!;
}

export interface IntentModelFile {
  producer: string;
  dense: Record<LlmProvider, number[]>;
  /** bucket -> weights per provider */
  words: Record<LlmProvider, Record<string, number[]>>;
  /** the settings the model was fitted with, per provider (`purchaseBoost`, `requestBoost` and
   *  `treeWeight` are read at run time) */
  settings: Record<
    string,
    { purchaseBoost?: number; requestBoost?: number; treeWeight?: number } & Record<string, unknown>
  >;
  /** the trees per provider, for a provider whose `treeWeight` is not 0 */
  trees?: Partial<Record<LlmProvider, GbdtFile>>;
  /** the word buckets the trees read after the dense inputs, per provider (IntentTrees.words) */
  treeWords?: Partial<Record<LlmProvider, number[]>>;
}

export const INTENT_MODEL_FILE = 'intent.json';

export function intentModelFrom(file: IntentModelFile, provider: LlmProvider): IntentModel {
  const dense = file.dense[provider];
  if (dense.length !== INTENT_DENSE_INPUTS * INTENTS.length)
    throw new Error(
      `intent model: ${dense.length} dense weights for ${provider}, expected ${INTENT_DENSE_INPUTS * INTENTS.length} (retrain: npm run train -- intent)`,
    );
  const model = {
    dense: Float64Array.from(dense),
    words: new Map(Object.entries(file.words[provider]).map(([b, w]) => [Number(b), Float64Array.from(w)])),
    purchaseBoost: file.settings[provider]?.purchaseBoost ?? 0,
    requestBoost: file.settings[provider]?.requestBoost ?? 0,
  };
  const treeWeight = file.settings[provider]?.treeWeight ?? 0;
  const trees = file.trees?.[provider];
  if (treeWeight === 0) return { ...model, treeWeight };
  if (!trees)
    throw new Error(
      `intent model: tree weight ${treeWeight} for ${provider} but no trees (retrain: npm run train -- intent)`,
    );
  try {
    return {
      ...model,
      trees: intentTrees(gbdtFromFile(trees), file.treeWords?.[provider] ?? []),
      treeWeight,
    };
  } catch (e) {
    throw new Error(`${(e as Error).message} (${provider})`);
  }
}

const models = new Map<LlmProvider, IntentModel>();
export function intentModel(provider: LlmProvider): IntentModel {
  let m = models.get(provider);
  if (!m) {
    const file = JSON.parse(readFileSync(join(MODELS_DIR, INTENT_MODEL_FILE), 'utf8')) as IntentModelFile;
    m = intentModelFrom(file, provider);
    const table = wordTableOf(m);
    if (table) wordTables.set(m, table);
    models.set(provider, m);
  }
  return m;
}

export function classifyIntent(inputs: IntentInputs): Intent {
  if (inputs.features.tokens.length === 0) return 'engagement';
  return intentOf(inputs.model, intentInputs(inputs, denseScratch));
}

/** the dense inputs of the text classifyIntent reads (a typed array of this size takes a buffer
 *  outside the heap, slow to allocate for every text; the vector does not outlive the call) */
const denseScratch = new Float64Array(INTENT_DENSE_INPUTS);
