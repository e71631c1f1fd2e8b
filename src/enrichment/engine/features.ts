// Hashed sparse features for the linear models: word unigrams, word bigrams and character
// n-grams of each word, folded into a 2^bits space. Hashing keeps the shipped file small and
// needs no vocabulary; Math.imul keeps every hash exact 32-bit integer arithmetic, so a feature
// index is the same on every machine.

export interface FeatureSpec {
  /** log2 of the feature space */
  bits: number;
  /** word bigrams on top of unigrams */
  bigrams: boolean;
  /** character n-grams of each word, lengths charMin..charMax (0 = none) */
  charMin: number;
  charMax: number;
}

const WORD_START_RE = /^(?:NEG_)?[\p{L}\p{N}#]/u;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 16777619;
const SEED_BIGRAM = 0x9e3779b1;
const SEED_CHAR = 0x85ebca6b;

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function hashString(s: string, seed = FNV_OFFSET): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h >>> 0;
}

/** Appends the hashed feature indices of `tokens` to `out` (repeats count as counts). */
export function extractFeatures(tokens: readonly string[], spec: FeatureSpec, out: number[]): void {
  const start = out.length;
  extractHashes(tokens, spec, out);
  const m = (1 << spec.bits) - 1;
  for (let i = start; i < out.length; i++) out[i] = out[i]! & m;
}

/** The full 32-bit feature hashes; a model of any size takes the low `bits` of each. */
export function extractHashes(
  tokens: readonly string[],
  spec: Omit<FeatureSpec, 'bits'>,
  out: number[],
): void {
  let prev = hashString('<s>');
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    const h = hashString(tok);
    out.push(fmix(h));
    if (spec.bigrams) out.push(fmix(Math.imul(prev, 31) ^ h ^ SEED_BIGRAM));
    prev = h;
    // character n-grams only for words: for emoji (surrogate pairs sharing their first unit),
    // emoticons and markers they would only add noise
    if (spec.charMax > 0 && tok.length > 1 && WORD_START_RE.test(tok)) {
      const w = tok.startsWith('NEG_') ? tok.slice(4) : tok;
      charNgrams(w, spec.charMin, spec.charMax, out);
    }
  }
  if (spec.bigrams && tokens.length > 0)
    out.push(fmix(Math.imul(prev, 31) ^ hashString('</s>') ^ SEED_BIGRAM));
}

// n-grams of ' word ' (with boundary marks), hashed incrementally so each start costs one pass
function charNgrams(w: string, min: number, max: number, out: number[]): void {
  const n = w.length + 2;
  for (let i = 0; i < n; i++) {
    let h = SEED_CHAR;
    for (let j = i; j < n && j - i < max; j++) {
      const c = j === 0 || j === n - 1 ? 32 : w.charCodeAt(j - 1);
      h = Math.imul(h ^ c, FNV_PRIME);
      if (j - i + 1 >= min) out.push(fmix(h));
    }
  }
}

/** The domain-specific twin of a feature index ("frustratingly easy" domain adaptation): a model
 *  learns shared weights plus per-domain corrections in the same table. */
export function domainCopy(f: number, domain: number, bits: number): number {
  let h = Math.imul(f ^ Math.imul(domain + 1, 0x27d4eb2d), 0x165667b1);
  h ^= h >>> 15;
  return (h >>> 0) & ((1 << bits) - 1);
}

/** Per-text memo of feature hashes by extraction settings, so models that read the same n-grams
 *  (the sentiment member and the complaint model) hash the text once. */
export class FeatureCache {
  private readonly byKey = new Map<string, number[]>();
  constructor(readonly tokens: readonly string[]) {}

  /** feature indices of `spec` (a fresh array the caller may keep) */
  indices(spec: FeatureSpec): number[] {
    const key = `${spec.bigrams}/${spec.charMin}/${spec.charMax}`;
    let h = this.byKey.get(key);
    if (!h) {
      h = [];
      extractHashes(this.tokens, spec, h);
      this.byKey.set(key, h);
    }
    const m = (1 << spec.bits) - 1;
    const out = new Array<number>(h.length);
    for (let i = 0; i < h.length; i++) out[i] = h[i]! & m;
    return out;
  }
}
