// Topic classification: the built-in taxonomy (TAXONOMY, scopes in ./lexicon.ts) or the caller's own
// categories. Both work the same way: a text's words (hashtags split into words, all Porter-stemmed),
// bigrams, mentions, emoji and "$"/"%" signs are looked up in a weighted term index; each distinct
// term adds its weight to its labels, and labels above a floor are returned best first.
// See docs/topics-and-keywords.md.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS_DIR } from '../../paths.js';
import { splitHashtag } from '../keywords/hashtags.js';
import { stem } from '../keywords/index.js';
import { type Token, tokenize } from '../keywords/tokenize.js';
import { stemWith } from '../keywords/words.js';
import { TOPICS } from './lexicon.js';
import { RELATED, TOPIC_ALIASES } from './related.js';

export const TAXONOMY: readonly string[] = [...TOPICS.keys()];

export interface TopicOptions {
  categories?: string[];
  pro?: boolean;
  /** selection settings for caller categories (default CUSTOM_PARAMS; the eval's CV tries others) */
  customParams?: { minScore: number; share: number };
}

/** term → (label index, weight) pairs; keys are stems, stem bigrams "a b", or symbols */
type TermIndex = Map<string, [number, number][]>;

interface Compiled {
  labels: string[];
  index: TermIndex;
  /** per-label multiplier (daily life is a weak catch-all) */
  prior: number[];
  /** custom sets: the built-in topics each label relates to, with a link weight */
  links?: Map<number, number>[];
}

/** a label needs this much evidence: one ordinary term */
const MIN_SCORE = 1;
/** a second or third label must reach this share of the best label's score */
const HASHTAG_WEIGHT = 1.5;
const DAILY_LIFE = TAXONOMY.indexOf('daily_life');
/** tuned on the TweetTopic development file (see docs): first-person bonus for daily_life, share of the
 *  best score a second label needs (pro uses the same method: no variant measured better) */
export const TOPIC_PARAMS = { personal: 1.2, flash: 0.6, pro: 0.6, dailyPrior: 0.6, linkTerm: 0.5 };
/** caller categories: the evidence a label needs and the share of the best label's score a second
 *  or third label needs; chosen by 5-fold cross-validation (scripts/eval/topics.ts, docs) */
export const CUSTOM_PARAMS = { minScore: 0.5, share: 0.6 };
const MAX_LABELS = 3;

const EMOJI = /\p{Extended_Pictographic}/gu;

/** the lookup form of a word: short words stay as written, since stems collide there
 *  ("ups" → "up", "bus" → "bu") */
function wordKey(w: string): string {
  return w.length <= 4 ? w : stem(w);
}

/** wordKey of a token's lowercase form, through the facts the tokenizer attached to it */
function tokenKey(t: Token): string {
  const w = t.lower;
  return w.length <= 4 ? w : t.facts ? stemWith(t.facts, w) : stem(w);
}

function termKey(term: string): string {
  return term.toLowerCase().split(/\s+/).filter(Boolean).map(wordKey).join(' ');
}

function add(index: TermIndex, key: string, label: number, weight: number): void {
  if (!key) return;
  let list = index.get(key);
  if (!list) {
    list = [];
    index.set(key, list);
  }
  const hit = list.find((e) => e[0] === label);
  if (hit) hit[1] = Math.max(hit[1], weight);
  else list.push([label, weight]);
}

function addTopicTerms(index: TermIndex, topic: string, label: number, scale: number): void {
  const def = TOPICS.get(topic);
  if (!def) return;
  const words = (s: string | undefined) => (s ?? '').split(/\s+/).filter(Boolean);
  for (const w of words(def.terms)) add(index, termKey(w), label, scale);
  // strong entries may be two-word names ("world cup", "taylor swift"): index the pair as a bigram
  const strong = words(def.strong);
  for (const w of strong) add(index, termKey(w), label, 2 * scale);
  for (let i = 0; i + 1 < strong.length; i++)
    add(index, termKey(`${strong[i]} ${strong[i + 1]}`), label, 2 * scale);
  for (const e of (def.emoji ?? '').match(EMOJI) ?? []) add(index, e, label, scale);
}

let builtIn: Compiled | undefined;
let expanded: Compiled | undefined;

/** Co-occurrence expansion of the built-in lexicons (models/topic-expansion.tsv, written by
 *  scripts/train/topics.ts): words the hand-written lexicons lack that mostly occur in texts those
 *  lexicons clearly assign to one topic. Used only for the built-in topics a caller's category links
 *  to, so the built-in taxonomy's own output does not change. */
export const EXPANSION_FILE = 'topic-expansion.tsv';
export const EXPANSION_PARAMS = { weight: 0.5 };
let expansionRows: [string, string, number][] | undefined;
export function setExpansion(rows: [string, string, number][] | undefined): void {
  expansionRows = rows;
  expanded = undefined;
  customCache.clear();
}
function loadExpansion(): [string, string, number][] {
  if (!expansionRows) {
    const file = join(MODELS_DIR, EXPANSION_FILE);
    expansionRows = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l && !l.startsWith('#'))
          .map((l) => {
            const [key, topic, share] = l.split('\t');
            return [key!, topic!, Number(share)] as [string, string, number];
          })
      : [];
  }
  return expansionRows;
}

function getExpanded(): Compiled {
  if (!expanded) {
    const base = compileBuiltIn();
    for (const [key, topic] of loadExpansion()) {
      const t = TAXONOMY.indexOf(topic);
      if (t >= 0) add(base.index, key, t, EXPANSION_PARAMS.weight);
    }
    expanded = base;
  }
  return expanded;
}

function compileBuiltIn(): Compiled {
  const index: TermIndex = new Map();
  TAXONOMY.forEach((topic, i) => {
    addTopicTerms(index, topic, i, 1);
  });
  const prior = TAXONOMY.map((t) => (t === 'daily_life' ? TOPIC_PARAMS.dailyPrior : 1));
  return { labels: [...TAXONOMY], index, prior };
}

function normLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[_\-/]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** the built-in topic a custom label names, if any ("Food & Drink", "sports", "pets") */
function builtInFor(norm: string): string | undefined {
  const joined = norm
    .replace(/&| and /g, ' ')
    .trim()
    .split(/\s+/)
    .join('_');
  if (TOPICS.has(joined)) return joined;
  const alias = TOPIC_ALIASES.get(norm);
  if (alias !== undefined) return alias;
  const words = norm.split(' ');
  if (words.length === 1) return aliasByStem().get(stem(norm));
  return undefined;
}

let aliasStems: Map<string, string> | undefined;
function aliasByStem(): Map<string, string> {
  if (!aliasStems) {
    aliasStems = new Map();
    for (const [alias, topic] of TOPIC_ALIASES)
      if (!aliasStems.has(stem(alias))) aliasStems.set(stem(alias), topic);
  }
  return aliasStems;
}

/** words of a label that say nothing about its subject ("other hobbies", "student life") */
const GENERIC_LABEL_WORDS = new Set([
  'other',
  'others',
  'and',
  'the',
  'of',
  'general',
  'misc',
  'life',
  'stuff',
]);

let topicWordIndex: Map<string, [number, number][]> | undefined;
/** built-in topics by the stems of their name parts (weight 1) and of their lexicon words (weight
 *  LINK_TERM): "food" names food_drink, "dining" is one of its words */
function topicWords(): Map<string, [number, number][]> {
  if (topicWordIndex) return topicWordIndex;
  const index = new Map<string, [number, number][]>();
  const put = (w: string, t: number, weight: number) => {
    const k = stem(w.toLowerCase());
    const list = index.get(k) ?? [];
    const hit = list.find((e) => e[0] === t);
    if (hit) hit[1] = Math.max(hit[1], weight);
    else list.push([t, weight]);
    index.set(k, list);
  };
  TAXONOMY.forEach((topic, t) => {
    for (const part of topic.split('_')) if (!GENERIC_LABEL_WORDS.has(part)) put(part, t, 1);
    const def = TOPICS.get(topic)!;
    for (const w of `${def.terms} ${def.strong ?? ''}`.split(/\s+/)) if (w) put(w, t, TOPIC_PARAMS.linkTerm);
  });
  topicWordIndex = index;
  return index;
}

/** the built-in topics a custom label relates to, with a weight in (0, 1]: the topic the whole
 *  label names (1), topics named by one of its words or an alias of it (1), topics whose lexicon
 *  holds one of its words (TOPIC_PARAMS.linkTerm) */
function linkedTopics(norm: string): Map<number, number> {
  const out = new Map<number, number>();
  const put = (t: number, w: number) => out.set(t, Math.max(out.get(t) ?? 0, w));
  const whole = builtInFor(norm);
  if (whole) put(TAXONOMY.indexOf(whole), 1);
  for (const w of norm.replace(/&/g, ' ').split(/\s+/)) {
    if (w.length < 3 || GENERIC_LABEL_WORDS.has(w)) continue;
    const alias = TOPIC_ALIASES.get(w) ?? aliasByStem().get(stem(w));
    if (alias) put(TAXONOMY.indexOf(alias), 1);
    for (const [t, weight] of topicWords().get(stem(w)) ?? []) put(t, weight);
  }
  return out;
}

const RELATED_BY_STEM = new Map<string, string>();
function relatedFor(norm: string): string | undefined {
  const exact = RELATED.get(norm);
  if (exact !== undefined) return exact;
  if (RELATED_BY_STEM.size === 0) for (const [k, v] of RELATED) RELATED_BY_STEM.set(termKey(k), v);
  return RELATED_BY_STEM.get(termKey(norm));
}

const customCache = new Map<string, Compiled>();
const CUSTOM_CACHE_MAX = 1_000;

function compileCustom(labels: string[]): Compiled {
  const key = JSON.stringify(labels);
  const hit = customCache.get(key);
  if (hit) return hit;
  const index: TermIndex = new Map();
  labels.forEach((label, i) => {
    const norm = normLabel(label);
    if (!norm) return;
    const words = norm.split(' ');
    // the label itself: a full match is strong evidence; a lone word of a longer label is weak
    add(index, termKey(norm), i, 2);
    if (words.length > 1)
      for (const w of words) if (w.length > 2 && w !== 'and') add(index, termKey(w), i, 0.5);
    const related = relatedFor(norm);
    if (related) {
      const terms = related.split(' ').filter(Boolean);
      for (const t of terms) add(index, termKey(t), i, 1);
      for (let k = 0; k + 1 < terms.length; k++) add(index, termKey(`${terms[k]} ${terms[k + 1]}`), i, 1);
    }
  });
  // a label related to built-in topics also takes their scores (times the link weight), so that
  // the topics' whole lexicons compete with each other (a "finale" is film, not sport)
  const links = labels.map((l) => linkedTopics(normLabel(l)));
  const compiled: Compiled = { labels, index, prior: labels.map(() => 1), links };
  if (customCache.size >= CUSTOM_CACHE_MAX) customCache.delete(customCache.keys().next().value!);
  customCache.set(key, compiled);
  return compiled;
}

/** distinct lookup keys of a text with their weight (hashtag words count more). With `heads`, a
 *  bigram is kept only when its first word opens a two-word key of the index the terms are scored
 *  against: the others cannot be found there, so leaving them out changes no score (the kept keys
 *  keep their order) and saves building and looking up a string per word. */
function textTerms(text: string, heads?: ReadonlySet<string>): Map<string, number> {
  const terms = new Map<string, number>();
  const put = (k: string, w: number) => {
    if ((terms.get(k) ?? 0) < w) terms.set(k, w);
  };
  let prev: string | undefined;
  for (const t of tokenize(text)) {
    if (t.kind === 'word') {
      const s = tokenKey(t);
      put(s, 1);
      if (prev && (!heads || heads.has(prev))) put(`${prev} ${s}`, 1);
      prev = s;
    } else if (t.kind === 'hashtag') {
      const parts = splitHashtag(t.raw).map(wordKey);
      let p: string | undefined;
      for (const s of parts) {
        put(s, HASHTAG_WEIGHT);
        if (p && (!heads || heads.has(p))) put(`${p} ${s}`, HASHTAG_WEIGHT);
        p = s;
      }
      put(tokenKey(t), HASHTAG_WEIGHT);
      prev = undefined;
    } else if (t.kind === 'mention') {
      put(tokenKey(t), 1);
      prev = undefined;
    } else {
      if (t.raw === '$' || t.raw === '%' || t.raw === '€' || t.raw === '£') put(t.raw, 1);
      else if (t.kind === 'break' && t.raw.length > 0) for (const e of t.raw.match(EMOJI) ?? []) put(e, 1);
      prev = undefined;
    }
  }
  return terms;
}

function score(compiled: Compiled, terms: Map<string, number>): Float64Array {
  const scores = new Float64Array(compiled.labels.length);
  for (const [term, w] of terms) {
    const list = compiled.index.get(term);
    if (!list) continue;
    for (const [label, weight] of list) scores[label]! += weight * w;
  }
  for (let i = 0; i < scores.length; i++) scores[i] = scores[i]! * compiled.prior[i]!;
  return scores;
}

function select(scores: Float64Array, minScore: number, share: number): number[] {
  const order: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i]! >= minScore) order.push(i);
  order.sort((a, b) => scores[b]! - scores[a]! || a - b);
  const best = order.length ? scores[order[0]!]! : 0;
  return order.filter((i, k) => k === 0 || scores[i]! >= share * best).slice(0, MAX_LABELS);
}

/** first-person words: a personal post is "daily life" unless something stronger is there */
const FIRST_PERSON = ['i', "i'm", 'im', 'my', 'me', 'myself', "i've", "i'll"];

function builtInScores(terms: Map<string, number>, compiled = getBuiltIn()): Float64Array {
  const scores = score(compiled, terms);
  if (FIRST_PERSON.some((w) => terms.has(w))) scores[DAILY_LIFE]! += TOPIC_PARAMS.personal;
  return scores;
}

/** a custom label's score: its own words' evidence, or its linked topics' scores, whichever is more */
function customScores(compiled: Compiled, terms: Map<string, number>): Float64Array {
  const scores = score(compiled, terms);
  if (compiled.links?.some((l) => l.size > 0)) {
    const base = builtInScores(terms, getExpanded());
    compiled.links.forEach((links, i) => {
      for (const [t, w] of links) scores[i] = Math.max(scores[i]!, w * base[t]!);
    });
  }
  return scores;
}

/** the words that open a multi-word key of an index (text keys hold at most one space, so a key
 *  of three words is never found and a bigram's first word must be the key's) */
const indexHeads = new WeakMap<Compiled, Set<string>>();
function headsOf(compiled: Compiled): Set<string> {
  let heads = indexHeads.get(compiled);
  if (!heads) {
    heads = new Set();
    for (const key of compiled.index.keys()) {
      const sp = key.indexOf(' ');
      if (sp > 0) heads.add(key.slice(0, sp));
    }
    // caller categories are also scored against the expanded built-in index (customScores)
    if (compiled.links?.some((l) => l.size > 0)) for (const h of headsOf(getExpanded())) heads.add(h);
    indexHeads.set(compiled, heads);
  }
  return heads;
}

function rank(compiled: Compiled, text: string, pro: boolean, p = CUSTOM_PARAMS): string[] {
  const terms = textTerms(text, headsOf(compiled));
  if (compiled === builtIn) {
    const share = pro ? TOPIC_PARAMS.pro : TOPIC_PARAMS.flash;
    return select(builtInScores(terms), MIN_SCORE, share).map((i) => compiled.labels[i]!);
  }
  return select(customScores(compiled, terms), p.minScore, p.share).map((i) => compiled.labels[i]!);
}

function getBuiltIn(): Compiled {
  builtIn ??= compileBuiltIn();
  return builtIn;
}

/** the built-in topics' scores of a text and its lookup keys (for scripts/train/topics.ts) */
export function builtInTopicScores(text: string): { scores: Float64Array; keys: string[] } {
  const terms = textTerms(text);
  return { scores: builtInScores(terms), keys: [...terms.keys()] };
}

/** whether a lookup key is in the hand-written lexicons */
export const inLexicon = (key: string): boolean => getBuiltIn().index.has(key);

export function classifyTopics(text: string, opts: TopicOptions = {}): string[] {
  if (!text) return [];
  const pro = opts.pro === true;
  if (opts.categories) {
    const labels = [...new Set(opts.categories.filter((c) => typeof c === 'string' && c.trim()))];
    if (labels.length === 0) return [];
    return rank(compileCustom(labels), text, pro, opts.customParams);
  }
  return rank(getBuiltIn(), text, pro);
}
