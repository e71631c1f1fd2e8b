// JSON of immutable values, encoded once. A source whose items do not change for a while (the
// sandbox's posts within a day) marks each item `reusable`: the item is deep-frozen and the UTF-8
// bytes of its JSON kept beside it, and `JsonBytes` copies those bytes into a reply instead of
// serializing the item again. For any value, `new JsonBytes().value(v).bytes()` is exactly the
// UTF-8 bytes of `JSON.stringify(v)`. A reply written as bytes is not encoded again on every send:
// captions with emoji make the text a two-byte string, whose UTF-8 encoding costs more than the
// rest of the rendering. A value whose JSON text its holder computed anyway (an enrichment result,
// written to the enrichment cache as text) can be marked `knownJson`: that text is copied into a
// reply instead of serializing the value a second time.

/** the kept JSON of a value: UTF-8 bytes (reusable) or text (knownJson) */
const bytes = new WeakMap<object, Buffer | string>();

function deepFreeze(v: unknown): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  Object.freeze(v);
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
}

/** freezes `value` (deeply: later mutation throws) and keeps the UTF-8 bytes of its JSON */
export function reusable<T extends object>(value: T): T {
  deepFreeze(value);
  bytes.set(value, Buffer.from(JSON.stringify(value), 'utf8'));
  return value;
}

/** Freezes `value` (deeply: a later change throws instead of going unseen) and records `text`,
 *  which must be JSON.stringify(value), as its JSON. */
export function knownJson<T extends object>(value: T, text: string): T {
  deepFreeze(value);
  bytes.set(value, text);
  return value;
}

/** The bytes of an array made only of reusable values, `[a,b,…]`, kept for the last array seen
 *  starting with the same value (at most MAX_ARRAYS of them): a page of items is asked for again
 *  and again, and is then one piece to copy instead of one per item. Null when some element is
 *  not reusable. */
const arrays = new Map<object, { items: readonly unknown[]; bytes: Buffer }>();
/** pages kept at most (about 3 KB each for 10 posts) */
const MAX_ARRAYS = 1000;
function keptArray(v: readonly unknown[]): Buffer | null {
  const first = v[0];
  if (v.length < 2 || typeof first !== 'object' || first === null) return null;
  const hit = arrays.get(first);
  if (hit !== undefined && hit.items.length === v.length && hit.items.every((x, i) => x === v[i]))
    return hit.bytes;
  const parts: Buffer[] = [];
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    const b = typeof x === 'object' && x !== null ? bytes.get(x) : undefined;
    if (b === undefined || typeof b === 'string') return null;
    parts.push(i === 0 ? OPEN : COMMA, b);
  }
  parts.push(CLOSE);
  const joined = Buffer.concat(parts);
  if (arrays.size >= MAX_ARRAYS) arrays.clear();
  arrays.set(first, { items: [...v], bytes: joined });
  return joined;
}
const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** the JSON text of object keys, which are few and the same on every reply */
const keyTexts = new Map<string, string>();
function keyText(k: string): string {
  let t = keyTexts.get(k);
  if (t === undefined) {
    t = `${JSON.stringify(k)}:`;
    if (keyTexts.size < 10_000) keyTexts.set(k, t);
  }
  return t;
}

/** JSON.stringify of a value that is not an object */
function scalarText(v: unknown): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return JSON.stringify(v) ?? '';
}

/** JSON written as UTF-8 bytes piece by piece: raw text, values (reusable ones copied from their
 *  kept bytes), then one buffer holding it all */
export class JsonBytes {
  private readonly pieces: Array<string | Buffer> = [];
  private pending = '';

  /** text that is already JSON */
  raw(text: string): this {
    this.pending += text;
    return this;
  }

  /** JSON.stringify(v), reusing kept bytes within the first `depth` levels */
  value(v: unknown, depth = 4): this {
    if (typeof v === 'object' && v !== null) {
      const kept = bytes.get(v);
      if (kept !== undefined) {
        if (typeof kept !== 'string') return this.bytesPiece(kept);
        this.pending += kept;
        return this;
      }
      if (depth > 0 && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
        if (Array.isArray(v)) {
          const run = keptArray(v);
          if (run !== null) return this.bytesPiece(run);
          this.pending += '[';
          for (let i = 0; i < v.length; i++) {
            const x: unknown = v[i];
            if (i > 0) this.pending += ',';
            if (typeof x === 'undefined' || typeof x === 'function' || typeof x === 'symbol')
              this.pending += 'null';
            else this.value(x, depth - 1);
          }
          this.pending += ']';
          return this;
        }
        this.pending += '{';
        let first = true;
        for (const k of Object.keys(v)) {
          const x: unknown = (v as Record<string, unknown>)[k];
          if (typeof x === 'undefined' || typeof x === 'function' || typeof x === 'symbol') continue;
          if (!first) this.pending += ',';
          this.pending += keyText(k);
          first = false;
          this.value(x, depth - 1);
        }
        this.pending += '}';
        return this;
      }
      this.pending += JSON.stringify(v);
      return this;
    }
    this.pending += scalarText(v);
    return this;
  }

  private bytesPiece(b: Buffer): this {
    if (this.pending !== '') this.pieces.push(this.pending);
    this.pending = '';
    this.pieces.push(b);
    return this;
  }

  bytes(): Buffer {
    const { pieces, pending } = this;
    if (pieces.length === 0) return Buffer.from(pending, 'utf8');
    if (pending !== '') pieces.push(pending);
    // a UTF-16 code unit takes at most 3 bytes of UTF-8
    let capacity = 0;
    for (const p of pieces) capacity += typeof p === 'string' ? p.length * 3 : p.length;
    const out = Buffer.allocUnsafe(capacity);
    let at = 0;
    for (const p of pieces) {
      if (typeof p !== 'string') {
        out.set(p, at);
        at += p.length;
      } else if (p.length <= 16) {
        // short joints between items (",", "]}"): plain ASCII as a rule, written byte by byte
        let ascii = true;
        for (let i = 0; i < p.length; i++) if (p.charCodeAt(i) > 0x7f) ascii = false;
        if (ascii) for (let i = 0; i < p.length; i++) out[at++] = p.charCodeAt(i);
        else at += out.write(p, at, 'utf8');
      } else at += out.write(p, at, 'utf8');
    }
    return out.subarray(0, at);
  }
}
