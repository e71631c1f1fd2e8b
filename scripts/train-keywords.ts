// Builds models/keywords-rarity.tsv: a term-rarity (IDF) table for the keyword extractor and the
// word list that the hashtag splitter uses. Source: the training splits of the shared social
// corpora (TweetEval sentiment train, GoEmotions train, complaints). Validation/evaluation files
// (TweetEval val, GoEmotions dev, TweetTopic, Inspec, SemEval suggestions) are deliberately not read.
//
//   npx tsx scripts/train-keywords.ts [--data ../shared/data] [--out models/keywords-rarity.tsv]
//
// Output: a header line `#keywords-rarity v1 docs=N default=Q`, then `term<TAB>Q` lines sorted by
// term, where Q = round(10 * ln(N / df)) (a 0.1-nat quantized IDF). Terms seen in fewer than
// MIN_DF documents are dropped (typos, names, noise) and get the default (rarest) value at run time.
import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MODELS_DIR } from '../src/paths.js';

const MIN_DF = 2;
const MAX_TERMS = 80_000;
const SOURCES = [
  'sentiment/tweeteval-train.jsonl',
  'sentiment/goemotions-train.jsonl',
  'complaints/train.jsonl',
];

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const dataDir = arg('--data', join(MODELS_DIR, '..', '..', 'shared', 'data'));
const out = arg('--out', join(MODELS_DIR, 'keywords-rarity.tsv'));

// same word shape as the extractor's tokenizer: letters/digits with inner apostrophes or hyphens
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

async function main(): Promise<void> {
  const df = new Map<string, number>();
  let docs = 0;
  for (const rel of SOURCES) {
    const rl = createInterface({ input: createReadStream(join(dataDir, rel), 'utf8'), crlfDelay: Infinity });
    for await (const line of rl) {
      if (!line.trim()) continue;
      const rec = JSON.parse(line) as { text?: string };
      if (typeof rec.text !== 'string') continue;
      const text = rec.text
        .replace(/\\u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
        .replace(/https?:\/\/\S+/g, ' ')
        .replace(/[@#]\w+/g, ' ') // handles; hashtags are compounds, not dictionary words
        .replace(/\[NAME\]|\[RELIGION\]/g, ' ');
      docs++;
      const seen = new Set<string>();
      for (const m of text.toLowerCase().matchAll(WORD)) {
        const w = m[0].replace(/’/g, "'");
        if (w.length > 30 || /^\d+$/.test(w)) continue;
        seen.add(w);
      }
      for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
    }
  }
  const kept = [...df].filter(([, n]) => n >= MIN_DF);
  kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const top = kept.slice(0, MAX_TERMS).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const q = (n: number) => Math.round(10 * Math.log(docs / n));
  const lines = [`#keywords-rarity v1 docs=${docs} default=${q(1)} source=scripts/train-keywords.ts`];
  for (const [w, n] of top) lines.push(`${w}\t${q(n)}`);
  writeFileSync(out, lines.join('\n') + '\n');
  console.log(`${docs} documents, ${df.size} distinct terms, ${top.length} kept (df >= ${MIN_DF}) -> ${out}`);
}

await main();
