// The one parser of JSON request bodies (every route): the declared charset must be UTF-8, the
// bytes must be valid UTF-8, and the JSON must stay within a nesting depth and a number of values
// before it is parsed at all. Whatever a body holds, no later step (the validator, the
// Idempotency-Key fingerprint, a log line) meets a structure that could exhaust the stack or the
// memory of the process.
import type { IncomingHttpHeaders } from 'node:http';
import { MAX_BODY_DEPTH, MAX_BODY_VALUES } from '../contract/endpoints.js';
import { AppError, badRequest } from '../errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** the charset parameter of a Content-Type, lowercased and unquoted; undefined when none */
export function charsetOf(contentType: string): string | undefined {
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    return param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** what is wrong with the shape of a JSON text, without parsing it: too deep, too many values,
 *  or null. Malformed JSON is left to the parser. */
export function jsonShapeProblem(bytes: Uint8Array): 'depth' | 'values' | null {
  let depth = 0;
  let values = 1;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      // skip the string: to the next quote not escaped by an odd run of backslashes
      let at = i;
      for (;;) {
        const q = bytes.indexOf(QUOTE, at + 1);
        if (q < 0) return null;
        let slashes = 0;
        while (bytes[q - 1 - slashes] === BACKSLASH) slashes++;
        at = q;
        if (slashes % 2 === 0) break;
      }
      i = at;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > MAX_BODY_DEPTH) return 'depth';
      if (++values > MAX_BODY_VALUES) return 'values';
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
    else if (c === COMMA && ++values > MAX_BODY_VALUES) return 'values';
  }
  return null;
}

type Done = (err: Error | null, body?: unknown) => void;

/** The content-type parser of application/json, around Fastify's own JSON parser `parse`
 *  (app.getDefaultJsonParser). */
export function jsonBodyParser(parse: (req: never, body: string, done: Done) => void) {
  return (req: { headers: IncomingHttpHeaders }, body: Buffer, done: Done): void => {
    const type = req.headers['content-type'] ?? '';
    const charset = type === 'application/json' ? undefined : charsetOf(type);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(
        new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Content-Type charset must be UTF-8, not ${JSON.stringify(charset.slice(0, 40))}`,
        ),
      );
      return;
    }
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      done(badRequest('Request body is not valid UTF-8', [{ field: 'body', message: 'is not valid UTF-8' }]));
      return;
    }
    const problem = jsonShapeProblem(body);
    if (problem !== null) {
      const message =
        problem === 'depth'
          ? `nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep`
          : `holds more than ${MAX_BODY_VALUES} JSON values`;
      done(badRequest(`Request body ${message}`, [{ field: 'body', message }]));
      return;
    }
    parse(req as never, text, done);
  };
}
