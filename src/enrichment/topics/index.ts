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
import { STOPWORDS } from '../keywords/lexicon.js';
import { type Token, tokenize } from '../keywords/tokenize.js';
import { stemWith } from '../keywords/words.js';
import { TOPICS } from './lexicon.js';
import { RELATED, TOPIC_ALIASES, TOPIC_NEIGHBOURS } from './related.js';

export const TAXONOMY: readonly string[] = [...TOPICS.keys()];

export interface TopicOptions {
  categories?: string[];
  pro?: boolean;
  /** settings for caller categories (default CUSTOM_PARAMS; the eval's nested CV tries others) */
  customParams?: CustomParams;
}

/** How caller categories are scored and selected (docs/topics-and-keywords.md, "Custom categories"). */
export interface CustomParams {
  /** the evidence a label needs */
  minScore: number;
  /** the share of the best label's score a second or third label needs */
  share: number;
  /** link weight of a built-in topic whose lexicon holds a word of the label */
  linkTerm: number;
  /** a built-in topic no label names links with this weight to the labels naming its neighbour
   *  (TOPIC_NEIGHBOURS: politics → a "news" label) */
  neighbour: number;
  /** a label's link to a topic that another label of the set relates to more closely is multiplied
   *  by this ("culture" in "celebrity & pop culture" against "arts & culture") */
  contested: number;
  /** weight of the co-occurrence expansion words in the linked topics' scores (0: none) ... */
  expansion: number;
  /** ... of those whose topic holds at least this share of their texts ... */
  expansionShare: number;
  /** ... and at least this lift (share over the topic's share of all texts) */
  expansionLift: number;
  /** a label's own-word evidence and its linked topics' score: the larger of them, or their sum */
  combine: 'max' | 'sum';
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
  /** custom sets: the settings they were compiled with */
  params?: CustomParams;
  /** custom sets: the widened built-in index their links read (getExpanded) */
  expanded?: Compiled;
  /** the words that open a two-word key of what this set scores against (headsOf) */
  heads?: Set<string>;
}

/** a label needs this much evidence: one ordinary term */
const MIN_SCORE = 1;
/** a second or third label must reach this share of the best label's score */
const HASHTAG_WEIGHT = 1.5;
const DAILY_LIFE = TAXONOMY.indexOf('daily_life');
/** tuned on the TweetTopic development file (see docs): first-person bonus for daily_life, share of the
 *  best score a second label needs (pro uses the same method: no variant measured better) */
export const TOPIC_PARAMS = { personal: 1.2, flash: 0.6, pro: 0.6, dailyPrior: 0.6 };
/** caller categories: chosen by cross-validation on the TweetTopic pool (scripts/eval/topics.ts
 *  reports them by nested CV and fails when the whole pool would choose others; see docs) */
export const CUSTOM_PARAMS: Readonly<CustomParams> = {
  minScore: 0.5,
  share: 0.3,
  linkTerm: 0.3,
  neighbour: 0.5,
  contested: 0,
  expansion: 1,
  expansionShare: 0.25,
  expansionLift: 8,
  combine: 'sum',
};
const MAX_LABELS = 3;

const EMOJI = /\p{Extended_Pictographic}/gu;

/** the lookup form of a word: short words stay as written, since stems collide there
 *  ("ups" → "up", "bus" → "bu"); so does a longer word whose stem is a function word ("inning" →
 *  "in", "evening" → "even", "wellness" → "well"), which would otherwise match that word, or whose
 *  stem is as short as a word kept as written ("boxing" → "box", "fries" → "fri", "wedding" →
 *  "wed", which would match "box", "Fri" and "Wed"): that word loses only a plural "s"; and a word
 *  of OWN_KEYS reads by its own key ("anime" is not "animals") */
function wordKey(w: string): string {
  if (w.length <= 4) return w;
  return longKey(w, stem(w));
}

/** wordKey of a token's lowercase form, through the facts the tokenizer attached to it */
function tokenKey(t: Token): string {
  const w = t.lower;
  if (w.length <= 4) return w;
  return longKey(w, t.facts ? stemWith(t.facts, w) : stem(w));
}

/** Words that read by a key of their own instead of their stem:
 *  - words whose Porter stem is the stem of a word of another meaning in another topic's lexicon:
 *    "anime" and "animation" stem to "anim" like "animals" (pets), "university" to "univers" like
 *    "universe" (science), "tired" to "tire" like "tires" (automotive), "finally" to "final" like
 *    "finals" (sports) and "finale" (film_tv), "physically" to "physic" like "physics",
 *    "interesting" and "interested" to "interest" (finance);
 *  - the strong single-word names (TopicDef.strong) whose stem is not the name less a plural "s":
 *    a name does not inflect, and its stem is often a common word's ("valorant" → "valor",
 *    "emirates" → "emir", "cowboys" → "cowboi", as in "cowboy hat"). Such a name reads as itself
 *    and as itself plus "s" ("iphones");
 *  - the strong names in the plural whose singular is a common word ("windows", "warriors",
 *    "patriots", whose stem "patriot" is also that of "patriotic"): only the plural is the name. */
const OWN_KEYS: ReadonlyMap<string, string> = (() => {
  const self = (w: string): [string, string] => [w, w];
  const keys = new Map([
    ...['anime', 'animation', 'animated', 'university', 'tired'].map(self),
    ...['finally', 'physically', 'interesting', 'interested'].map(self),
    ['animations', 'animation'],
    ['universities', 'university'],
    // strong names in the plural whose singular is a common word ("open the window", "a warrior",
    // "a raven", "patriotic"): only the plural is the name
    ...['windows', 'warriors', 'ravens', 'packers', 'patriots', 'dominos'].map(self),
  ]);
  for (const def of TOPICS.values())
    for (const name of (def.strong ?? '').split(/\s+/)) {
      if (name.length <= 4 || name.includes('_')) continue;
      const s = stem(name);
      if (s === name || `${s}s` === name) continue;
      keys.set(name, name);
      if (!name.endsWith('s')) keys.set(`${name}s`, name);
    }
  return keys;
})();

/** the key of a word longer than four characters, whose stem is `s` */
function longKey(w: string, s: string): string {
  const own = OWN_KEYS.get(w);
  if (own !== undefined) return own;
  if (STOPWORDS.has(s)) return w;
  if (s.length > 3) return s;
  return w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
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
  // a two-word term or name ("ice_cream", "world_cup") is indexed as the pair only (see TopicDef)
  const addWords = (s: string | undefined, weight: number) => {
    for (const w of (s ?? '').split(/\s+/)) if (w) add(index, termKey(w.replaceAll('_', ' ')), label, weight);
  };
  addWords(def.terms, scale);
  addWords(def.strong, 2 * scale);
  for (const e of (def.emoji ?? '').match(EMOJI) ?? []) add(index, e, label, scale);
}

let builtIn: Compiled | undefined;
/** the built-in index widened by the expansion words, per expansion setting (getExpanded) */
const expanded = new Map<string, Compiled>();

/** Co-occurrence expansion of the built-in lexicons (models/topic-expansion.tsv, written by
 *  scripts/train/topics.ts): words the hand-written lexicons lack that mostly occur in texts those
 *  lexicons clearly assign to one topic. Used only for the built-in topics a caller's category links
 *  to, so the built-in taxonomy's own output does not change. */
export const EXPANSION_FILE = 'topic-expansion.tsv';
/** key, topic, share of the key's texts labelled with the topic, lift (share over the topic's share) */
type ExpansionRow = [string, string, number, number];
let expansionRows: ExpansionRow[] | undefined;
export function setExpansion(rows: ExpansionRow[] | undefined): void {
  expansionRows = rows;
  expanded.clear();
  customCache.clear();
}
function loadExpansion(): ExpansionRow[] {
  if (!expansionRows) {
    const file = join(MODELS_DIR, EXPANSION_FILE);
    expansionRows = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l && !l.startsWith('#'))
          .map((l) => {
            const [key, topic, share, lift] = l.split('\t');
            return [
              key!,
              topic!,
              Number(share),
              lift === undefined ? Infinity : Number(lift),
            ] as ExpansionRow;
          })
      : [];
  }
  return expansionRows;
}

/** the built-in index widened by the expansion words of at least the share and lift of p */
function getExpanded(p: CustomParams): Compiled {
  const key = `${p.expansion} ${p.expansionShare} ${p.expansionLift}`;
  let hit = expanded.get(key);
  if (!hit) {
    hit = compileBuiltIn();
    if (p.expansion > 0)
      for (const [key, topic, share, lift] of loadExpansion()) {
        const t = TAXONOMY.indexOf(topic);
        if (t >= 0 && share >= p.expansionShare && lift >= p.expansionLift)
          add(hit.index, key, t, p.expansion);
      }
    expanded.set(key, hit);
  }
  return hit;
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

let topicWordIndex: Map<string, [number, boolean][]> | undefined;
/** built-in topics by the stems of their name parts (true) and of their lexicon words (false):
 *  "food" names food_drink, "dining" is one of its words */
function topicWords(): Map<string, [number, boolean][]> {
  if (topicWordIndex) return topicWordIndex;
  const index = new Map<string, [number, boolean][]>();
  const put = (w: string, t: number, named: boolean) => {
    const k = stem(w.toLowerCase());
    if (!k || GENERIC_LABEL_WORDS.has(k)) return;
    const list = index.get(k) ?? [];
    const hit = list.find((e) => e[0] === t);
    if (hit) hit[1] ||= named;
    else list.push([t, named]);
    index.set(k, list);
  };
  TAXONOMY.forEach((topic, t) => {
    for (const part of topic.split('_')) put(part, t, true);
    const def = TOPICS.get(topic)!;
    for (const w of `${def.terms} ${def.strong ?? ''}`.split(/\s+/)) {
      if (!w.includes('_')) put(w, t, false);
      // of a two-word name, only the words of four letters or more ("machine" and "learning" of
      // machine_learning; not "man" of man_united or "la" of la_liga, which name nothing alone)
      else for (const part of w.split('_')) if (part.length >= 4) put(part, t, false);
    }
  });
  topicWordIndex = index;
  return index;
}

/** the words of a label that may name a subject (three letters or more, not generic) */
const subjectWords = (norm: string): string[] =>
  norm
    .replace(/&/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length >= 3 && !GENERIC_LABEL_WORDS.has(w));

/** the built-in topics a custom label relates to: topic → [link weight in (0, 1], closeness]. The
 *  topic the whole label names, or one a word of it names (or an alias of it), links with weight 1;
 *  a topic whose lexicon holds one of its words with p.linkTerm. Closeness (for contested topics)
 *  adds up the weights of all the label's words (the whole label counts 2). */
function linkedTopics(norm: string, p: CustomParams): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  const put = (t: number, w: number, close = w) => {
    if (w <= 0) return;
    const hit = out.get(t);
    if (hit) {
      hit[0] = Math.max(hit[0], w);
      hit[1] += close;
    } else out.set(t, [w, close]);
  };
  const whole = builtInFor(norm);
  if (whole) put(TAXONOMY.indexOf(whole), 1, 2);
  for (const w of subjectWords(norm)) {
    const alias = TOPIC_ALIASES.get(w) ?? aliasByStem().get(stem(w));
    const word = new Map<number, number>();
    if (alias) word.set(TAXONOMY.indexOf(alias), 1);
    for (const [t, named] of topicWords().get(stem(w)) ?? [])
      word.set(t, Math.max(word.get(t) ?? 0, named ? 1 : p.linkTerm));
    for (const [t, weight] of word) put(t, weight);
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

/** the links of a label set: each label's own links, a contested link (another label of the set is
 *  closer to the topic) times p.contested, and a topic no label names linked to the labels naming
 *  one of its neighbours (p.neighbour) */
function setLinks(norms: string[], p: CustomParams): Map<number, number>[] {
  const raw = norms.map((n) => linkedTopics(n, p));
  const closest = new Float64Array(TAXONOMY.length);
  const named = new Uint8Array(TAXONOMY.length);
  for (const links of raw)
    for (const [t, [w, close]] of links) {
      closest[t] = Math.max(closest[t]!, close);
      if (w >= 1) named[t] = 1;
    }
  const sets = norms.map((_n, i) => {
    const links = new Map<number, number>();
    for (const [t, [w, close]] of raw[i]!) links.set(t, close < closest[t]! ? w * p.contested : w);
    return links;
  });
  if (p.neighbour > 0)
    TAXONOMY.forEach((topic, t) => {
      if (named[t]) return;
      for (const n of TOPIC_NEIGHBOURS.get(topic) ?? []) {
        const nt = TAXONOMY.indexOf(n);
        if (named[nt])
          sets.forEach((links, i) => {
            if ((raw[i]!.get(nt)?.[0] ?? 0) >= 1) links.set(t, Math.max(links.get(t) ?? 0, p.neighbour));
          });
      }
    });
  for (const links of sets) for (const [t, w] of links) if (w <= 0) links.delete(t);
  return sets;
}

function compileCustom(labels: string[], p: CustomParams): Compiled {
  const key = p === CUSTOM_PARAMS ? JSON.stringify(labels) : JSON.stringify([labels, p]);
  const hit = customCache.get(key);
  if (hit) return hit;
  const index: TermIndex = new Map();
  const norms = labels.map(normLabel);
  norms.forEach((norm, i) => {
    const words = norm.split(' ');
    // a name of function words only ("The", "of a") says nothing of a subject: no text matches it
    if (!norm || words.every((w) => STOPWORDS.has(w))) return;
    // the label itself: a full match is strong evidence; a lone word of a longer label is weak
    add(index, termKey(norm), i, 2);
    if (words.length > 1) for (const w of subjectWords(norm)) add(index, termKey(w), i, 0.5);
    const related = relatedFor(norm);
    if (related) {
      const terms = related.split(' ').filter(Boolean);
      for (const t of terms) add(index, termKey(t), i, 1);
      for (let k = 0; k + 1 < terms.length; k++) add(index, termKey(`${terms[k]} ${terms[k + 1]}`), i, 1);
    }
  });
  // a label related to built-in topics also takes their scores (times the link weight), so that
  // the topics' whole lexicons compete with each other (a "finale" is film, not sport)
  const links = setLinks(norms, p);
  const compiled: Compiled = { labels, index, prior: labels.map(() => 1), links, params: p };
  if (customCache.size >= CUSTOM_CACHE_MAX) customCache.delete(customCache.keys().next().value!);
  customCache.set(key, compiled);
  return compiled;
}

/** a hashtag's words and the two-word keys they open (only those `heads` opens, when given), each
 *  with the hashtag weight */
function putHashtagWords(
  t: Token,
  heads: ReadonlySet<string> | undefined,
  put: (k: string, w: number) => void,
): void {
  let p: string | undefined;
  for (const s of splitHashtag(t.raw).map(wordKey)) {
    put(s, HASHTAG_WEIGHT);
    if (p && (!heads || heads.has(p))) put(`${p} ${s}`, HASHTAG_WEIGHT);
    p = s;
  }
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
      putHashtagWords(t, heads, put);
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

/** the built-in topics' scores of a text's terms against `compiled` (the widened index caller
 *  categories link to; the built-in classifier itself scores through builtInTextScores) */
function builtInScores(terms: Map<string, number>, compiled: Compiled): Float64Array {
  const scores = score(compiled, terms);
  if (FIRST_PERSON.some((w) => terms.has(w))) scores[DAILY_LIFE]! += TOPIC_PARAMS.personal;
  return scores;
}

/** a custom label's score: its own words' evidence and its linked topics' best score (times the
 *  link weight), the larger of them or their sum */
function customScores(compiled: Compiled, terms: Map<string, number>): Float64Array {
  const scores = score(compiled, terms);
  const p = compiled.params ?? CUSTOM_PARAMS;
  if (compiled.links?.some((l) => l.size > 0)) {
    compiled.expanded ??= getExpanded(p);
    const base = builtInScores(terms, compiled.expanded);
    compiled.links.forEach((links, i) => {
      let linked = 0;
      for (const [t, w] of links) linked = Math.max(linked, w * base[t]!);
      scores[i] = p.combine === 'sum' ? scores[i]! + linked : Math.max(scores[i]!, linked);
    });
  }
  return scores;
}

/** the words that open a multi-word key of an index (text keys hold at most one space, so a key
 *  of three words is never found and a bigram's first word must be the key's) */
function headsOf(compiled: Compiled): Set<string> {
  let heads = compiled.heads;
  if (!heads) {
    heads = new Set();
    for (const key of compiled.index.keys()) {
      const sp = key.indexOf(' ');
      if (sp > 0) heads.add(key.slice(0, sp));
    }
    // caller categories are also scored against the expanded built-in index (customScores)
    if (compiled.links?.some((l) => l.size > 0)) {
      compiled.expanded ??= getExpanded(compiled.params ?? CUSTOM_PARAMS);
      for (const h of headsOf(compiled.expanded)) heads.add(h);
    }
    compiled.heads = heads;
  }
  return heads;
}

let builtInScratch: Float64Array | undefined;

/** What the built-in index holds for a word's lookup key, remembered in the word's facts (words.ts;
 *  a pure function of the word, since the built-in index never changes) */
interface BuiltInKey {
  key: string;
  /** its labels and weights (undefined: not in the index) */
  list: [number, number][] | undefined;
  /** it opens a two-word key */
  head: boolean;
  firstPerson: boolean;
}

const FIRST_PERSON_SET: ReadonlySet<string> = new Set(FIRST_PERSON);

/** the built-in index's reading of a token (`heads`: the words that open its two-word keys) */
function builtInKey(t: Token, heads: ReadonlySet<string>): BuiltInKey {
  let e = t.facts?.topic as BuiltInKey | undefined;
  if (e === undefined) {
    const key = tokenKey(t);
    e = {
      key,
      list: getBuiltIn().index.get(key),
      head: heads.has(key),
      firstPerson: FIRST_PERSON_SET.has(key),
    };
    if (t.facts) t.facts.topic = e;
  }
  return e;
}

/** builtInScores(textTerms(text, heads)) without the map of every term: only the terms the index
 *  holds are kept (in the order textTerms would first see them, each with its largest weight, so
 *  the sums are added in the same order and come out bit for bit the same), and the first-person
 *  test reads each key as it goes */
function builtInTextScores(text: string, out: Float64Array): Float64Array {
  const compiled = getBuiltIn();
  const heads = headsOf(compiled);
  const index = compiled.index;
  const slotOf = new Map<string, number>();
  const lists: [number, number][][] = [];
  const weights: number[] = [];
  let firstPerson = false;
  const put = (k: string, list: [number, number][] | undefined, w: number) => {
    if (list === undefined) return;
    const s = slotOf.get(k);
    if (s === undefined) {
      slotOf.set(k, lists.length);
      lists.push(list);
      weights.push(w);
    } else if (weights[s]! < w) weights[s] = w;
  };
  const putKey = (k: string, w: number) => {
    if (FIRST_PERSON_SET.has(k)) firstPerson = true;
    put(k, index.get(k), w);
  };
  let prev: BuiltInKey | undefined;
  for (const t of tokenize(text)) {
    if (t.kind === 'word') {
      const e = builtInKey(t, heads);
      if (e.firstPerson) firstPerson = true;
      put(e.key, e.list, 1);
      if (prev?.head) {
        const b = `${prev.key} ${e.key}`;
        put(b, index.get(b), 1);
      }
      prev = e;
    } else if (t.kind === 'hashtag') {
      putHashtagWords(t, heads, putKey);
      const e = builtInKey(t, heads);
      if (e.firstPerson) firstPerson = true;
      put(e.key, e.list, HASHTAG_WEIGHT);
      prev = undefined;
    } else if (t.kind === 'mention') {
      const e = builtInKey(t, heads);
      if (e.firstPerson) firstPerson = true;
      put(e.key, e.list, 1);
      prev = undefined;
    } else {
      if (t.raw === '$' || t.raw === '%' || t.raw === '€' || t.raw === '£') putKey(t.raw, 1);
      else if (t.kind === 'break' && t.raw.length > 0) for (const e of t.raw.match(EMOJI) ?? []) putKey(e, 1);
      prev = undefined;
    }
  }
  const scores = out.fill(0);
  for (let s = 0; s < lists.length; s++) {
    const w = weights[s]!;
    for (const [label, weight] of lists[s]!) scores[label]! += weight * w;
  }
  for (let i = 0; i < scores.length; i++) scores[i] = scores[i]! * compiled.prior[i]!;
  if (firstPerson) scores[DAILY_LIFE]! += TOPIC_PARAMS.personal;
  return scores;
}

function rank(compiled: Compiled, text: string, pro: boolean): string[] {
  if (compiled === builtIn) {
    const share = pro ? TOPIC_PARAMS.pro : TOPIC_PARAMS.flash;
    // the scores are read here only: a reused array (a typed array of this size takes a buffer
    // outside the heap, slow to allocate for every text)
    builtInScratch ??= new Float64Array(compiled.labels.length);
    return select(builtInTextScores(text, builtInScratch), MIN_SCORE, share).map((i) => compiled.labels[i]!);
  }
  const terms = textTerms(text, headsOf(compiled));
  const p = compiled.params ?? CUSTOM_PARAMS;
  return select(customScores(compiled, terms), p.minScore, p.share).map((i) => compiled.labels[i]!);
}

/** the caller's categories that can be returned: blank names dropped, and of names that differ only
 *  in case, spacing, `_`, `-` or `/` ("Sports", "sports ", "SPORTS") the first as the caller spelled
 *  it, so one category never takes two of the three places */
function callerLabels(categories: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of categories) {
    if (typeof c !== 'string') continue;
    const norm = normLabel(c);
    if (!norm || seen.has(norm)) continue;
    seen.add(norm);
    out.push(c);
  }
  return out;
}

/** the caller categories' scores of a text before selection (for the eval's cross-validation, which
 *  tries the selection settings on the same scores) */
export function customTopicScores(text: string, categories: string[], p: CustomParams = CUSTOM_PARAMS) {
  const labels = callerLabels(categories);
  return { labels, scores: customScores(compileCustom(labels, p), textTerms(text)) };
}

/** the labels `classifyTopics` returns for caller-category scores under minScore / share */
export function selectCustom(
  labels: readonly string[],
  scores: Float64Array,
  p: Pick<CustomParams, 'minScore' | 'share'>,
): string[] {
  return select(scores, p.minScore, p.share).map((i) => labels[i]!);
}

function getBuiltIn(): Compiled {
  builtIn ??= compileBuiltIn();
  return builtIn;
}

/** the built-in topics' scores of a text and its lookup keys (for scripts/train/topics.ts) */
export function builtInTopicScores(text: string): { scores: Float64Array; keys: string[] } {
  const terms = textTerms(text);
  // scored as the API scores them (builtInTextScores); the keys are every term, bigrams included
  return { scores: builtInTextScores(text, new Float64Array(TAXONOMY.length)), keys: [...terms.keys()] };
}

/** whether a lookup key is in the hand-written lexicons */
export const inLexicon = (key: string): boolean => getBuiltIn().index.has(key);

export function classifyTopics(text: string, opts: TopicOptions = {}): string[] {
  if (!text) return [];
  const pro = opts.pro === true;
  if (opts.categories) {
    const labels = callerLabels(opts.categories);
    if (labels.length === 0) return [];
    return rank(compileCustom(labels, opts.customParams ?? CUSTOM_PARAMS), text, pro);
  }
  return rank(getBuiltIn(), text, pro);
}

/** the built-in topics each caller category links to, with the link weight (for docs and tests) */
export function customLinks(
  categories: string[],
  p: CustomParams = CUSTOM_PARAMS,
): Record<string, Record<string, number>> {
  const labels = callerLabels(categories);
  const compiled = compileCustom(labels, p);
  return Object.fromEntries(
    labels.map((l, i) => [
      l,
      Object.fromEntries([...compiled.links![i]!].map(([t, w]) => [TAXONOMY[t]!, w])),
    ]),
  );
}
