// Readers for the labelled files in ../shared/data (or $GLEANER_DATA_DIR). The texts are read at
// training and evaluation time only; nothing here is written into the repository.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashString } from '../../src/enrichment/engine/features.js';
import { restoreEscapes } from '../../src/enrichment/engine/tokenizer.js';

export const DATA_DIR = process.env.GLEANER_DATA_DIR ?? join(import.meta.dirname, '../../../shared/data');

export type Sentiment = 'negative' | 'neutral' | 'positive';
export const SENTIMENTS: readonly Sentiment[] = ['negative', 'neutral', 'positive'];

export interface Example<L extends string = string> {
  id: string;
  text: string;
  label: L;
  domain: 'tweet' | 'reddit';
  /** the annotation campaign a tweet comes from (TweetEval train's `source`, e.g.
   *  `twitter-2016test-A`); absent for TweetEval val and Reddit */
  source?: string;
}

/** the records of a JSON-lines file at `path` (blank lines skipped) */
export function jsonlAt<T = Record<string, unknown>>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** the records of a JSON-lines file of the data folder */
export function readJsonl(file: string): Record<string, unknown>[] {
  return jsonlAt(join(DATA_DIR, file));
}

export function tweetEval(file: string): Example<Sentiment>[] {
  return readJsonl(file).map((r, i) => ({
    id: typeof r.tweet_id === 'string' ? r.tweet_id : `${file}#${i}`,
    text: restoreEscapes(String(r.text)),
    label: r.label as Sentiment,
    domain: 'tweet',
    ...(typeof r.source === 'string' ? { source: r.source } : {}),
  }));
}

/** GoEmotions with a sentiment; records whose sentiment is null (ambiguous) are skipped. */
export function goEmotions(file: string): Example<Sentiment>[] {
  return readJsonl(file)
    .filter((r) => r.sentiment !== null && r.sentiment !== undefined)
    .map((r) => ({
      id: String(r.id),
      text: String(r.text),
      label: r.sentiment as Sentiment,
      domain: 'reddit',
    }));
}

export type ComplaintLabel = 'complaint' | 'not_complaint';
export function complaints(): (Example<ComplaintLabel> & { source: string })[] {
  return readJsonl('complaints/train.jsonl').map((r) => ({
    id: String(r.tweet_id),
    text: restoreEscapes(String(r.text)),
    label: r.label as ComplaintLabel,
    domain: 'tweet',
    source: String(r.domain),
  }));
}

/** A fixed split by record id: `bucket(id, n) === 0` holds out about 1/n of a file, the same on every run. */
export function bucket(id: string, n: number): number {
  return hashString(id) % n;
}

/** GoEmotions records whose emotions span two or three sentiment groups (negative, neutral,
 *  positive; e.g. "approval" + "neutral"), which `goEmotions` skips as ambiguous, with a soft
 *  target spreading equally over the groups present. Records whose only group is "ambiguous"
 *  (surprise, curiosity, confusion, realization) stay out, and so does the "ambiguous" share of a
 *  mixed record. */
export function goEmotionsMixed(file: string): (Example<Sentiment> & { target: number[] })[] {
  const out: (Example<Sentiment> & { target: number[] })[] = [];
  for (const r of readJsonl(file)) {
    if (r.sentiment !== null && r.sentiment !== undefined) continue;
    const groups = (r.sentiment_group ?? []) as string[];
    const t = SENTIMENTS.map((s) => (groups.includes(s) ? 1 : 0));
    const n = t[0]! + t[1]! + t[2]!;
    if (n === 0) continue;
    let best = 0;
    for (let k = 1; k < 3; k++) if (t[k]! > t[best]!) best = k;
    out.push({
      id: String(r.id),
      text: String(r.text),
      label: SENTIMENTS[best]!,
      domain: 'reddit',
      target: t.map((v) => v / n),
    });
  }
  return out;
}
