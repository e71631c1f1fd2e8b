// One-pass tokenizer shared by the keyword extractor and the topic classifier. It keeps what social
// text needs (hashtags, mentions, URLs, emoji as boundaries) and records the sentence of each token.
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
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(src); m !== null; m = TOKEN.exec(src)) {
    if (m[4] !== undefined) {
      const raw = m[4];
      if (placeholder(src, m.index, raw)) {
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
        const at = m.index;
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
    } else if (m[1] !== undefined) {
      out.push({ kind: 'url', raw: m[1], lower: m[1].toLowerCase(), sent, first: false, facts: undefined });
    } else if (m[2] !== undefined) {
      const lower = m[2].toLowerCase();
      out.push({ kind: 'hashtag', raw: m[2], lower, sent, first: false, facts: factsOf(lower) });
      first = false;
    } else if (m[3] !== undefined) {
      const lower = m[3].toLowerCase();
      if (PLACEHOLDER_HANDLES.has(lower))
        out.push({ kind: 'placeholder', raw: m[3], lower, sent, first: false, facts: undefined });
      else out.push({ kind: 'mention', raw: m[3], lower, sent, first: false, facts: factsOf(lower) });
    } else if (m[5] !== undefined) {
      // a full stop or a line break ends a sentence, except a line break before a lowercase word
      // (a wrapped line); a full stop; "e.g." style abbreviations only cost a spurious boundary
      if (!first) sent++;
      first = true;
      out.push({ kind: 'break', raw: m[5], lower: m[5], sent, first: true, facts: undefined });
    } else {
      out.push({ kind: 'break', raw: m[6] ?? '', lower: m[6] ?? '', sent, first: false, facts: undefined });
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
