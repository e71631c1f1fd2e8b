// Social-media tokenizer shared by every built-in model. One left-to-right pass of one regex (plain
// ASCII words and punctuation read by hand, with the same result), so the cost is linear in the
// input (a 100,000-character text is fine) and nothing backtracks badly.
//
// Output tokens are lowercase and normalized:
//   URLs → <url>, @mentions → <user>, numbers → <num>, #tag → '#tag' and 'tag',
//   emoticons and emoji → themselves (':)', '<3', '😂'; emoji of clear polarity add ':)' or ':('), '!'/'?' runs → '!', '!!', '?', '??', '?!',
//   elongated words → two repeats ('soooo' → 'soo') plus a <elong> marker,
//   ALL-CAPS words → the lowercase word plus a <caps> marker,
//   words in a negation scope → 'NEG_word' (from a negator up to the next clause punctuation),
//   a negator with a word of bad judgement right after it → '<litotes>' ('not bad'),
//   an idiom whose negator negates nothing → one token of its own ('can't stop' → '<cant_stop>').

import { isAsciiLetter, lexAll, lexByRegex, type Span } from './lexing.js';

// Text copied out of JSON that was escaped twice carries literal escapes ('I\u2019m',
// 'a\u002c b'); many tweet corpora and exports do. Read them as the characters they stand for,
// so "can\u2019t" is the word "can’t" (and its negation), not "can" and "u2019t".
const ESCAPE_RE = /\\u([0-9a-fA-F]{4})/g;
export function restoreEscapes(text: string): string {
  return text.includes('\\u')
    ? text.replace(ESCAPE_RE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : text;
}

const EMOTICON =
  // eyes, optional nose, mouth (':)', ';-P', '=D', ':/'), mirrored ('(:', 'D:'), hearts, kaomoji
  "(?:[<>]?[:;=8][\\-o*'^]?[)\\](\\[dDpP/\\\\}{@|3*xX](?![\\p{L}\\p{N}/]))" +
  "|(?:(?<![\\p{L}\\p{N}])[)\\](\\[dD}{@|][\\-o*'^]?[:;=8](?![\\p{L}\\p{N}]))" +
  '|(?:<\\/?3+)|(?:\\^[_.-]?\\^)|(?:-_+-)|(?:[tT]_[tT])|(?:(?<![\\p{L}])[xX][dD]+(?![\\p{L}]))';

const TOKEN_RE = new RegExp(
  [
    '((?:https?:\\/\\/|www\\.)\\S+)', // 1 url
    '(@[\\p{L}\\p{N}_]+)', // 2 mention
    '(#[\\p{L}\\p{N}_]+)', // 3 hashtag
    `(${EMOTICON})`, // 4 emoticon
    '(\\p{Extended_Pictographic})', // 5 emoji
    '(\\p{N}+(?:[.,:/]\\p{N}+)*)', // 6 number
    "([\\p{L}\\p{M}\\p{N}_]+(?:['’][\\p{L}]+)*)", // 7 word (keeps contractions whole)
    '([!?]+)', // 8 emphasis punctuation
    '([.,;:…]|\\n)', // 9 clause punctuation: ends a negation scope, emits nothing
  ].join('|'),
  'gu',
);

// TOKEN_RE's groups, in its order of alternatives
const URL = 1;
const MENTION = 2;
const HASHTAG = 3;
const EMOTICON_TOKEN = 4;
const EMOJI = 5;
const NUMBER = 6;
const WORD = 7;
const EMPHASIS = 8;
const CLAUSE = 9;

/** where the token lex() found starts and ends */
const span: Span = { start: 0, end: 0 };

/** [A-Za-z0-9_]: the ASCII characters of TOKEN_RE's word alternative */
const isAsciiWordChar = (c: number): boolean => isAsciiLetter(c) || (c >= 48 && c <= 57) || c === 95;
/** an emoticon's eyes, and its nose (between a mirrored emoticon's mouth and its eyes: 'D-:') */
const isEyes = (c: number): boolean => c === 58 || c === 59 || c === 61 || c === 56; // : ; = 8
const isNose = (c: number): boolean => c === 45 || c === 111 || c === 42 || c === 39 || c === 94; // - o * ' ^

/** The next match of TOKEN_RE in `text` at or after `from`: its group (0 when there is none), with
 *  span.start and span.end set. The same match TOKEN_RE.exec gives from there, found without the regex
 *  (and without the match array it allocates) where the text is plain ASCII: spaces are skipped (no
 *  alternative starts at one), a word of ASCII letters (contractions included) is read by hand
 *  unless an earlier alternative could start at its first letter (a URL at 'http' or 'www.', an
 *  emoticon at 'D:', 'xD', 'T_T'), and '.', ',', a line break and runs of '!' and '?' are read as
 *  themselves. Anything else (non-ASCII, digits, other punctuation) goes to the regex. */
function lex(text: string, from: number): number {
  const n = text.length;
  let i = from;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13) {
      i++;
      continue;
    }
    if (isAsciiLetter(c)) {
      const c1 = i + 1 < n ? text.charCodeAt(i + 1) : -1;
      const special =
        (c === 104 /* h */ && text.startsWith('http', i)) ||
        (c === 119 /* w */ && text.startsWith('www.', i)) ||
        ((c | 32) === 100 /* d, D */ &&
          (isEyes(c1) || (isNose(c1) && i + 2 < n && isEyes(text.charCodeAt(i + 2))))) ||
        ((c | 32) === 116 /* t, T */ && c1 === 95) ||
        ((c | 32) === 120 /* x, X */ && (c1 | 32) === 100);
      if (special) break;
      let j = i + 1;
      while (j < n && isAsciiWordChar(text.charCodeAt(j))) j++;
      // contractions: an apostrophe and letters, as often as they come
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 39 || d === 0x2019) {
          const e = j + 1 < n ? text.charCodeAt(j + 1) : -1;
          if (isAsciiLetter(e)) {
            j += 2;
            while (j < n && isAsciiLetter(text.charCodeAt(j))) j++;
            continue;
          }
          if (e >= 128) return lexByRegex(TOKEN_RE, text, i, span);
          break;
        }
        // a non-ASCII letter, mark or digit would continue the word
        if (d >= 128) return lexByRegex(TOKEN_RE, text, i, span);
        break;
      }
      span.start = i;
      span.end = j;
      return WORD;
    }
    if (c === 46 || c === 44 || c === 10) {
      span.start = i;
      span.end = i + 1;
      return CLAUSE;
    }
    if (c === 33 || c === 63) {
      let j = i + 1;
      while (j < n && (text.charCodeAt(j) === 33 || text.charCodeAt(j) === 63)) j++;
      span.start = i;
      span.end = j;
      return EMPHASIS;
    }
    break;
  }
  return i < n ? lexByRegex(TOKEN_RE, text, i, span) : 0;
}

/** TOKEN_RE's matches of a text as lex() reads them (or the expression alone): [group, start, end]
 *  each (for tests) */
export function lexTokens(text: string, byRegexOnly = false): [number, number, number][] {
  return lexAll(text, byRegexOnly ? (t, from) => lexByRegex(TOKEN_RE, t, from, span) : lex, span);
}

const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'nothing',
  'nobody',
  'none',
  'nowhere',
  'neither',
  'nor',
  'cannot',
  'without',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'arent',
  'wasnt',
  'werent',
  'cant',
  'couldnt',
  'wont',
  'wouldnt',
  'shouldnt',
  'havent',
  'hasnt',
  'hadnt',
  'aint',
  'mustnt',
  'neednt',
]);
// words that end a negation scope like punctuation does ("not great but fine")
const SCOPE_BREAKERS = new Set(['but', 'however', 'although', 'though', 'yet']);
// a negation scope without punctuation still ends after this many words
const MAX_SCOPE = 8;
// Idioms in which a negator negates nothing. Each becomes one token of its own in place of the
// negator ('<cant_stop>'), its other words give none, and no scope opens (read in `tokenize` when
// the negator is, from the raw text right after it):
// - "can't / cannot / can not / couldn't" before "stop", "believe" or "get enough" ("I can't stop
//   watching this", "I can't believe how good this is", "I can't get enough of this song"), "not
//   only", "no doubt", "not gonna / going to lie" and "won't lie" ("Not gonna lie this is good"),
//   "never get(s) old". The negator's own token and its character n-grams are learned from
//   negations, and "stop", "doubt" and "lie" carry a negative lexicon valence the idiom does not
//   have: read as words, "I can't stop watching this" and "Not gonna lie this is good" read
//   negative. The idiom's token has no character n-grams and no lexicon valence, so what it says
//   is learned from the texts that hold it, and the rest of the text is read as it is.
//   ("can't wait" keeps its scope: the model reads its negated words as that idiom's, and 404 of
//   its 430 training tweets are positive.)
// - a comparative after "can't / couldn't be / get (any)" or "never been / felt / looked": such a
//   negation says the most of it, not its opposite ("I couldn't be happier", "it can't get any
//   worse", "I've never felt better"). Not after other negators: "it isn't any better", "it will
//   never get better" and "I don't feel better" are negations.
const CAN_NOT = new Set(["can't", 'cant', 'cannot', "couldn't", 'couldnt']);
/** the idiom's words after the negator (a regex source, words apart by spaces) and its token */
const IDIOMS: ReadonlyArray<{ negators: readonly string[]; words: string; token: string }> = [
  { negators: [...CAN_NOT], words: 'stop', token: '<cant_stop>' },
  { negators: [...CAN_NOT], words: 'believe', token: '<cant_believe>' },
  { negators: [...CAN_NOT], words: 'get enough', token: '<cant_get_enough>' },
  { negators: ['not'], words: 'only', token: '<not_only>' },
  { negators: ['no'], words: 'doubt', token: '<no_doubt>' },
  { negators: ['not'], words: '(?:gonna|going to|gon|finna) lie', token: '<not_gonna_lie>' },
  { negators: ["won't", 'wont'], words: 'lie', token: '<not_gonna_lie>' },
  { negators: ['never'], words: 'gets? old', token: '<never_gets_old>' },
];
/** by negator: one sticky regex for the rest of every idiom it opens (a group per idiom), and the
 *  idioms' tokens in the order of their groups */
const IDIOMS_AFTER = new Map<string, { re: RegExp; tokens: string[] }>();
for (const negator of new Set(IDIOMS.flatMap((i) => i.negators))) {
  const idioms = IDIOMS.filter((i) => i.negators.includes(negator));
  const groups = idioms.map((i) => `(${i.words.replaceAll(' ', '\\s+')})`).join('|');
  IDIOMS_AFTER.set(negator, {
    re: new RegExp(`\\s+(?:${groups})(?![\\p{L}\\p{M}\\p{N}_'’])`, 'iuy'),
    tokens: idioms.map((i) => i.token),
  });
}
/** the idiom a negator opens at `at` in `text` (right after the negator): its token and how many
 *  words follow the negator in it, or undefined */
function idiomAfter(negator: string, text: string, at: number): { token: string; words: number } | undefined {
  const idioms = IDIOMS_AFTER.get(negator);
  if (idioms === undefined) return undefined;
  idioms.re.lastIndex = at;
  const m = idioms.re.exec(text);
  if (m === null) return undefined;
  const g = m.findIndex((v, i) => i > 0 && v !== undefined);
  return { token: idioms.tokens[g - 1]!, words: m[g]!.split(/\s+/).length };
}

const LINKS = new Map<string, ReadonlySet<string>>([
  ...[...CAN_NOT].map((n): [string, ReadonlySet<string>] => [n, new Set(['be', 'get', 'any'])]),
  ['never', new Set(['been', 'felt', 'looked'])],
]);
const COMPARATIVES = new Set(
  (
    'more better worse greater prouder nicer sweeter cooler faster cheaper smoother stronger ' +
    'clearer bigger brighter kinder safer sadder harder louder smarter richer wiser fresher ' +
    'tougher weaker slower dumber worser'
  ).split(' '),
);
const isComparative = (w: string) => COMPARATIVES.has(w) || (w.length >= 5 && w.endsWith('ier'));
// Litotes: a word of bad judgement negated right after any negator, or after at most two of
// LITOTES_LINKS ("not bad", "not too bad", "not a bad idea", "not the worst", "no problem", "nothing
// wrong", "I don't hate it"), says the thing is all right, not that it is bad. The negator becomes
// the one token LITOTES and the word gives none: LITOTES has no character n-grams (those of "bad"
// are the word's own, and they outweighed the negation), and the negator's own token is read in
// every negative text. The scope closes after it ("not bad at all, great price"). Words of
// worry are not in the list: "no worries" and "don't worry" read positive as negated words, and
// merged into LITOTES "no worries" read negative (an experimental training run).
export const LITOTES = '<litotes>';
const LITOTES_WORDS = new Set(
  (
    'bad terrible awful horrible horrendous dreadful worst wrong hate boring ugly shabby lame ' +
    'disappointing disappointed disappoint disappoints problem problems complain complaint complaints ' +
    'fail fails failed regret regrets regretted'
  ).split(' '),
);
const LITOTES_LINKS = new Set('too that so half a as all at the really very even exactly an'.split(' '));
// A hedged litotes: "I don't think it's bad", "I don't think that's a problem". A verb of opinion
// right after the negator may lead, and then these words link too (up to three links in all).
const HEDGE_VERBS = new Set('think believe thought'.split(' '));
const HEDGE_LINKS = new Set("it's its it this that's thats is was".split(' '));

// Emoji of clear polarity also emit the matching emoticon: the tweet training data predates
// emoji (its texts carry emoticons, not emoji), so this lets ':)' and ':(' weights carry over.
// The coloured hearts (not the black one) and the wink read as the red heart does: of the Reddit
// comments of the CV pool with one sentiment, 16 of the 18 with a coloured heart are positive, 9 of
// the 11 with a wink.
const POSITIVE_EMOJI = new Set([
  ...'😀😃😄😁😆😊☺🙂😍🥰😘😗😙😚😋😎🤩🥳👍👏🙌💪🎉🎊✨💯❤♥💕💖💗💓💞💘💝😻😇🤗🙏👌✅⭐🌟💐🌹🥂',
  ...'💙💚💛💜🧡🤍🤎😉',
]);
const NEGATIVE_EMOJI = new Set([...'😠😡🤬😤😞😔😟😕🙁☹😣😖😫😩😢😭😿💔👎😒🙄🤮🤢😰😨😱😓😥😪🖕']);

const ELONGATION_RE = /(\p{L})\1{2,}/gu;
const HAS_UPPER_RE = /\p{Lu}/u;
const HAS_LOWER_RE = /\p{Ll}/u;

export function isNegator(word: string): boolean {
  return NEGATORS.has(word) || word.endsWith("n't");
}

/** how a word token reads, whatever its context (see wordForm) */
interface WordForm {
  /** lowercase, apostrophes normalized, elongation shortened */
  w: string;
  /** 'NEG_' + w, made on first use */
  neg: string | undefined;
  caps: boolean;
  elong: boolean;
  /** opens a negation scope; ends one */
  negator: boolean;
  breaker: boolean;
}

/** What is remembered of a raw word: its form (the token itself for a word without any flag, else
 *  its WordForm), and what the keyword tokenizer (keywords/tokenize.ts) reads of the same word,
 *  filled there on first use, so that it finds the word through this tokenizer's lookup instead of
 *  its own. */
export interface WordEntry {
  f: string | WordForm;
  /** the keyword tokenizer's lowercase form and its facts (keywords/words.ts) */
  lower: string | undefined;
  facts: object | undefined;
  /** where the fused sums (fused.ts) last found the word's own token: the memo that holds it, its
   *  generation then, and the entry's offset there */
  sumsMemo: object | undefined;
  sumsGen: number;
  sumsAt: number;
}

/** the entries by raw text */
const WORD_FORMS = new Map<string, WordEntry>();
const WORD_FORMS_MAX = 50_000;
/** 'NEG_' + token of flagless words read in a negation scope */
const NEGATED = new Map<string, string>();
/** longer words are rare: they are read afresh rather than remembered */
const WORD_FORM_MAX_CHARS = 40;

function readWord(raw: string): WordForm {
  let w = raw.toLowerCase();
  if (w.includes('’')) w = w.replaceAll('’', "'");
  const caps = raw.length >= 2 && HAS_UPPER_RE.test(raw) && !HAS_LOWER_RE.test(raw);
  let elong = false;
  if (w.length >= 3) {
    const short = w.replace(ELONGATION_RE, '$1$1');
    if (short !== w) {
      elong = true;
      w = short;
    }
  }
  const negator = isNegator(w);
  return { w, neg: undefined, caps, elong, negator, breaker: !negator && SCOPE_BREAKERS.has(w) };
}

/** a word's entry, memoised by its raw text (bounded): the same strings come back for the same
 *  word, so the models' lookups by token find their hash already computed */
const newEntry = (f: string | WordForm): WordEntry => ({
  f,
  lower: undefined,
  facts: undefined,
  sumsMemo: undefined,
  sumsGen: 0,
  sumsAt: 0,
});

function wordEntry(raw: string): WordEntry {
  if (raw.length > WORD_FORM_MAX_CHARS) return newEntry(readWord(raw));
  let e = WORD_FORMS.get(raw);
  if (e === undefined) {
    const form = readWord(raw);
    e = newEntry(form.caps || form.elong || form.negator || form.breaker ? form : form.w);
    if (WORD_FORMS.size >= WORD_FORMS_MAX) WORD_FORMS.clear();
    WORD_FORMS.set(raw, e);
  }
  return e;
}

/** The word matches of the last text tokenized: where each starts and ends, its entry, and the
 *  index of the token it gave when that token is the word's own form (-1 when it was read negated). */
export interface WordSpans {
  text: string;
  tokens: readonly string[] | undefined;
  count: number;
  starts: Int32Array;
  ends: Int32Array;
  tokenAt: Int32Array;
  entries: WordEntry[];
}
const spans: WordSpans = {
  text: '',
  tokens: undefined,
  count: 0,
  starts: new Int32Array(256),
  ends: new Int32Array(256),
  tokenAt: new Int32Array(256),
  entries: [],
};

/** the word spans of the last text tokenized, when its tokens are `tokens` (else undefined) */
export function wordSpansOfTokens(tokens: readonly string[]): WordSpans | undefined {
  return spans.tokens === tokens ? spans : undefined;
}

/** the word spans of the last text tokenized, when it was `text` (else undefined) */
export function wordSpansOf(text: string): WordSpans | undefined {
  return spans.text === text ? spans : undefined;
}

const linkAt = new Int32Array(3);

function negated(w: string): string {
  let n = NEGATED.get(w);
  if (n === undefined) {
    n = 'NEG_' + w;
    if (NEGATED.size >= WORD_FORMS_MAX) NEGATED.clear();
    NEGATED.set(w, n);
  }
  return n;
}

/** Tokenize one text. Empty input gives []. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  if (text.length === 0) return out;
  let scope = 0; // words left in the current negation scope
  // the negator that opened the scope, while its next words may still make an idiom of it; the
  // link words read so far ("be", "any") and where their tokens are
  let opener: string | undefined;
  let openerAt = 0;
  let links = 0;
  // whether every link word read so far may lead to a comparative idiom (LINKS), to litotes
  let comparativeLinks = true;
  let litotesLinks = true;
  // whether the first link word was a verb of opinion (HEDGE_VERBS)
  let hedged = false;
  // words left of an idiom whose token was emitted in place of its negator (IDIOMS)
  let idiomWords = 0;
  let prev = '';
  let nw = 0;
  spans.text = '';
  spans.tokens = undefined;
  for (let g = lex(text, 0); g !== 0; g = lex(text, span.end)) {
    if (g === WORD) {
      const raw = text.slice(span.start, span.end);
      const e = wordEntry(raw);
      if (nw === spans.starts.length) {
        const starts = new Int32Array(2 * nw);
        const ends = new Int32Array(2 * nw);
        const tokenAt = new Int32Array(2 * nw);
        starts.set(spans.starts);
        ends.set(spans.ends);
        tokenAt.set(spans.tokenAt);
        spans.starts = starts;
        spans.ends = ends;
        spans.tokenAt = tokenAt;
      }
      spans.starts[nw] = span.start;
      spans.ends[nw] = span.end;
      spans.entries[nw] = e;
      const f = e.f;
      if (idiomWords > 0) {
        // a word of the idiom a negator opened: its token stands for it
        idiomWords--;
        spans.tokenAt[nw++] = -1;
        prev = typeof f === 'string' ? f : f.w;
        continue;
      }
      if (opener !== undefined && scope > 0) {
        // the words right after a negator: litotes, or a comparative idiom that takes the scope
        // back from the link words already read negated (LINKS: "couldn't be happier")
        const w = typeof f === 'string' ? f : f.w;
        const litotes = litotesLinks && LITOTES_WORDS.has(w);
        if (litotes || (links > 0 && comparativeLinks && isComparative(w))) {
          for (let j = 0; j < links; j++) {
            const k = nw - links + j;
            const at = linkAt[j] as number;
            const l = (spans.entries[k] as WordEntry).f;
            if (typeof l === 'string') spans.tokenAt[k] = at;
            out[at] = typeof l === 'string' ? l : l.w;
          }
          scope = 0;
          opener = undefined;
          if (litotes) {
            spans.tokenAt[nw++] = -1;
            if (typeof f !== 'string') {
              if (f.caps) out.push('<caps>');
              if (f.elong) out.push('<elong>');
            }
            out[openerAt] = LITOTES;
            prev = w;
            continue;
          }
        } else {
          const comparativeLink = LINKS.get(opener)?.has(w) === true;
          if (links === 0) hedged = HEDGE_VERBS.has(w);
          const litotesLink = LITOTES_LINKS.has(w) || (hedged && (links === 0 || HEDGE_LINKS.has(w)));
          if (links < (hedged ? 3 : 2) && (comparativeLink || litotesLink)) {
            comparativeLinks &&= comparativeLink;
            litotesLinks &&= litotesLink;
            linkAt[links++] = out.length + (typeof f === 'string' ? 0 : (f.caps ? 1 : 0) + (f.elong ? 1 : 0));
          } else {
            opener = undefined;
          }
        }
      }
      if (typeof f === 'string') {
        prev = f;
        if (scope > 0) {
          spans.tokenAt[nw++] = -1;
          out.push(negated(f));
          scope--;
        } else {
          spans.tokenAt[nw++] = out.length;
          out.push(f);
        }
        continue;
      }
      spans.tokenAt[nw++] = -1;
      if (f.caps) out.push('<caps>');
      if (f.elong) out.push('<elong>');
      if (f.negator) {
        // "can not" is "cannot"
        const negator = f.w === 'not' && (prev === 'can' || prev === 'could') ? 'cannot' : f.w;
        const idiom = idiomAfter(negator, text, span.end);
        if (idiom !== undefined) {
          out.push(idiom.token);
          idiomWords = idiom.words;
          scope = 0;
          opener = undefined;
          prev = f.w;
          continue;
        }
        openerAt = out.length;
        out.push(f.w);
        scope = MAX_SCOPE;
        opener = negator;
        links = 0;
        comparativeLinks = true;
        litotesLinks = true;
        hedged = false;
      } else if (f.breaker) {
        out.push(f.w);
        scope = 0;
      } else if (scope > 0) {
        f.neg ??= 'NEG_' + f.w;
        out.push(f.neg);
        scope--;
      } else {
        out.push(f.w);
      }
      prev = f.w;
    } else if (g === CLAUSE) {
      scope = 0;
    } else if (g === EMPHASIS) {
      const p = text.slice(span.start, span.end);
      scope = 0;
      if (p.includes('!') && p.includes('?')) out.push('?!');
      else if (p.length > 1) out.push(p[0] === '!' ? '!!' : '??');
      else out.push(p);
    } else if (g === URL) {
      out.push('<url>');
    } else if (g === MENTION) {
      out.push('<user>');
    } else if (g === HASHTAG) {
      const tag = text.slice(span.start, span.end).toLowerCase();
      out.push(tag, tag.slice(1));
    } else if (g === EMOTICON_TOKEN) {
      out.push(text.slice(span.start, span.end).toLowerCase());
    } else if (g === EMOJI) {
      const e = text.slice(span.start, span.end);
      out.push(e);
      if (POSITIVE_EMOJI.has(e)) out.push(':)');
      else if (NEGATIVE_EMOJI.has(e)) out.push(':(');
    } else if (g === NUMBER) {
      out.push('<num>');
    }
  }
  spans.text = text;
  spans.tokens = out;
  spans.count = nw;
  return out;
}
