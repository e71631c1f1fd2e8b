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

/** what a feature hash stands for: 0 word unigram, 1 word bigram, n ≥ 2 character n-gram of length n */
export const KIND_UNIGRAM = 0;
export const KIND_BIGRAM = 1;

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

const HASH_START = hashString('<s>');
const HASH_END = hashString('</s>');

/** the hash of the token before the first one and after the last one, for bigrams */
export const BIGRAM_START = HASH_START;
export const BIGRAM_END = HASH_END;

/** the feature hash of a word unigram, from hashString(token) */
export const unigramHash = (h: number): number => fmix(h);

/** the feature hash of the bigram (previous token, token), from their hashString values */
export const bigramHash = (prev: number, h: number): number => fmix(Math.imul(prev, 31) ^ h ^ SEED_BIGRAM);

/** Appends the hashed feature indices of `tokens` to `out` (repeats count as counts). */
export function extractFeatures(tokens: readonly string[], spec: FeatureSpec, out: number[]): void {
  const start = out.length;
  extractHashes(tokens, spec, out);
  const m = (1 << spec.bits) - 1;
  for (let i = start; i < out.length; i++) out[i] = out[i]! & m;
}

/** The full 32-bit feature hashes; a model of any size takes the low `bits` of each. With `kinds`,
 *  the kind of each hash (KIND_UNIGRAM, KIND_BIGRAM or the n-gram length) is appended there. */
export function extractHashes(
  tokens: readonly string[],
  spec: Omit<FeatureSpec, 'bits'>,
  out: number[],
  kinds?: number[],
): void {
  let prev = HASH_START;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    const h = hashString(tok);
    out.push(fmix(h));
    kinds?.push(KIND_UNIGRAM);
    if (spec.bigrams) {
      out.push(bigramHash(prev, h));
      kinds?.push(KIND_BIGRAM);
    }
    prev = h;
    tokenCharNgrams(tok, spec.charMin, spec.charMax, out, kinds);
  }
  if (spec.bigrams && tokens.length > 0) {
    out.push(bigramHash(prev, HASH_END));
    kinds?.push(KIND_BIGRAM);
  }
}

/** Appends the character n-gram hashes of one token (lengths min..max; none when max is 0), and
 *  their kinds (the n-gram length) when asked. They depend on the token alone. */
export function tokenCharNgrams(
  tok: string,
  min: number,
  max: number,
  out: number[],
  kinds?: number[],
): void {
  // character n-grams only for words: for emoji (surrogate pairs sharing their first unit),
  // emoticons and markers they would only add noise
  if (max > 0 && tok.length > 1 && WORD_START_RE.test(tok))
    charNgrams(tok, tok.startsWith('NEG_') ? 4 : 0, min, max, out, kinds);
}

// n-grams of ' word ' (with boundary marks; the word is tok[from..]), hashed incrementally so
// each start costs one pass
function charNgrams(
  tok: string,
  from: number,
  min: number,
  max: number,
  out: number[],
  kinds?: number[],
): void {
  const n = tok.length - from + 2;
  for (let i = 0; i < n; i++) {
    let h = SEED_CHAR;
    for (let j = i; j < n && j - i < max; j++) {
      const c = j === 0 || j === n - 1 ? 32 : tok.charCodeAt(from + j - 1);
      h = Math.imul(h ^ c, FNV_PRIME);
      if (j - i + 1 >= min) {
        out.push(fmix(h));
        kinds?.push(j - i + 1);
      }
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

/** The widest extraction any shipped model reads; narrower specs are filtered from it by kind. */
export const FULL_SPEC: Omit<FeatureSpec, 'bits'> = { bigrams: true, charMin: 2, charMax: 5 };

const covers = (spec: Omit<FeatureSpec, 'bits'>): boolean =>
  (!spec.bigrams || FULL_SPEC.bigrams) &&
  (spec.charMax === 0 || (spec.charMin >= FULL_SPEC.charMin && spec.charMax <= FULL_SPEC.charMax));

/** a spec's key in FeatureCache's per-spec memo */
const specKey = ({ bigrams, charMin, charMax }: Omit<FeatureSpec, 'bits'>) =>
  `${bigrams}/${charMin}/${charMax}`;

/** word unigrams and bigrams alone (the intent models' spec), which the fused sums hand over */
export const WORD_NGRAMS: Omit<FeatureSpec, 'bits'> = { bigrams: true, charMin: 0, charMax: 0 };
const WORD_NGRAMS_KEY = specKey(WORD_NGRAMS);

/** Per-text memo of feature hashes: the text is hashed once (FULL_SPEC, with the kind of each
 *  hash) and every model reads what its spec selects from that one pass. */
export class FeatureCache {
  private full: number[] | undefined;
  private fullKinds: number[] | undefined;
  private byKey: Map<string, number[]> | undefined;
  /** per-text results of the models that read this text (see fused.ts): one slot, then a map */
  private memoKey: object | undefined;
  private memoValue: unknown;
  private memoMore: Map<object, unknown> | undefined;
  /** the summed positive and negative lexicon valence of the tokens (lexicon.ts), when lexRead:
   *  the fused sums (fused.ts) add them up from their per-token memo as they read the tokens */
  lexRead = false;
  lexPos = 0;
  lexNeg = 0;
  /** the shipped word vectors' row of each token (-1: none), when the fused sums read the tokens
   *  (they keep it per token with the token's sums, see fused.ts); the intent inputs read it */
  vectorRows: number[] | undefined;
  constructor(readonly tokens: readonly string[]) {}

  /** what was remembered for `key` on this text (undefined: nothing) */
  recall(key: object): unknown {
    if (key === this.memoKey) return this.memoValue;
    return this.memoMore?.get(key);
  }

  remember(key: object, value: unknown): void {
    if (this.memoKey === undefined || this.memoKey === key) {
      this.memoKey = key;
      this.memoValue = value;
    } else {
      this.memoMore ??= new Map();
      this.memoMore.set(key, value);
    }
  }

  /** whether the word unigram and bigram hashes (WORD_NGRAMS) are still to be found */
  wantsWordNgrams(): boolean {
    return this.byKey?.get(WORD_NGRAMS_KEY) === undefined;
  }

  /** the hashes extractHashes gives for WORD_NGRAMS, found by a caller that computed them anyway */
  setWordNgrams(h: number[]): void {
    this.byKey ??= new Map();
    this.byKey.set(WORD_NGRAMS_KEY, h);
  }

  /** the full-spec hashes and their kinds (shared arrays: do not modify) */
  all(): { hashes: readonly number[]; kinds: readonly number[] } {
    if (!this.full) {
      this.full = [];
      this.fullKinds = [];
      extractHashes(this.tokens, FULL_SPEC, this.full, this.fullKinds);
    }
    return { hashes: this.full, kinds: this.fullKinds! };
  }

  /** the 32-bit hashes a spec selects (a shared array: do not modify) */
  hashes(spec: Omit<FeatureSpec, 'bits'>): readonly number[] {
    const { bigrams, charMin, charMax } = spec;
    if (bigrams === FULL_SPEC.bigrams && charMin === FULL_SPEC.charMin && charMax === FULL_SPEC.charMax)
      return this.all().hashes;
    const key = specKey(spec);
    this.byKey ??= new Map();
    let h = this.byKey.get(key);
    if (!h) {
      h = [];
      if (charMax === 0) {
        // word n-grams only: the same hashes in the same order as filtering the full pass, without
        // hashing every character n-gram of the text
        extractHashes(this.tokens, spec, h);
      } else if (covers(spec)) {
        const { hashes, kinds } = this.all();
        for (let i = 0; i < hashes.length; i++) {
          const k = kinds[i]!;
          if (
            k === KIND_UNIGRAM ||
            (k === KIND_BIGRAM && bigrams) ||
            (k >= 2 && charMax > 0 && k >= charMin && k <= charMax)
          )
            h.push(hashes[i]!);
        }
      } else {
        extractHashes(this.tokens, spec, h);
      }
      this.byKey.set(key, h);
    }
    return h;
  }

  /** feature indices of `spec` (a fresh array the caller may keep) */
  indices(spec: FeatureSpec): number[] {
    const h = this.hashes(spec);
    const m = (1 << spec.bits) - 1;
    const out = new Array<number>(h.length);
    for (let i = 0; i < h.length; i++) out[i] = h[i]! & m;
    return out;
  }
}
