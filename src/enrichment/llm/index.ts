// The LLM backend: an Enricher that asks a model behind an OpenAI-compatible chat-completions API.
// Texts go in batches with indices; the reply is structured JSON (json_schema, or json_object when the
// server rejects schemas), validated and normalised so that it is byte-stable; retried with jittered
// backoff; cached in memory by a SHA-256 of (model, text, types, categories) so that repeated input
// returns identical output without an upstream call. See docs/llm-backend.md.

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Enrichment, EnrichmentType, Intent, LlmProvider } from '../../contract/items.js';
import { ENRICHMENT_TYPES, INTENTS, SENTIMENTS } from '../../contract/items.js';
import { type EnrichCallOptions, type Enricher, EnrichmentError, type EnrichRequest } from '../interface.js';
import { TAXONOMY } from '../topics/index.js';
import { responseSchema, systemPrompt } from './prompt.js';

export interface LlmEnricherOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** per upstream call (default 30,000 ms) */
  timeoutMs?: number;
  /** retries after the first attempt (default 3) */
  maxRetries?: number;
  /** texts per upstream call (default 20) */
  batchSize?: number;
  /** cached results (default 10,000) */
  cacheSize?: number;
  fetch?: typeof fetch;
}

const BACKOFF_BASE_MS = 250;
const BACKOFF_MAX_MS = 8_000;
/** a Retry-After longer than this is not waited out: the caller gets 'throttled' with the delay */
const RETRY_AFTER_MAX_S = 30;

class InvalidOutput extends Error {}

class Attempt extends Error {
  constructor(
    readonly kind: 'throttled' | 'upstream' | 'timeout',
    message: string,
    readonly retryable: boolean,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

function parseRetryAfter(h: string | null): number | undefined {
  if (!h) return undefined;
  const s = Number(h);
  if (Number.isFinite(s) && s >= 0) return s;
  const t = Date.parse(h);
  return Number.isNaN(t) ? undefined : Math.max(0, (t - Date.now()) / 1000);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

function normKeyword(k: unknown): string | undefined {
  if (typeof k !== 'string') return undefined;
  const s = k.toLowerCase().replace(/\s+/g, ' ').trim().slice(0, 100);
  return s || undefined;
}

/** validates one reply item against the request and returns the normalised enrichment, or throws
 *  InvalidOutput when a requested field is missing or cannot be repaired */
export function normalizeItem(
  raw: unknown,
  types: EnrichmentType[],
  allowedTopics: readonly string[],
): Enrichment {
  if (typeof raw !== 'object' || raw === null) throw new InvalidOutput('item is not an object');
  const r = raw as Record<string, unknown>;
  const out: Enrichment = {};
  for (const type of ENRICHMENT_TYPES) {
    if (!types.includes(type)) continue;
    if (type === 'sentiment') {
      let score =
        typeof r.sentiment_score === 'number' && Number.isFinite(r.sentiment_score)
          ? r.sentiment_score
          : undefined;
      if (score !== undefined) score = Math.round(Math.max(-1, Math.min(1, score)) * 1000) / 1000;
      let label = typeof r.sentiment === 'string' ? r.sentiment.toLowerCase().trim() : undefined;
      if (!label || !(SENTIMENTS as readonly string[]).includes(label)) {
        if (score === undefined) throw new InvalidOutput('sentiment missing or invalid');
        label = score > 0.05 ? 'positive' : score < -0.05 ? 'negative' : 'neutral';
      }
      out.sentiment = label as (typeof SENTIMENTS)[number];
      out.sentiment_score = score ?? (label === 'positive' ? 0.5 : label === 'negative' ? -0.5 : 0);
      if (Object.is(out.sentiment_score, -0)) out.sentiment_score = 0;
    } else if (type === 'topics') {
      if (!Array.isArray(r.topics)) throw new InvalidOutput('topics missing');
      const byLower = new Map(allowedTopics.map((t) => [t.toLowerCase(), t]));
      const topics: string[] = [];
      for (const t of r.topics) {
        const hit = typeof t === 'string' ? byLower.get(t.toLowerCase().trim()) : undefined;
        if (hit && !topics.includes(hit)) topics.push(hit);
      }
      out.topics = topics.slice(0, 3);
    } else if (type === 'intent') {
      const v =
        typeof r.intent === 'string'
          ? r.intent
              .toLowerCase()
              .trim()
              .replace(/[\s-]+/g, '_')
          : '';
      const fixed = v === 'purchase' ? 'purchase_intent' : v;
      if (!(INTENTS as readonly string[]).includes(fixed))
        throw new InvalidOutput('intent missing or invalid');
      out.intent = fixed as Intent;
    } else {
      if (!Array.isArray(r.keywords)) throw new InvalidOutput('keywords missing');
      const kws: string[] = [];
      for (const k of r.keywords) {
        const n = normKeyword(k);
        if (n && !kws.includes(n)) kws.push(n);
      }
      out.keywords = kws.slice(0, 10);
    }
  }
  return out;
}

export function createLlmEnricher(opts: LlmEnricherOptions): Enricher {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxRetries = Math.max(0, opts.maxRetries ?? 3);
  const batchSize = Math.max(1, opts.batchSize ?? 20);
  const cache = new LRUCache<string, string>({ max: Math.max(1, opts.cacheSize ?? 10_000) });
  const doFetch = opts.fetch ?? globalThis.fetch;
  /** set once the server rejects json_schema; from then on json_object is asked for */
  let jsonObjectOnly = false;

  function cacheKey(text: string, types: EnrichmentType[], categories: string[] | null): string {
    return createHash('sha256')
      .update(JSON.stringify([opts.model, text, types, categories]))
      .digest('hex');
  }

  async function callOnce(
    texts: string[],
    types: EnrichmentType[],
    allowed: readonly string[],
    custom: boolean,
    signal?: AbortSignal,
  ): Promise<Enrichment[]> {
    const body = {
      model: opts.model,
      temperature: 0,
      messages: [
        { role: 'system', content: systemPrompt(types, allowed, custom) },
        { role: 'user', content: JSON.stringify({ items: texts.map((text, index) => ({ index, text })) }) },
      ],
      response_format: jsonObjectOnly
        ? { type: 'json_object' }
        : {
            type: 'json_schema',
            json_schema: { name: 'enrichment', strict: true, schema: responseSchema(types, allowed) },
          },
    };
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await doFetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: combined,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      if (timeout.aborted) throw new Attempt('timeout', `LLM call timed out after ${timeoutMs} ms`, true);
      throw new Attempt('upstream', `LLM call failed: ${(err as Error).name}`, true);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      if (signal?.aborted) throw err;
      if (timeout.aborted) throw new Attempt('timeout', `LLM call timed out after ${timeoutMs} ms`, true);
      throw new Attempt('upstream', 'LLM reply could not be read', true);
    }
    if (res.status === 429) {
      throw new Attempt(
        'throttled',
        'LLM upstream is rate limiting (HTTP 429)',
        true,
        parseRetryAfter(res.headers.get('retry-after')),
      );
    }
    if (res.status >= 500) throw new Attempt('upstream', `LLM upstream error (HTTP ${res.status})`, true);
    if (res.status === 400 && !jsonObjectOnly && /json_schema|response_format|schema/i.test(text)) {
      jsonObjectOnly = true;
      return callOnce(texts, types, allowed, custom, signal);
    }
    if (res.status === 408) throw new Attempt('timeout', 'LLM upstream timed out (HTTP 408)', true);
    if (!res.ok)
      throw new Attempt('upstream', `LLM upstream rejected the request (HTTP ${res.status})`, false);
    try {
      const reply = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
      const content = reply.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new InvalidOutput('no message content');
      const parsed = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, '')) as unknown;
      const list = Array.isArray(parsed) ? parsed : (parsed as { results?: unknown }).results;
      if (!Array.isArray(list)) throw new InvalidOutput('no results array');
      const byIndex = new Map<number, unknown>();
      for (const item of list) {
        const idx = (item as { index?: unknown })?.index;
        if (
          typeof idx === 'number' &&
          Number.isInteger(idx) &&
          idx >= 0 &&
          idx < texts.length &&
          !byIndex.has(idx)
        ) {
          byIndex.set(idx, item);
        }
      }
      return texts.map((_, i) => {
        if (!byIndex.has(i)) throw new InvalidOutput(`result ${i} missing`);
        return normalizeItem(byIndex.get(i), types, allowed);
      });
    } catch (err) {
      throw new Attempt(
        'upstream',
        `LLM reply was not valid: ${err instanceof InvalidOutput ? err.message : 'bad JSON'}`,
        true,
      );
    }
  }

  async function callWithRetries(
    texts: string[],
    types: EnrichmentType[],
    allowed: readonly string[],
    custom: boolean,
    signal?: AbortSignal,
  ): Promise<Enrichment[]> {
    let last: Attempt | undefined;
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      try {
        return await callOnce(texts, types, allowed, custom, signal);
      } catch (err) {
        if (!(err instanceof Attempt)) throw err;
        last = err;
        if (!err.retryable || attempt === maxRetries) break;
        if (err.retryAfterSeconds !== undefined && err.retryAfterSeconds > RETRY_AFTER_MAX_S) break;
        const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt) * (0.5 + Math.random());
        const wait =
          err.retryAfterSeconds !== undefined ? Math.max(err.retryAfterSeconds * 1000, backoff / 4) : backoff;
        await sleep(wait, signal);
      }
    }
    throw new EnrichmentError(last!.kind, last!.message, {
      ...(last!.retryAfterSeconds !== undefined
        ? { retryAfterSeconds: Math.ceil(last!.retryAfterSeconds) }
        : {}),
    });
  }

  return {
    async enrich(req: EnrichRequest, callOpts?: EnrichCallOptions): Promise<Enrichment[]> {
      const types = ENRICHMENT_TYPES.filter((t) => req.types.includes(t));
      const custom = Array.isArray(req.categories?.topic);
      const categories = custom ? [...new Set(req.categories!.topic!)] : null;
      const allowed = categories ?? TAXONOMY;
      const keys = req.texts.map((t) => cacheKey(t, types, categories));
      const results: (string | undefined)[] = keys.map((k) => cache.get(k));
      if (types.length === 0) return req.texts.map(() => ({}));
      // texts not cached, each distinct text once
      const pending = new Map<string, string>();
      keys.forEach((k, i) => {
        if (results[i] === undefined && !pending.has(k)) pending.set(k, req.texts[i]!);
      });
      const todo = [...pending];
      const batches: [string, string][][] = [];
      for (let i = 0; i < todo.length; i += batchSize) batches.push(todo.slice(i, i + batchSize));
      // with an empty custom list no topic can fit: topics are [] without asking the model
      const noTopics = types.includes('topics') && allowed.length === 0;
      const askTypes = noTopics ? types.filter((t) => t !== 'topics') : types;
      const fresh = new Map<string, string>();
      await Promise.all(
        batches.map(async (batch) => {
          const texts = batch.map(([, t]) => t);
          const out =
            askTypes.length === 0
              ? texts.map(() => ({}))
              : await callWithRetries(texts, askTypes, allowed, custom, callOpts?.signal);
          batch.forEach(([k], i) => {
            const value = JSON.stringify(reorder(noTopics ? { ...out[i], topics: [] } : out[i]!, types));
            fresh.set(k, value);
            cache.set(k, value);
          });
        }),
      );
      return keys.map((k, i) => JSON.parse(results[i] ?? fresh.get(k)!) as Enrichment);
    },
    isLocal(_provider: LlmProvider): boolean {
      return false;
    },
    resultVersion: () => `llm:${opts.model}`,
    async close(): Promise<void> {
      cache.clear();
    },
  };
}

/** the canonical key order, so that serialised results are byte-stable */
function reorder(e: Enrichment, types: EnrichmentType[]): Enrichment {
  const out: Enrichment = {};
  if (types.includes('sentiment')) {
    if (e.sentiment !== undefined) out.sentiment = e.sentiment;
    if (e.sentiment_score !== undefined) out.sentiment_score = e.sentiment_score;
  }
  if (types.includes('topics')) out.topics = e.topics ?? [];
  if (types.includes('intent') && e.intent !== undefined) out.intent = e.intent;
  if (types.includes('keywords') && e.keywords !== undefined) out.keywords = e.keywords;
  return out;
}
