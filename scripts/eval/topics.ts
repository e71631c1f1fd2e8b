// Topic classification on the TweetTopic-style development file (200 tweets, 19 labels, multi-label):
// macro-F1 and micro-F1 over TweetTopic's labels, after mapping each built-in topic to one TweetTopic
// label (TO_TWEETTOPIC; documented in docs/topics-and-keywords.md). The file is used for development
// and evaluation only; no shipped table is derived from it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyTopics } from '../../src/enrichment/topics/index.js';
import { ROOT } from '../../src/paths.js';
import type { EvalRow } from './types.js';

const DATA = process.env.GLEANER_DATA_DIR ?? join(ROOT, '..', 'shared', 'data');

export const TO_TWEETTOPIC: Record<string, string> = {
  technology: 'science_&_technology',
  science: 'science_&_technology',
  gaming: 'gaming',
  music: 'music',
  film_tv: 'film_tv_&_video',
  entertainment: 'celebrity_&_pop_culture',
  sports: 'sports',
  fashion: 'fashion_&_style',
  beauty: 'fashion_&_style',
  food_drink: 'food_&_dining',
  travel: 'travel_&_adventure',
  fitness_health: 'fitness_&_health',
  finance: 'business_&_entrepreneurs',
  business: 'business_&_entrepreneurs',
  politics: 'news_&_social_concern',
  news: 'news_&_social_concern',
  education: 'learning_&_educational',
  family_parenting: 'family',
  relationships: 'relationships',
  pets_animals: 'other_hobbies',
  automotive: 'other_hobbies',
  arts_culture: 'arts_&_culture',
  daily_life: 'diaries_&_daily_life',
  hobbies: 'other_hobbies',
};

export const TWEETTOPIC_LABELS = [
  'arts_&_culture',
  'business_&_entrepreneurs',
  'celebrity_&_pop_culture',
  'diaries_&_daily_life',
  'family',
  'fashion_&_style',
  'film_tv_&_video',
  'fitness_&_health',
  'food_&_dining',
  'gaming',
  'learning_&_educational',
  'music',
  'news_&_social_concern',
  'other_hobbies',
  'relationships',
  'science_&_technology',
  'sports',
  'travel_&_adventure',
  'youth_&_student_life',
];

export function loadTweetTopic(): { id: string; text: string; labels: string[] }[] {
  return readFileSync(join(DATA, 'topics', 'tweettopic-dev.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { id: string; text: string; labels: string[] });
}

export function topicF1(preds: string[][], golds: string[][]): { macro: number; micro: number } {
  let tpAll = 0;
  let fpAll = 0;
  let fnAll = 0;
  let macro = 0;
  for (const label of TWEETTOPIC_LABELS) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < golds.length; i++) {
      const p = preds[i]!.includes(label);
      const g = golds[i]!.includes(label);
      if (p && g) tp++;
      else if (p) fp++;
      else if (g) fn++;
    }
    macro += tp ? (2 * tp) / (2 * tp + fp + fn) : 0;
    tpAll += tp;
    fpAll += fp;
    fnAll += fn;
  }
  return {
    macro: macro / TWEETTOPIC_LABELS.length,
    micro: tpAll ? (2 * tpAll) / (2 * tpAll + fpAll + fnAll) : 0,
  };
}

export function mapped(topics: string[]): string[] {
  return [...new Set(topics.map((t) => TO_TWEETTOPIC[t]).filter((t): t is string => t !== undefined))];
}

export default async function (): Promise<EvalRow[]> {
  const rows = loadTweetTopic();
  const golds = rows.map((r) => r.labels);
  const flash = topicF1(
    rows.map((r) => mapped(classifyTopics(r.text))),
    golds,
  );
  const pro = topicF1(
    rows.map((r) => mapped(classifyTopics(r.text, { pro: true }))),
    golds,
  );
  const dataset = `TweetTopic dev (${rows.length})`;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return [
    {
      task: 'topics',
      dataset,
      metric: 'macro-F1',
      flash: round(flash.macro),
      pro: round(pro.macro),
      vader: null,
    },
    {
      task: 'topics',
      dataset,
      metric: 'micro-F1',
      flash: round(flash.micro),
      pro: round(pro.micro),
      vader: null,
    },
  ];
}
