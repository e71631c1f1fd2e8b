// A fingerprint of the built-in analyzer's outputs: `analyze` (all four types, both providers, the
// built-in taxonomy and caller categories) over about 20,000 real texts from ../shared/data, plus
// a stricter fingerprint of the sentiment probabilities and complaint logits behind them. A change
// meant to alter speed only (not weights, thresholds or rules) must leave both unchanged, and the
// fingerprint of a quarter of the long documents (keyphrases/nguyen2007.jsonl) too.
//   npx tsx scripts/enrichment-hash.ts [--dump file]   (the dump holds one JSON line per text)
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { ENRICHMENT_TYPES, type LlmProvider } from '../src/contract/items.js';
import { analyze } from '../src/enrichment/engine/analyze.js';
import { complaintDetector, complaintLogit } from '../src/enrichment/engine/complaint.js';
import { FeatureCache } from '../src/enrichment/engine/features.js';
import { predictSentiment, sentimentAnalyzer } from '../src/enrichment/engine/sentiment.js';
import { tokenize } from '../src/enrichment/engine/tokenizer.js';
import { readJsonl } from './train/data.js';

const PROVIDERS: LlmProvider[] = ['model-2.0-flash', 'model-1.5-pro'];
/** TweetTopic's own label names, as a caller would send them */
const CATEGORIES = [
  'arts & culture',
  'business & entrepreneurs',
  'pop culture',
  'daily life',
  'sports & gaming',
  'science & technology',
];

function texts(): string[] {
  const out: string[] = [];
  const take = (file: string, every: number) => {
    const rows = readJsonl(file);
    for (let i = 0; i < rows.length; i += every) out.push(String(rows[i]!.text));
  };
  take('sentiment/tweeteval-train.jsonl', 6);
  take('sentiment/tweeteval-val.jsonl', 1);
  take('sentiment/goemotions-train.jsonl', 6);
  take('sentiment/goemotions-dev.jsonl', 2);
  take('topics/tweettopic-dev.jsonl', 1);
  take('keyphrases/inspec.jsonl', 1);
  // edge cases: empty, blank, emoji only, negation, caps, elongation, a long document
  out.push('', '   ', '😂😂😂', 'not good at all!!!', 'SOOOO HAPPY :)', '#BlackFriday deals @shop');
  out.push(out.slice(-3000, -2000).join(' '));
  return out;
}

const args = process.argv.slice(2);
const dumpAt = args.indexOf('--dump');
const dump = dumpAt >= 0 ? args[dumpAt + 1] : undefined;

const all = texts();
const outputs = createHash('sha256');
const internals = createHash('sha256');
const lines: string[] = [];
const t0 = performance.now();
for (const provider of PROVIDERS) {
  const sa = sentimentAnalyzer(provider);
  const cd = complaintDetector(provider);
  for (let i = 0; i < all.length; i += 20) {
    const batch = all.slice(i, i + 20);
    const a = analyze({ texts: batch, types: [...ENRICHMENT_TYPES], provider });
    const b = analyze({ texts: batch, types: ['topics'], provider, categories: { topic: CATEGORIES } });
    for (let k = 0; k < batch.length; k++) {
      const line = JSON.stringify([provider, a[k], b[k]!.topics]);
      outputs.update(line).update('\n');
      const fc = new FeatureCache(tokenize(batch[k]!));
      const s = predictSentiment(sa, fc);
      const c = fc.tokens.length ? complaintLogit(cd, fc, s.probs) : 0;
      const inner = JSON.stringify([s.probs, c]);
      internals.update(inner).update('\n');
      if (dump) lines.push(`${line} ${inner}`);
    }
  }
}
// long documents (full papers): the keyword extractor's long-document settings, the opening cut
const long = createHash('sha256');
const papers = readJsonl('keyphrases/nguyen2007.jsonl').filter((_, i) => i % 4 === 0);
for (const provider of PROVIDERS)
  for (const r of papers) {
    const line = JSON.stringify(analyze({ texts: [String(r.text)], types: [...ENRICHMENT_TYPES], provider }));
    long.update(line).update('\n');
    if (dump) lines.push(line);
  }
const secs = (performance.now() - t0) / 1000;
console.log(`${all.length} texts × ${PROVIDERS.length} providers in ${secs.toFixed(1)} s`);
console.log(`outputs   ${outputs.digest('hex')}`);
console.log(`internals ${internals.digest('hex')}`);
console.log(`long      ${long.digest('hex')} (${papers.length} papers)`);
if (dump) writeFileSync(dump, `${lines.join('\n')}\n`);
