// Draws candidate texts for labelling eval/intent-dev.jsonl by hand: `tsx scripts/eval/sample-intent.ts
// <round> <cue>=<n per file> ...` prints `file#id<TAB>cue<TAB>text` for texts of 16-220 characters
// not labelled yet, in a fixed order per round (FNV hash of `file#id#round`), so a draw can be
// repeated. The labels are then given by reading each text (eval/README.md), never from the
// analyzer's output. Texts are printed for the person labelling, never written into the repository.
// SAMPLE_ONLY=<file> (one of SAMPLE_FILES) draws from that file alone.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { hashString } from '../../src/enrichment/engine/features.js';
import { restoreEscapes } from '../../src/enrichment/engine/tokenizer.js';
import { ROOT } from '../../src/paths.js';
import { jsonlAt, readJsonl } from '../train/data.js';

export const SAMPLE_FILES = [
  'sentiment/tweeteval-train.jsonl',
  'sentiment/goemotions-train.jsonl',
  'complaints/train.jsonl',
] as const;

/** cue lists: a text is drawn for a cue when it matches it (`random` matches every text) */
export const CUES: Record<string, RegExp> = {
  buy: /\b(?:buy|buying|bought|order|ordered|ordering|purchase|pre-?order|tickets?|price|cost|how much|in stock|available|cart|shop|shopping|sell|sale|deal|discount|afford)\b/i,
  /** a wish or plan to buy, or a purchase just made (drawn in round 17, as buy gave few) */
  buying:
    /\b(?:want|need|gonna|going to|wanna|can't wait to|about to|where (?:can|do|to)|just|finally|should i|thinking (?:of|about))\b.{0,25}\b(?:buy|order|get|purchase|pre-?order|tickets?)\b/i,
  advice:
    /\b(?:should|shouldn't|please|pls|plz|wish|suggest|recommend|try|could you|can you|need to|needs to|why don't|why not|how about|would be (?:nice|great|better)|consider|add|bring back|fix)\b/i,
  question: /\?/,
  praise:
    /\b(?:love|loved|amazing|awesome|great|best|thanks?|thank you|congrat\w*|proud|beautiful|brilliant|excellent|fantastic|impressive|well done|good job|kudos|legend)\b/i,
  /** a problem with a product or service, in a text that opens with no @account (drawn in round 28:
   *  complaints in posts and comments that address no company were the weakest part of intent) */
  problem:
    /^(?!\s*\.?@)[\s\S]*?\b(?:broke|broken|stopped working|doesn'?t work|not working|refund|returned|customer service|waited|waiting|delivery|damaged|defective|faulty|rude|staff|restaurant|hotel|flight|delayed|cancell?ed|charged|overcharged|scam|ripped off|waste of money|worst|terrible|awful|disappointed|disappointing)\b/i,
  random: /./,
};

/** texts labelled already: those of intent-dev.jsonl and of rounds kept apart (eval/intent-round*.jsonl) */
function labelled(): Set<string> {
  const files = [
    'intent-dev.jsonl',
    ...readdirSync(join(ROOT, 'eval')).filter((f) => /^intent-round\d+\.jsonl$/.test(f)),
  ];
  return new Set(
    files.flatMap((f) =>
      jsonlAt<{ file: string; id: string }>(join(ROOT, 'eval', f)).map((r) => `${r.file}#${r.id}`),
    ),
  );
}

export function sample(
  round: string,
  counts: Record<string, number>,
): { key: string; cue: string; text: string }[] {
  const done = labelled();
  const out: { key: string; cue: string; text: string }[] = [];
  const files = process.env.SAMPLE_ONLY
    ? SAMPLE_FILES.filter((f) => f === process.env.SAMPLE_ONLY)
    : SAMPLE_FILES;
  if (files.length === 0) throw new Error(`SAMPLE_ONLY: one of ${SAMPLE_FILES.join(', ')}`);
  for (const file of files) {
    const records = readJsonl(file)
      .map((r) => ({ key: `${file}#${String(r.id ?? r.tweet_id)}`, text: restoreEscapes(String(r.text)) }))
      .filter((r) => r.text.length >= 16 && r.text.length <= 220 && !done.has(r.key))
      .map((r) => ({ ...r, order: hashString(`${r.key}#${round}`) }))
      .sort((a, b) => a.order - b.order || (a.key < b.key ? -1 : 1));
    for (const [cue, n] of Object.entries(counts)) {
      const re = CUES[cue];
      if (!re) throw new Error(`unknown cue ${cue}; one of ${Object.keys(CUES).join(', ')}`);
      let k = 0;
      for (const r of records) {
        if (k >= n) break;
        if (done.has(r.key) || !re.test(r.text)) continue;
        done.add(r.key);
        out.push({ key: r.key, cue, text: r.text });
        k++;
      }
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [round = '16', ...specs] = process.argv.slice(2);
  const counts = Object.fromEntries(
    specs.map((s) => {
      const [cue, n] = s.split('=');
      return [cue!, Number(n)];
    }),
  );
  for (const r of sample(round, counts)) console.log(`${r.key}\t${r.cue}\t${r.text.replace(/\s+/g, ' ')}`);
}
