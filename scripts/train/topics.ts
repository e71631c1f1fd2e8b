// Co-occurrence expansion of the built-in topic lexicons, for caller categories
// (src/enrichment/topics/index.ts, EXPANSION_FILE): the hand-written lexicons label the unlabelled
// texts of the training files (a text whose best built-in topic scores at least MIN_SCORE and twice
// the second), and a word the lexicons lack joins a topic when at least MIN_DF texts hold it and at
// least MIN_SHARE of them are labelled with that topic. No TweetTopic text is read here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STOPWORDS } from '../../src/enrichment/keywords/lexicon.js';
import {
  builtInTopicScores,
  EXPANSION_FILE,
  inLexicon,
  TAXONOMY,
} from '../../src/enrichment/topics/index.js';
import { MODELS_DIR } from '../../src/paths.js';
import { readJsonl, unescapeTweet } from './data.js';

/** chosen on the TweetTopic pool's CV means (caller categories, micro-F1; docs/topics-and-keywords.md) */
export const EXPANSION_OPTIONS = { minScore: 1, dominance: 1.5, minDf: 3, minShare: 0.4, skipDaily: true };

export function expansionRows(opts = EXPANSION_OPTIONS): [string, string, number][] {
  const df = new Map<string, number>();
  const dfTopic = new Map<string, Int32Array>();
  const files = [
    'sentiment/tweeteval-train.jsonl',
    'sentiment/tweeteval-val.jsonl',
    'sentiment/goemotions-train.jsonl',
    'sentiment/goemotions-dev.jsonl',
    'complaints/train.jsonl',
  ];
  for (const file of files) {
    for (const r of readJsonl(file)) {
      const { scores, keys } = builtInTopicScores(unescapeTweet(String(r.text)));
      let best = -1;
      let second = 0;
      for (let t = 0; t < scores.length; t++) {
        if (best < 0 || scores[t]! > scores[best]!) {
          if (best >= 0) second = Math.max(second, scores[best]!);
          best = t;
        } else second = Math.max(second, scores[t]!);
      }
      const labelled =
        best >= 0 &&
        scores[best]! >= opts.minScore &&
        scores[best]! >= opts.dominance * second &&
        !(opts.skipDaily && TAXONOMY[best] === 'daily_life');
      for (const k of keys) {
        if (!/^[a-z][a-z'-]{2,}$/.test(k) || STOPWORDS.has(k) || inLexicon(k)) continue;
        df.set(k, (df.get(k) ?? 0) + 1);
        if (labelled) {
          let row = dfTopic.get(k);
          if (!row) {
            row = new Int32Array(TAXONOMY.length);
            dfTopic.set(k, row);
          }
          row[best]!++;
        }
      }
    }
  }
  const rows: [string, string, number][] = [];
  for (const [k, n] of df) {
    if (n < opts.minDf) continue;
    const row = dfTopic.get(k);
    if (!row) continue;
    let t = 0;
    for (let i = 1; i < row.length; i++) if (row[i]! > row[t]!) t = i;
    const share = row[t]! / n;
    if (share >= opts.minShare) rows.push([k, TAXONOMY[t]!, Math.round(share * 1000) / 1000]);
  }
  return rows.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] < b[0] ? -1 : 1));
}

export function trainTopicExpansion(log: (s: string) => void): void {
  const rows = expansionRows();
  writeFileSync(
    join(MODELS_DIR, EXPANSION_FILE),
    `# scripts/train.ts: topic lexicon expansion by co-occurrence (${JSON.stringify(EXPANSION_OPTIONS)}); key, topic, share\n${rows.map((r) => r.join('\t')).join('\n')}\n`,
  );
  log(`topics: ${rows.length} expansion words`);
}
