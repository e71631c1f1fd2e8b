// What the two tokenizers (engine/tokenizer.ts, keywords/tokenize.ts) share: each reads plain ASCII
// by hand and hands everything else to its regular expression, and what it finds must be exactly
// what the expression alone finds (test/enrichment/lexers.test.ts).

/** where the token a lexer found last starts and ends */
export interface Span {
  start: number;
  end: number;
}

export const isAsciiLetter = (c: number): boolean => (c | 32) >= 97 && (c | 32) <= 122;

/** The next match of `re` (a global expression whose alternatives are each one group) in `text` at
 *  or after `from`: its group (0 when there is none), with `span` set to where it is. */
export function lexByRegex(re: RegExp, text: string, from: number, span: Span): number {
  re.lastIndex = from;
  const m = re.exec(text);
  if (m === null) return 0;
  span.start = m.index;
  span.end = m.index + m[0].length;
  for (let g = 1; g < m.length; g++) if (m[g] !== undefined) return g;
  throw new Error(`tokenizer: a match of ${re.source.slice(0, 40)}… without a group`);
}

/** Every token `lex` finds in a text, one after the other: [group, start, end] each (for tests). */
export function lexAll(
  text: string,
  lex: (text: string, from: number) => number,
  span: Span,
): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let at = 0; ; at = span.end) {
    const g = lex(text, at);
    if (g === 0) return out;
    out.push([g, span.start, span.end]);
  }
}
