// JSON helpers shared by the backends: a parser that keeps 64-bit integers exact, and shape
// checks that turn an upstream's schema drift into a SourceError instead of a crash or an
// invented value.
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { SourceError } from '../interface.js';

/** Integers with more digits than this may not survive a float64 (2^53 has 16 digits). */
const MAX_SAFE_DIGITS = 15;

/**
 * Parses JSON, turning every integer literal too long for a float64 into a string, so that
 * 64-bit ids such as 7321987654321098765 keep every digit. Node 20 has no JSON.parse source
 * access, so this quotes such literals in one pass over the raw text first, skipping string
 * contents (a digit run inside a caption stays untouched).
 */
export function parseJsonLossless(text: string): unknown {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (d === 34) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = i;
      if (c === 45) i++;
      while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
      const intEnd = i;
      let isInt = true;
      while (i < n && /[.eE+\-0-9]/.test(text[i] as string)) {
        isInt = false;
        i++;
      }
      const digits = intEnd - start - (c === 45 ? 1 : 0);
      if (isInt && digits > MAX_SAFE_DIGITS) {
        out += `${text.slice(last, start)}"${text.slice(start, intEnd)}"`;
        last = intEnd;
      }
      continue;
    }
    i++;
  }
  return JSON.parse(last === 0 ? text : out + text.slice(last));
}

/** JSON.parse that reports bad JSON as an upstream error naming the backend */
export function parseJson(text: string, backend: string, opts: { lossless?: boolean } = {}): unknown {
  try {
    return opts.lossless ? parseJsonLossless(text) : JSON.parse(text);
  } catch (cause) {
    throw new SourceError('upstream', `${backend} returned a response that is not valid JSON`, {
      backend,
      cause,
    });
  }
}

/**
 * Checks an upstream payload against the part of its documented shape a backend relies on.
 * A mismatch (a renamed or missing field, a changed type) is schema drift: an upstream error
 * that names the first offending path, never a half-filled item.
 */
export function expectShape<T extends TSchema>(
  schema: T,
  value: unknown,
  backend: string,
  what: string,
): import('@sinclair/typebox').Static<T> {
  if (Value.Check(schema, value)) return value;
  const first = Value.Errors(schema, value).First();
  const where = first ? `${first.path || '/'}: ${first.message}` : 'unexpected shape';
  throw new SourceError('upstream', `${backend} changed the shape of its ${what} response (${where})`, {
    backend,
  });
}

/** a string id from a JSON value that may be a string or (small) number */
export function idString(v: string | number): string {
  return typeof v === 'number' ? String(v) : v;
}

/** unix seconds (number or numeric string) → ISO 8601 UTC */
export function unixToIso(v: string | number): string {
  const n = typeof v === 'number' ? v : Number(v);
  const d = new Date(n * 1000);
  if (!Number.isFinite(n) || Number.isNaN(d.getTime())) {
    throw new SourceError(
      'upstream',
      `an upstream sent a time that is not a unix time: ${String(v).slice(0, 40)}`,
    );
  }
  return d.toISOString();
}
