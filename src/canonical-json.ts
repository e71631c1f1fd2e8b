/** deepest nesting written: request bodies are held to far less (json-body.ts), and a bound here
 *  keeps the recursion from ever reaching the end of the stack */
export const CANONICAL_JSON_MAX_DEPTH = 64;

export class JsonTooDeepError extends RangeError {
  override readonly name = 'JsonTooDeepError';
}

/** JSON with object keys sorted and undefined members left out: equal values give equal strings,
 *  whatever the order their keys were written in (idempotency fingerprints, cache keys). Throws
 *  JsonTooDeepError for a value nested deeper than CANONICAL_JSON_MAX_DEPTH. */
export function canonicalJson(v: unknown): string {
  return write(v, 0);
}

function write(v: unknown, depth: number): string {
  if (v && typeof v === 'object') {
    if (depth >= CANONICAL_JSON_MAX_DEPTH)
      throw new JsonTooDeepError(`nested more than ${CANONICAL_JSON_MAX_DEPTH} levels deep`);
    if (Array.isArray(v)) return `[${v.map((x) => write(x, depth + 1)).join(',')}]`;
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${write(o[k], depth + 1)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
