// Credentials must never reach a log line or an error message. Two layers: the values the
// backends were configured with (known secrets, replaced wherever they appear, even inside an
// upstream's echo of our request), and anything that looks like a credential by its name
// (query parameters, headers, JSON fields), for secrets we were not told about.

const MASK = '[redacted]';

/** query parameter and JSON field names whose values are credentials */
const SECRET_NAME =
  /^(key|api_?key|apikey|token|access_?token|refresh_?token|access_?jwt|refresh_?jwt|client_?secret|client_?key|secret|password|sig|signature|auth|authorization|code|session|sessionid|cookie)$/i;

/** header names whose values are credentials */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-rapidapi-key',
  'cookie',
  'set-cookie',
  'x-goog-api-key',
  'x-access-token',
]);

export class Redactor {
  readonly #secrets: string[];

  constructor(secrets: ReadonlyArray<string | undefined> = []) {
    // longest first so that a secret containing another is masked whole
    this.#secrets = [
      ...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4)),
    ].sort((a, b) => b.length - a.length);
  }

  /** a new redactor that also masks these values (e.g. an OAuth token obtained at run time) */
  add(...secrets: Array<string | undefined>): void {
    for (const s of secrets) {
      if (typeof s === 'string' && s.length >= 4 && !this.#secrets.includes(s)) this.#secrets.push(s);
    }
    this.#secrets.sort((a, b) => b.length - a.length);
  }

  /** masks known secret values and credential-named query parameters in free text (URLs, bodies) */
  text(input: string): string {
    let out = input;
    for (const s of this.#secrets) {
      out = out.split(s).join(MASK);
      const enc = encodeURIComponent(s);
      if (enc !== s) out = out.split(enc).join(MASK);
    }
    // name=value pairs in query strings and form bodies
    out = out.replace(
      /([?&;\s]|^)([A-Za-z_][\w.-]*)=([^&#\s"']*)/g,
      (m, pre: string, name: string, _v: string) => (SECRET_NAME.test(name) ? `${pre}${name}=${MASK}` : m),
    );
    // "access_token": "..." style JSON fields
    out = out.replace(/"([A-Za-z_][\w-]*)"\s*:\s*"[^"]*"/g, (m, name: string) =>
      SECRET_NAME.test(name) ? `"${name}":"${MASK}"` : m,
    );
    // Bearer tokens in any text
    out = out.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${MASK}`);
    return out;
  }

  /** a URL with credential query parameters masked */
  url(url: string | URL): string {
    return this.text(String(url));
  }

  /** headers with credential headers masked, for debug logs */
  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? MASK : this.text(v);
    }
    return out;
  }
}
