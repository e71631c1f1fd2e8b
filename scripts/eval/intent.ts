// Intent and complaint rows of `npm run eval`.
// - complaint macro-F1 on the fixed 20% of the complaints corpus that training never sees;
// - intent macro-F1 over the six labels on eval/intent-dev.jsonl (labels by record id).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INTENTS, type Intent, type LlmProvider } from '../../src/contract/items.js';
import { analyze } from '../../src/enrichment/engine/analyze.js';
import { complaintDetector, complaintLogit } from '../../src/enrichment/engine/complaint.js';
import { predictSentiment, sentimentAnalyzer } from '../../src/enrichment/engine/sentiment.js';
import { tokenize } from '../../src/enrichment/engine/tokenizer.js';
import { ROOT } from '../../src/paths.js';
import { isComplaintHeldOut } from '../train/complaint.js';
import { complaints, readJsonl, unescapeTweet } from '../train/data.js';
import { macroF1 } from '../train/metrics.js';
import type { EvalRow } from './types.js';

function complaintF1(provider: LlmProvider): number {
  const held = complaints().filter((e) => isComplaintHeldOut(e.id));
  const sa = sentimentAnalyzer(provider);
  const d = complaintDetector(provider);
  const pred = held.map((e) => {
    const tokens = tokenize(e.text);
    return complaintLogit(d, tokens, predictSentiment(sa, tokens).probs) > 0 ? 1 : 0;
  });
  return macroF1(
    held.map((e) => (e.label === 'complaint' ? 1 : 0)),
    pred,
    2,
  );
}

export interface IntentDevItem {
  file: string;
  id: string;
  label: Intent;
  text: string;
}

/** the labelled development set, joined with its texts from the data folder */
export function intentDev(): IntentDevItem[] {
  const labels = readFileSync(join(ROOT, 'eval/intent-dev.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { file: string; id: string; label: Intent });
  const texts = new Map<string, string>();
  for (const file of new Set(labels.map((l) => l.file))) {
    for (const r of readJsonl(file)) {
      const id = String(r.id ?? r.tweet_id);
      texts.set(`${file}#${id}`, unescapeTweet(String(r.text)));
    }
  }
  return labels.map((l) => {
    const text = texts.get(`${l.file}#${l.id}`);
    if (text === undefined) throw new Error(`eval/intent-dev.jsonl: ${l.file} has no record ${l.id}`);
    return { ...l, text };
  });
}

export function intentPredictions(items: readonly IntentDevItem[], provider: LlmProvider): Intent[] {
  return analyze({ texts: items.map((i) => i.text), types: ['intent'], provider }).map((e) => e.intent!);
}

function intentF1(items: readonly IntentDevItem[], provider: LlmProvider): number {
  const pred = intentPredictions(items, provider);
  return macroF1(
    items.map((i) => INTENTS.indexOf(i.label)),
    pred.map((p) => INTENTS.indexOf(p)),
    INTENTS.length,
  );
}

export default async function (): Promise<EvalRow[]> {
  const items = intentDev();
  return [
    {
      task: 'complaint',
      dataset: 'Complaints held-out 20% (511)',
      metric: 'macro-F1',
      flash: complaintF1('model-2.0-flash'),
      pro: complaintF1('model-1.5-pro'),
      vader: null,
      reference: 'classical features 0.79, transformers 0.87 (Preotiuc-Pietro et al. 2019, CV)',
      target: 0.8,
    },
    {
      task: 'intent',
      dataset: `intent-dev (${items.length}, own labels)`,
      metric: 'macro-F1 (6 labels)',
      flash: intentF1(items, 'model-2.0-flash'),
      pro: intentF1(items, 'model-1.5-pro'),
      vader: null,
      reference: '-',
    },
  ];
}
