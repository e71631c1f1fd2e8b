// YAKE (Campos et al. 2020), the unsupervised keyword extractor the field compares with, written
// from the paper for `npm run eval` (reference only, not shipped): its default settings, n-grams up
// to 3 words, a co-occurrence window of 1, deduplication of candidates whose character similarity
// exceeds 0.9, English stopwords at neither end of a candidate.
import { STOPWORDS } from '../../src/enrichment/keywords/lexicon.js';

const SENTENCE = /(?<=[.!?])\s+(?=[A-Z0-9"'(])|\n\s*\n/;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*|[^\s\p{L}\p{N}]/gu;
const PUNCT = /^[^\p{L}\p{N}]$/u;

interface Stat {
  tf: number;
  upper: number;
  acronym: number;
  sents: number[];
  left: Map<string, number>;
  right: Map<string, number>;
}

function similarity(a: string, b: string): number {
  // 1 - Levenshtein distance / longer length
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) return 0;
  let prev = Array.from({ length: n + 1 }, (_x, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return 1 - prev[n]! / Math.max(m, n);
}

export function yake(text: string, top = 10, maxN = 3, window = 1): string[] {
  const sentences = text
    .split(SENTENCE)
    .map((s) => s.match(WORD) ?? [])
    .filter((s) => s.length > 0);
  const stats = new Map<string, Stat>();
  // chunks: runs of words between punctuation, per sentence
  const chunks: { words: string[]; raw: string[] }[] = [];
  sentences.forEach((toks, si) => {
    let chunk: { words: string[]; raw: string[] } = { words: [], raw: [] };
    const flush = () => {
      if (chunk.words.length) chunks.push(chunk);
      chunk = { words: [], raw: [] };
    };
    let prevWords: string[] = [];
    toks.forEach((raw, ti) => {
      if (PUNCT.test(raw)) {
        flush();
        prevWords = [];
        return;
      }
      const w = raw.toLowerCase();
      chunk.words.push(w);
      chunk.raw.push(raw);
      if (STOPWORDS.has(w) || /^\p{N}/u.test(w) || w.length < 3) {
        prevWords.push(w);
        return;
      }
      let s = stats.get(w);
      if (!s) {
        s = { tf: 0, upper: 0, acronym: 0, sents: [], left: new Map(), right: new Map() };
        stats.set(w, s);
      }
      s.tf++;
      if (raw.length > 1 && raw === raw.toUpperCase() && /\p{L}/u.test(raw)) s.acronym++;
      else if (ti > 0 && /^\p{Lu}/u.test(raw)) s.upper++;
      s.sents.push(si);
      for (const l of prevWords.slice(-window)) {
        s.left.set(l, (s.left.get(l) ?? 0) + 1);
        const ls = stats.get(l);
        if (ls) ls.right.set(w, (ls.right.get(w) ?? 0) + 1);
      }
      prevWords.push(w);
    });
    flush();
  });
  if (stats.size === 0) return [];
  const tfs = [...stats.values()].map((s) => s.tf);
  const mean = tfs.reduce((a, b) => a + b, 0) / tfs.length;
  const sd = Math.sqrt(tfs.reduce((a, b) => a + (b - mean) ** 2, 0) / tfs.length);
  const maxTf = Math.max(...tfs);
  const nSent = sentences.length;
  const score = new Map<string, number>();
  for (const [w, s] of stats) {
    const tCase = Math.max(s.upper, s.acronym) / (1 + Math.log(s.tf));
    const sorted = [...s.sents].sort((a, b) => a - b);
    const tPos = Math.log(Math.log(3 + sorted[sorted.length >> 1]!));
    const tfNorm = s.tf / (mean + sd);
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    const dl = s.left.size ? s.left.size / sum(s.left) : 0;
    const dr = s.right.size ? s.right.size / sum(s.right) : 0;
    const tRel = 1 + (dl + dr) * (s.tf / maxTf);
    const tSent = new Set(s.sents).size / nSent;
    score.set(w, (tRel * tPos) / (tCase + tfNorm / tRel + tSent / tRel));
  }
  const cands = new Map<string, { tf: number; words: string[]; surface: string }>();
  for (const c of chunks)
    for (let i = 0; i < c.words.length; i++)
      for (let n = 1; n <= maxN && i + n <= c.words.length; n++) {
        const words = c.words.slice(i, i + n);
        const first = words[0]!;
        const last = words[n - 1]!;
        if (!score.has(first) || !score.has(last)) continue;
        const key = words.join(' ');
        const e = cands.get(key);
        if (e) e.tf++;
        else cands.set(key, { tf: 1, words, surface: c.raw.slice(i, i + n).join(' ') });
      }
  const ranked = [...cands.entries()].map(([key, c]) => {
    let prod = 1;
    let sum = 0;
    for (const w of c.words) {
      const s = score.get(w);
      if (s === undefined) continue;
      prod *= s;
      sum += s;
    }
    return { key, surface: c.surface, s: prod / (c.tf * (1 + sum)) };
  });
  ranked.sort((a, b) => a.s - b.s || (a.key < b.key ? -1 : 1));
  const out: string[] = [];
  for (const r of ranked) {
    if (out.some((o) => similarity(o.toLowerCase(), r.key) > 0.9)) continue;
    out.push(r.surface);
    if (out.length >= top) break;
  }
  return out;
}
