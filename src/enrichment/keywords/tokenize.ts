// One-pass tokenizer shared by the keyword extractor and the topic classifier. It keeps what social
// text needs (hashtags, mentions, URLs, emoji as boundaries) and records the sentence of each token.
import { isAsciiLetter, lexAll, lexByRegex, type Span } from '../engine/lexing.js';
import { wordSpansOf } from '../engine/tokenizer.js';
import { PLACEHOLDER_HANDLES, PLACEHOLDER_WORDS } from './lexicon.js';
import { factsOf, type WordFacts } from './words.js';

/** 'placeholder': what a data set wrote in place of a removed name or account ("[NAME]", "@user"),
 *  no word and no handle: neither a keyword nor a topic cue */
export type TokenKind = 'word' | 'hashtag' | 'mention' | 'placeholder' | 'url' | 'break';

export interface Token {
  kind: TokenKind;
  /** the text as written (hashtags and mentions without their sigil) */
  raw: string;
  /** lowercase form; apostrophes normalised to ' */
  lower: string;
  /** 0-based sentence index */
  sent: number;
  /** true when the word opens its sentence (its capital letter says nothing) */
  first: boolean;
  /** the remembered facts of `lower` (words, hashtags and mentions; see words.ts) */
  facts: WordFacts | undefined;
}

/** texts are cut to this many characters before tokenizing: keywords and topics of a long text come
 *  from its opening (about 3,000 words), which keeps a 100,000-character input to a few milliseconds */
export const MAX_CHARS = 20_000;

const TOKEN =
  /(https?:\/\/\S+|www\.[^\s]+)|[#＃]([\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)|@(\w{1,30})|(\p{N}+(?:[.,]\p{N}+)+|[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*)|([.!?]+|\r?\n(?![ \t]*\p{Ll}))|(\S)/gu;

// TOKEN's groups
const URL = 1;
const HASHTAG = 2;
const MENTION = 3;
const WORD = 4;
const BREAK = 5;
const OTHER = 6;

/** where the token lex() found starts and ends */
const span: Span = { start: 0, end: 0 };

const isAsciiAlnum = (c: number): boolean => isAsciiLetter(c) || (c >= 48 && c <= 57);

/** The next match of TOKEN in `src` at or after `from`: its group (0 when there is none), with
 *  span.start and span.end set: the match TOKEN.exec gives from there, found without the regex (and the
 *  match array it allocates) where the text is plain ASCII. Spaces and tabs are skipped (no
 *  alternative starts at one), a word of ASCII letters and digits that opens with a letter (joined
 *  by apostrophes and hyphens) is read by hand unless it may open a URL ('http', 'www.'), and '.',
 *  '!', '?' runs and the other ASCII punctuation are read as themselves. Anything else (non-ASCII,
 *  digits, '#', '@', line breaks) goes to the regex. */
function lex(src: string, from: number): number {
  const n = src.length;
  let i = from;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 32 || c === 9) {
      i++;
      continue;
    }
    if (isAsciiLetter(c)) {
      if (
        (c === 104 /* h */ && src.startsWith('http', i)) ||
        (c === 119 /* w */ && src.startsWith('www.', i))
      )
        break;
      let j = i + 1;
      for (;;) {
        while (j < n && isAsciiAlnum(src.charCodeAt(j))) j++;
        if (j >= n) break;
        const d = src.charCodeAt(j);
        if (d === 39 || d === 0x2019 || d === 45) {
          const e = j + 1 < n ? src.charCodeAt(j + 1) : -1;
          if (isAsciiAlnum(e)) {
            j += 2;
            continue;
          }
          if (e >= 128) return lexByRegex(TOKEN, src, i, span);
          break;
        }
        // a non-ASCII letter or digit would continue the word
        if (d >= 128) return lexByRegex(TOKEN, src, i, span);
        break;
      }
      span.start = i;
      span.end = j;
      return WORD;
    }
    if (c === 46 || c === 33 || c === 63) {
      let j = i + 1;
      for (; j < n; j++) {
        const d = src.charCodeAt(j);
        if (d !== 46 && d !== 33 && d !== 63) break;
      }
      span.start = i;
      span.end = j;
      return BREAK;
    }
    // any other printable ASCII character but the digits, '#' and '@' is a token of its own
    if (c > 32 && c < 127 && !(c >= 48 && c <= 57) && c !== 35 && c !== 64) {
      span.start = i;
      span.end = i + 1;
      return OTHER;
    }
    break;
  }
  return i < n ? lexByRegex(TOKEN, src, i, span) : 0;
}

/** TOKEN's matches of a text as lex() reads them (or the expression alone): [group, start, end]
 *  each (for tests) */
export function lexTokens(text: string, byRegexOnly = false): [number, number, number][] {
  return lexAll(text, byRegexOnly ? (t, from) => lexByRegex(TOKEN, t, from, span) : lex, span);
}

// the last text's tokens: topics and keywords of one text share a single pass
let lastText: string | undefined;
let lastMax = 0;
let lastTokens: readonly Token[] = [];

/** The tokens of a text (a shared, read-only array: the last result is memoised). */
export function tokenize(text: string, maxChars = MAX_CHARS): readonly Token[] {
  if (text === lastText && maxChars === lastMax) return lastTokens;
  const out = tokenizeFresh(text, maxChars);
  lastText = text;
  lastMax = maxChars;
  lastTokens = out;
  return out;
}

function tokenizeFresh(text: string, maxChars: number): Token[] {
  const src = text.length > maxChars ? text.slice(0, maxChars) : text;
  const out: Token[] = [];
  let sent = 0;
  let first = true;
  // the engine's tokenizer has usually just read the same text: a word it matched at the same place
  // with the same length is the same raw word, whose lowercase form and facts its entry keeps
  const spans = wordSpansOf(src);
  let k = 0;
  // every alternative of TOKEN consumes at least one character, so this loop always advances
  for (let g = lex(src, 0); g !== 0; g = lex(src, span.end)) {
    if (g === WORD) {
      const raw = src.slice(span.start, span.end);
      if (placeholder(src, span.start, raw)) {
        out.push({
          kind: 'placeholder',
          raw,
          lower: raw.toLowerCase(),
          sent,
          first: false,
          facts: undefined,
        });
        first = false;
        continue;
      }
      let lower: string | undefined;
      let facts: WordFacts | undefined;
      if (spans !== undefined) {
        const at = span.start;
        while (k < spans.count && spans.starts[k]! < at) k++;
        if (k < spans.count && spans.starts[k] === at && spans.ends[k] === at + raw.length) {
          const e = spans.entries[k]!;
          if (e.lower === undefined) {
            // the engine's form is the lowercase word with apostrophes normalized, unless it was
            // shortened as elongated
            const f = e.f;
            e.lower = typeof f === 'string' ? f : f.elong ? lowerWord(raw) : f.w;
            e.facts = factsOf(e.lower);
          }
          lower = e.lower;
          facts = e.facts as WordFacts;
        }
      }
      if (lower === undefined) {
        lower = lowerWord(raw);
        facts = factsOf(lower);
      }
      out.push({ kind: 'word', raw, lower, sent, first, facts });
      first = false;
    } else if (g === URL) {
      const raw = src.slice(span.start, span.end);
      out.push({ kind: 'url', raw, lower: raw.toLowerCase(), sent, first: false, facts: undefined });
    } else if (g === HASHTAG || g === MENTION) {
      // without the sigil
      const raw = src.slice(span.start + 1, span.end);
      const lower = raw.toLowerCase();
      if (g === HASHTAG) {
        out.push({ kind: 'hashtag', raw, lower, sent, first: false, facts: factsOf(lower) });
        first = false;
      } else if (PLACEHOLDER_HANDLES.has(lower))
        out.push({ kind: 'placeholder', raw, lower, sent, first: false, facts: undefined });
      else out.push({ kind: 'mention', raw, lower, sent, first: false, facts: factsOf(lower) });
    } else if (g === BREAK) {
      // a full stop or a line break ends a sentence, except a line break before a lowercase word
      // (a wrapped line); a full stop; "e.g." style abbreviations only cost a spurious boundary
      const raw = src.slice(span.start, span.end);
      if (!first) sent++;
      first = true;
      out.push({ kind: 'break', raw, lower: raw, sent, first: true, facts: undefined });
    } else if (g === OTHER) {
      const raw = src.slice(span.start, span.end);
      out.push({ kind: 'break', raw, lower: raw, sent, first: false, facts: undefined });
    }
  }
  return out;
}

/** a word of PLACEHOLDER_WORDS right inside square brackets ("[NAME]", "[deleted]") */
function placeholder(src: string, at: number, raw: string): boolean {
  return (
    src.charCodeAt(at - 1) === 91 && // [
    src.charCodeAt(at + raw.length) === 93 && // ]
    PLACEHOLDER_WORDS.has(raw.toLowerCase())
  );
}

/** lowercase, apostrophes normalised to ' */
function lowerWord(raw: string): string {
  const lower = raw.toLowerCase();
  return lower.includes('’') ? lower.replace(/’/g, "'") : lower;
}
