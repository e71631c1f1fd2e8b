// Co-occurrence expansion of the built-in topic lexicons, for caller categories
// (src/enrichment/topics/index.ts, EXPANSION_FILE): the hand-written lexicons label the unlabelled
// texts of the training files (a text whose best built-in topic scores at least minScore and
// dominance times the second), and a word the lexicons lack joins a topic when at least minDf texts
// hold it and at least minShare of them are labelled with that topic. Each row also carries the
// word's lift (its share over the topic's share of all texts): the tweets are mostly about sports,
// so a sports share of 0.4 says less than a politics share of 0.4, and caller categories may ask
// for a minimum lift (CustomParams.expansionLift). No TweetTopic text is read here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { restoreEscapes } from '../../src/enrichment/engine/tokenizer.js';
import { STOPWORDS } from '../../src/enrichment/keywords/lexicon.js';
import {
  builtInTopicScores,
  EXPANSION_FILE,
  inLexicon,
  TAXONOMY,
} from '../../src/enrichment/topics/index.js';
import { MODELS_DIR } from '../../src/paths.js';
import { readJsonl } from './data.js';

/** minScore, dominance and minDf chosen on the TweetTopic pool's CV means (not nested); minShare is
 *  the lowest share caller categories may use: the nested CV chooses among share and lift floors at
 *  run time (CustomParams, scripts/eval/topics.ts; docs/topics-and-keywords.md) */
export const EXPANSION_OPTIONS = { minScore: 1, dominance: 1.5, minDf: 5, minShare: 0.25, skipDaily: true };

export type ExpansionRow = [key: string, topic: string, share: number, lift: number];

export function expansionRows(opts = EXPANSION_OPTIONS): ExpansionRow[] {
  const df = new Map<string, number>();
  const dfTopic = new Map<string, Int32Array>();
  const perTopic = new Float64Array(TAXONOMY.length);
  let texts = 0;
  const files = [
    'sentiment/tweeteval-train.jsonl',
    'sentiment/tweeteval-val.jsonl',
    'sentiment/goemotions-train.jsonl',
    'sentiment/goemotions-dev.jsonl',
    'complaints/train.jsonl',
  ];
  for (const file of files) {
    for (const r of readJsonl(file)) {
      const { scores, keys } = builtInTopicScores(restoreEscapes(String(r.text)));
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
      texts++;
      if (labelled) perTopic[best]!++;
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
  const rows: ExpansionRow[] = [];
  for (const [k, n] of df) {
    if (n < opts.minDf) continue;
    const row = dfTopic.get(k);
    if (!row) continue;
    let t = 0;
    for (let i = 1; i < row.length; i++) if (row[i]! > row[t]!) t = i;
    const share = row[t]! / n;
    const lift = share / (perTopic[t]! / texts);
    if (share >= opts.minShare)
      rows.push([k, TAXONOMY[t]!, Math.round(share * 1000) / 1000, Math.round(lift * 100) / 100]);
  }
  return rows.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] < b[0] ? -1 : 1));
}

export function trainTopicExpansion(log: (s: string) => void): void {
  const rows = expansionRows();
  writeFileSync(
    join(MODELS_DIR, EXPANSION_FILE),
    `# scripts/train/topics.ts (npm run train -- topics): topic lexicon expansion by co-occurrence (${JSON.stringify(EXPANSION_OPTIONS)}); key, topic, share, lift\n${rows.map((r) => r.join('\t')).join('\n')}\n`,
  );
  log(`topics: ${rows.length} expansion words`);
}
