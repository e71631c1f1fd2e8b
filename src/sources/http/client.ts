// The one HTTP layer every live backend goes through. Per backend it owns: a dispatcher (an
// injected one for tests, a ProxyAgent when an outbound proxy is configured, else a pooled
// Agent), a bulkhead (concurrency limit + short queue), a circuit breaker, and the retry loop.
//
// Layering of one call:  deadline ─ retry loop ─ bulkhead ─ circuit breaker ─ one attempt
// (per-attempt timeout). The bulkhead sits outside the breaker so an open breaker rejects
// without occupying a slot; the retry loop sits outside both so a backoff sleep holds no slot.
//
// Failures become SourceError values (see ../interface.ts); nothing here throws anything else.
import { AsyncLocalStorage } from 'node:async_hooks';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import {
  BrokenCircuitError,
  type BulkheadPolicy,
  BulkheadRejectedError,
  bulkhead,
  type CircuitBreakerPolicy,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  IsolatedCircuitError,
} from 'cockatiel';
import type { Logger } from 'pino';
import { Agent, type Dispatcher, ProxyAgent, request as undiciRequest } from 'undici';
import { SourceError } from '../interface.js';
import { parseJson } from './json.js';
import { Redactor } from './redact.js';

export interface HttpSettings {
  /** one attempt may take at most this long (connect + headers + body) */
  timeoutMs: number;
  /** a whole call, retries and backoff included, ends by this much after it started */
  deadlineMs: number;
  /** extra attempts after the first, for safe requests only */
  retries: number;
  /** concurrent upstream requests per backend */
  concurrency: number;
  /** requests that may wait for a slot; beyond that a call fails fast with `unavailable` */
  queue: number;
  /** consecutive failed attempts that open the circuit */
  breakerThreshold: number;
  /** how long an open circuit stays open before one probe is let through */
  breakerHalfOpenMs: number;
  /** first backoff delay; doubles per retry, with jitter, up to backoffMaxMs */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** outbound proxy, e.g. http://user:pass@proxy:3128 */
  proxyUrl?: string;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  timeoutMs: 10_000,
  deadlineMs: 25_000,
  retries: 2,
  concurrency: 8,
  queue: 64,
  breakerThreshold: 5,
  breakerHalfOpenMs: 30_000,
  backoffBaseMs: 250,
  backoffMaxMs: 4_000,
};

export interface HttpDeps {
  /** undici dispatcher to send through (tests inject a MockAgent) */
  dispatcher?: Dispatcher;
  logger?: Logger;
  /** jitter source, injectable for tests */
  random?: () => number;
}

export interface HttpRequest {
  /** short operation label for logs and errors, e.g. 'search.list' */
  op: string;
  method?: 'GET' | 'POST';
  url: string | URL;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** a POST that only reads (InnerTube, research queries) and is therefore safe to retry */
  idempotent?: boolean;
  /** the caller's signal (client gone, request deadline) */
  signal?: AbortSignal;
  /**
   * Backend-specific reading of a non-2xx response (or of a 2xx whose body carries an error),
   * consulted before the default mapping. Return undefined to fall through to the default.
   */
  classify?: (res: HttpResponse) => SourceError | undefined;
  /** quota units this call spends, for the log line */
  units?: number;
  /** called once per attempt actually sent (quota accounting: a retried call is billed again) */
  onAttempt?: () => void;
  /** non-2xx responses the backend reads itself (e.g. "comments disabled") instead of failing */
  accept?: (res: HttpResponse) => boolean;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

interface AttemptFailure {
  retryable: boolean;
  /** whether it says something about the upstream's health (feeds the circuit breaker) */
  countsForBreaker: boolean;
  retryAfterMs?: number;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/** network errors after which a request is known not to have reached the upstream */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

const decompressors: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** Per-call context carried across library code that calls our fetch (youtubei.js). */
export interface FetchScope {
  signal?: AbortSignal;
  op?: string;
  /** sees every successful response body sent back to the library (raw-JSON readers) */
  onResponse?: (url: string, text: string) => void;
}

export class HttpClient {
  readonly redact: Redactor;
  readonly #settings: HttpSettings;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #logger: Logger | undefined;
  readonly #random: () => number;
  readonly #breaker: CircuitBreakerPolicy;
  readonly #bulkhead: BulkheadPolicy;
  readonly #failures = new WeakMap<SourceError, AttemptFailure>();
  readonly #scope = new AsyncLocalStorage<FetchScope>();

  constructor(
    readonly backend: string,
    settings: Partial<HttpSettings>,
    deps: HttpDeps = {},
    secrets: ReadonlyArray<string | undefined> = [],
  ) {
    this.#settings = { ...DEFAULT_HTTP_SETTINGS, ...stripUndefined(settings) };
    const s = this.#settings;
    let proxyPassword: string | undefined;
    if (s.proxyUrl) {
      try {
        proxyPassword = decodeURIComponent(new URL(s.proxyUrl).password) || undefined;
      } catch {
        throw new Error(`UPSTREAM_PROXY_URL is not a valid URL`);
      }
    }
    this.redact = new Redactor([...secrets, proxyPassword]);
    if (deps.dispatcher) {
      this.#dispatcher = deps.dispatcher;
      this.#ownsDispatcher = false;
    } else {
      this.#dispatcher = s.proxyUrl
        ? new ProxyAgent({ uri: s.proxyUrl, connections: s.concurrency })
        : new Agent({ connections: s.concurrency, connect: { timeout: s.timeoutMs } });
      this.#ownsDispatcher = true;
    }
    this.#logger = deps.logger?.child({ backend });
    this.#random = deps.random ?? Math.random;
    this.#bulkhead = bulkhead(Math.max(1, s.concurrency), Math.max(0, s.queue));
    this.#breaker = circuitBreaker(
      handleWhen((e) => e instanceof SourceError && this.#failures.get(e)?.countsForBreaker === true),
      {
        halfOpenAfter: s.breakerHalfOpenMs,
        breaker: new ConsecutiveBreaker(Math.max(1, s.breakerThreshold)),
      },
    );
    this.#breaker.onStateChange((state) => {
      this.#logger?.warn({ breaker: String(state) }, `${backend} circuit breaker state changed`);
    });
  }

  get settings(): Readonly<HttpSettings> {
    return this.#settings;
  }

  /** Sends a request through the whole pipeline; resolves only with a successful response. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const method = req.method ?? 'GET';
    const safe = method === 'GET' || req.idempotent === true;
    const url = buildUrl(req.url, req.query);
    const started = Date.now();
    const deadline = started + this.#settings.deadlineMs;
    let attempt = 0;
    for (;;) {
      attempt++;
      if (req.signal?.aborted) throw this.#cancelled(req);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new SourceError(
          'timeout',
          `${this.backend} did not answer within the ${this.#settings.deadlineMs} ms deadline`,
          {
            backend: this.backend,
          },
        );
      }
      let error: SourceError;
      try {
        const res = await this.#bulkhead.execute(
          () => this.#breaker.execute(() => this.#attempt(req, method, url, safe, remaining, attempt)),
          req.signal,
        );
        this.#logger?.debug(
          {
            op: req.op,
            method,
            url: this.redact.url(url),
            status: res.status,
            attempt,
            ms: Date.now() - started,
            units: req.units,
          },
          'upstream call',
        );
        return res;
      } catch (e) {
        error = this.#toSourceError(e, req);
      }
      const failure = this.#failures.get(error);
      const canRetry =
        failure?.retryable === true && attempt <= this.#settings.retries && !req.signal?.aborted;
      const delay = failure?.retryAfterMs ?? this.#backoff(attempt);
      const logFields = {
        op: req.op,
        method,
        url: this.redact.url(url),
        attempt,
        kind: error.kind,
        error: error.message,
        ms: Date.now() - started,
        units: req.units,
      };
      if (!canRetry) {
        this.#logger?.warn(logFields, 'upstream call failed');
        throw error;
      }
      if (Date.now() + delay >= deadline) {
        // waiting as asked would pass our deadline: give up now, passing the wait on
        this.#logger?.warn(
          { ...logFields, retry_in_ms: delay },
          'upstream call failed; no time left to retry',
        );
        if (error.kind === 'throttled' || failure?.retryAfterMs !== undefined) {
          throw new SourceError(
            'throttled',
            `${this.backend} asked us to wait ${Math.ceil(delay / 1000)} s`,
            {
              backend: this.backend,
              retryAfterSeconds: Math.max(1, Math.ceil(delay / 1000)),
            },
          );
        }
        throw error;
      }
      this.#logger?.info({ ...logFields, retry_in_ms: delay }, 'upstream call failed; retrying');
      await sleep(delay, req.signal).catch(() => {
        throw this.#cancelled(req);
      });
    }
  }

  /** send + JSON parse; bad JSON is an upstream error */
  async json(req: HttpRequest, opts: { lossless?: boolean } = {}): Promise<unknown> {
    const res = await this.send(req);
    return parseJson(res.text, this.backend, opts);
  }

  /**
   * A WHATWG-fetch-compatible function that sends through this client, for libraries that
   * take a `fetch` (youtubei.js). Every request is treated as a safe read (InnerTube POSTs are
   * reads). The caller's signal and operation label come from runInScope().
   */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? request?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    let body: string | Uint8Array | undefined;
    const raw = init?.body ?? undefined;
    if (typeof raw === 'string') body = raw;
    else if (raw instanceof Uint8Array) body = raw;
    else if (raw instanceof ArrayBuffer) body = new Uint8Array(raw);
    else if (raw === undefined && request && method !== 'GET' && method !== 'HEAD')
      body = await request.text();
    else if (raw !== undefined && raw !== null) body = await new Response(raw as BodyInit).text();
    const scope = this.#scope.getStore();
    const res = await this.send({
      op: scope?.op ?? new URL(url).pathname,
      method: method === 'POST' ? 'POST' : 'GET',
      url,
      headers,
      body,
      idempotent: true,
      signal: scope?.signal ?? init?.signal ?? undefined,
    });
    scope?.onResponse?.(url, res.text);
    const nullBody = res.status === 204 || res.status === 304;
    const out = new Response(nullBody ? null : res.text, {
      status: res.status,
      headers: Object.entries(res.headers).filter(
        ([k]) => k !== 'content-encoding' && k !== 'content-length',
      ),
    });
    Object.defineProperty(out, 'url', { value: url });
    return out;
  };

  /** runs fn with a call scope visible to fetch() (AsyncLocalStorage survives library awaits) */
  runInScope<T>(scope: FetchScope, fn: () => Promise<T>): Promise<T> {
    return this.#scope.run(scope, fn);
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async #attempt(
    req: HttpRequest,
    method: 'GET' | 'POST',
    url: string,
    safe: boolean,
    remainingMs: number,
    attempt: number,
  ): Promise<HttpResponse> {
    const timeoutMs = Math.max(1, Math.min(this.#settings.timeoutMs, remainingMs));
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    let res: HttpResponse;
    req.onAttempt?.();
    try {
      const r = await undiciRequest(url, {
        method,
        headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br', ...req.headers },
        body: req.body,
        signal,
        dispatcher: this.#dispatcher,
      });
      const buf = Buffer.from(await r.body.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(r.headers)) {
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      }
      const enc = headers['content-encoding']?.trim().toLowerCase();
      const decode = enc ? decompressors[enc] : undefined;
      const text = (decode ? await decode(buf) : buf).toString('utf8');
      res = { status: r.statusCode, headers, text };
    } catch (e) {
      if (req.signal?.aborted) throw this.#cancelled(req);
      if (timeout.aborted) {
        throw this.#mark(
          new SourceError('timeout', `${this.backend} did not answer within ${timeoutMs} ms (${req.op})`, {
            backend: this.backend,
          }),
          { retryable: safe, countsForBreaker: true },
        );
      }
      const code = errorCode(e);
      throw this.#mark(
        new SourceError(
          'upstream',
          `could not reach ${this.backend} (${req.op}): ${code ?? 'connection failed'}`,
          {
            backend: this.backend,
            cause: e,
          },
        ),
        { retryable: safe || (code !== undefined && NOT_SENT_CODES.has(code)), countsForBreaker: true },
      );
    }
    if (req.accept?.(res)) return res;
    const custom = req.classify?.(res);
    if (custom) {
      // a backend that reads its upstream's own wait (a reset time) passes it on in the error
      const told = custom.options.retryAfterSeconds;
      const retryAfterMs =
        custom.kind === 'throttled'
          ? (parseRetryAfter(res.headers['retry-after']) ?? (told !== undefined ? told * 1000 : undefined))
          : undefined;
      throw this.#mark(this.#scrub(custom), {
        retryable: safe && (custom.kind === 'throttled' || RETRYABLE_STATUS.has(res.status)),
        countsForBreaker: res.status >= 500,
        retryAfterMs,
      });
    }
    if (res.status >= 200 && res.status < 300) return res;
    throw this.#mark(this.#statusError(req, res, attempt), {
      retryable: safe && RETRYABLE_STATUS.has(res.status),
      countsForBreaker: res.status >= 500,
      retryAfterMs: parseRetryAfter(res.headers['retry-after']),
    });
  }

  #statusError(req: HttpRequest, res: HttpResponse, _attempt: number): SourceError {
    const detail = this.upstreamMessage(res.text);
    const base = `${this.backend} ${req.op}: HTTP ${res.status}${detail ? ` (${detail})` : ''}`;
    const backend = this.backend;
    if (res.status === 404) return new SourceError('not_found', base, { backend });
    if (res.status === 429) {
      const ms = parseRetryAfter(res.headers['retry-after']);
      return new SourceError('throttled', base, {
        backend,
        ...(ms !== undefined ? { retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) } : {}),
      });
    }
    if (res.status === 401 || res.status === 403) {
      return new SourceError('upstream', `${base}: the upstream rejected our credentials or this use`, {
        backend,
      });
    }
    return new SourceError('upstream', base, { backend });
  }

  /** a short, redacted excerpt of an upstream error body, for error messages */
  upstreamMessage(text: string): string {
    let msg = text.trim();
    try {
      const j = JSON.parse(msg) as Record<string, unknown>;
      const e = j.error as Record<string, unknown> | string | undefined;
      const m =
        (typeof e === 'object' && e && (e.message ?? e.error_description)) ||
        (typeof e === 'string' ? (j.error_description ?? e) : undefined) ||
        j.message ||
        j.detail;
      if (typeof m === 'string') msg = m;
    } catch {
      // not JSON: use the raw text
    }
    msg = msg.replace(/\s+/g, ' ').slice(0, 200);
    return this.redact.text(msg);
  }

  #scrub(e: SourceError): SourceError {
    const clean = this.redact.text(e.message);
    if (clean === e.message) return e;
    return new SourceError(e.kind, clean, e.options);
  }

  #mark(e: SourceError, f: AttemptFailure): SourceError {
    this.#failures.set(e, f);
    return e;
  }

  #cancelled(req: HttpRequest): SourceError {
    return new SourceError('timeout', `the call to ${this.backend} (${req.op}) was cancelled by the caller`, {
      backend: this.backend,
    });
  }

  #toSourceError(e: unknown, req: HttpRequest): SourceError {
    if (e instanceof SourceError) return e;
    if (e instanceof BrokenCircuitError || e instanceof IsolatedCircuitError) {
      return new SourceError(
        'unavailable',
        `${this.backend} is switched off after repeated upstream failures; it is retried automatically`,
        { backend: this.backend, retryAfterSeconds: Math.ceil(this.#settings.breakerHalfOpenMs / 1000) },
      );
    }
    if (e instanceof BulkheadRejectedError) {
      return new SourceError('unavailable', `${this.backend} is overloaded: too many concurrent requests`, {
        backend: this.backend,
        retryAfterSeconds: 1,
      });
    }
    if (req.signal?.aborted) return this.#cancelled(req);
    const msg = this.redact.text(e instanceof Error ? e.message : String(e));
    return new SourceError('upstream', `${this.backend} (${req.op}) failed: ${msg}`, {
      backend: this.backend,
    });
  }

  #backoff(attempt: number): number {
    const { backoffBaseMs, backoffMaxMs } = this.#settings;
    const cap = Math.min(backoffMaxMs, backoffBaseMs * 2 ** (attempt - 1));
    // "equal jitter": at least half the step, so retries never stampede at once
    return Math.round(cap / 2 + (this.#random() * cap) / 2);
  }
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}

function buildUrl(url: string | URL, query?: HttpRequest['query']): string {
  const u = new URL(String(url));
  if (query) {
    for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  }
  return u.href;
}

function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
