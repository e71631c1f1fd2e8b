// Seeded randomness for the world generator. Everything here uses integer arithmetic, IEEE
// +, -, *, / and sqrt only (all correctly rounded), never Math.log/exp/pow/cos, whose last bits
// may differ between V8 builds: the world must be bit-identical on every machine.

/** 32-bit FNV-1a of a string, used to derive independent streams from labels */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const LN2 = Math.LN2;

/** natural logarithm from basic arithmetic (x > 0) */
export function detLn(x: number): number {
  if (!(x > 0)) throw new RangeError(`detLn(${x})`);
  let e = 0;
  let m = x;
  while (m >= 2) {
    m /= 2;
    e++;
  }
  while (m < 1) {
    m *= 2;
    e--;
  }
  // ln(m) = 2 atanh(z), z = (m-1)/(m+1) in [0, 1/3)
  const z = (m - 1) / (m + 1);
  const z2 = z * z;
  let term = z;
  let sum = 0;
  for (let k = 1; k < 60; k += 2) {
    sum += term / k;
    term *= z2;
    if (term < 1e-18) break;
  }
  return 2 * sum + e * LN2;
}

/** e^x from basic arithmetic */
export function detExp(x: number): number {
  if (x > 700) return Number.POSITIVE_INFINITY;
  if (x < -700) return 0;
  const k = Math.round(x / LN2);
  const r = x - k * LN2;
  let term = 1;
  let sum = 1;
  for (let i = 1; i < 30; i++) {
    term *= r / i;
    sum += term;
    if (Math.abs(term) < 1e-18) break;
  }
  let scale = 1;
  if (k >= 0) for (let i = 0; i < k; i++) scale *= 2;
  else for (let i = 0; i < -k; i++) scale /= 2;
  return sum * scale;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | undefined;

  /** sfc32 seeded from a label, so streams for different purposes are independent */
  constructor(label: string, seed = 0x5eed_2024) {
    this.a = hash32(`a:${label}`) ^ seed;
    this.b = hash32(`b:${label}`);
    this.c = hash32(`c:${label}`);
    this.d = 1;
    for (let i = 0; i < 15; i++) this.u32();
  }

  fork(label: string): Rng {
    return new Rng(`${label}:${this.u32()}`);
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** uniform in [0, 1) */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** integer in [lo, hi] */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(arr: readonly T[]): T {
    if (arr.length === 0) throw new Error('pick from empty list');
    return arr[Math.floor(this.next() * arr.length)] as T;
  }

  /** index drawn with Zipf-like weights 1/(i+1)^~1: early entries are popular */
  zipfIndex(n: number, s = 1): number {
    // inverse transform on a precomputed-free approximation: sample continuous then floor
    const u = this.next();
    if (s === 1) return Math.min(n - 1, Math.floor(detExp(u * detLn(n + 1))) - 1);
    return Math.min(n - 1, Math.floor(n * u * u));
  }

  pickZipf<T>(arr: readonly T[]): T {
    return arr[this.zipfIndex(arr.length)] as T;
  }

  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let x = this.next() * total;
    for (const [v, w] of entries) {
      x -= w;
      if (x < 0) return v;
    }
    return (entries[entries.length - 1] as readonly [T, number])[0];
  }

  /** standard normal (Marsaglia polar method) */
  normal(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    for (;;) {
      const u = this.next() * 2 - 1;
      const v = this.next() * 2 - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) {
        const f = Math.sqrt((-2 * detLn(s)) / s);
        this.spare = v * f;
        return u * f;
      }
    }
  }

  /** log-normal with the given median and log-space sigma */
  logNormal(median: number, sigma: number): number {
    return median * detExp(sigma * this.normal());
  }

  /** Pareto with scale xm and shape alpha (heavy right tail) */
  pareto(xm: number, alpha: number): number {
    const u = 1 - this.next();
    return xm * detExp(-detLn(u) / alpha);
  }

  /** k distinct elements in random order */
  sample<T>(arr: readonly T[], k: number): T[] {
    const copy = arr.slice();
    const out: T[] = [];
    for (let i = 0; i < k && copy.length > 0; i++) {
      const j = Math.floor(this.next() * copy.length);
      out.push(copy[j] as T);
      copy.splice(j, 1);
    }
    return out;
  }

  chars(alphabet: string, n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
}
