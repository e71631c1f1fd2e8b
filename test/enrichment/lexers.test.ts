// The two tokenizers read plain ASCII by hand and hand everything else to their regular
// expression; what they find must be exactly what the regular expression alone finds, match for
// match, or a text would read differently depending on which path it took. Checked on strings built
// from the characters each alternative starts or ends with, and on the recorded platform texts.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lexTokens as engineLex } from '../../src/enrichment/engine/tokenizer.js';
import { lexTokens as keywordLex } from '../../src/enrichment/keywords/tokenize.js';
import { FIXTURES, fixtureJson } from '../sources/live/helpers.js';

// what opens or closes an alternative of either expression: URLs, mentions, hashtags, emoticons
// ('D:', 'xD', 'T_T', ':)', '(:', '<3', '^_^'), emoji and their modifiers, numbers, contractions and
// hyphens, clause and sentence punctuation, line breaks, non-ASCII letters, marks and digits, and
// the two characters Unicode case folding maps to ASCII
const PIECES = [
  ...'aAdDxXtTohHwWsSpP:;=8-o*\'^)](\\[}{@|3/<>#＃_.,!?…"$%&+~`\n\r\t 0123456789’éüß\u0301😂😭❤\ufe0f🏻\u200dﬁ²٣ſK',
  'http://',
  'https://x.y',
  'www.',
  ' ',
  '  ',
  'do',
  'don',
  "n't",
  '’s',
  "'",
  '-',
  'xD',
  'XDD',
  'D:',
  'Do:',
  'T_T',
  ':)',
  ':-(',
  '(:',
  '<3',
  '</3',
  '^_^',
  '-_-',
  '8)',
  '3.5',
  '1,000',
  '@user',
  '#tag',
  '[NAME]',
];
const tricky = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((a) => a.join(''));

/** every string of the recorded platform responses */
function recordedStrings(): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') found.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const backend of readdirSync(FIXTURES))
    for (const file of readdirSync(join(FIXTURES, backend)))
      if (file.endsWith('.json')) walk(fixtureJson(backend, file.slice(0, -'.json'.length)));
  return [...found];
}

describe.each([
  ['the analyzer tokenizer', engineLex],
  ['the keyword and topic tokenizer', keywordLex],
])('%s', (_, lex) => {
  it('finds what its regular expression finds, on strings of the pieces its alternatives are made of', () => {
    fc.assert(
      fc.property(tricky, (text) => {
        expect(lex(text)).toEqual(lex(text, true));
      }),
      { numRuns: 20_000 },
    );
  });

  it('finds what its regular expression finds, on the recorded platform texts', () => {
    const texts = recordedStrings();
    expect(texts.length).toBeGreaterThan(500);
    for (const text of texts) expect(lex(text)).toEqual(lex(text, true));
  });

  it('reads words, contractions, emoticons and punctuation where they are', () => {
    const text = "Don't do: that!! xD rock'n'roll T_T";
    const pieces = lex(text).map(([, start, end]) => text.slice(start, end));
    expect(pieces).toEqual(lex(text, true).map(([, start, end]) => text.slice(start, end)));
    expect(pieces).toContain("Don't");
    expect(pieces).toContain("rock'n'roll");
  });
});
