import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createEnricher } from '../../src/enrichment/index.js';
import { EnrichmentError, type EnrichRequest } from '../../src/enrichment/interface.js';
import { createLlmEnricher } from '../../src/enrichment/llm/index.js';

interface Recorded {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    temperature: number;
    response_format: { type: string };
    messages: { role: string; content: string }[];
  };
}
type Handler = (req: Recorded, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let requests: Recorded[];
let handlers: Handler[];

function items(r: Recorded): { index: number; text: string }[] {
  return (JSON.parse(r.body.messages[1]!.content) as { items: { index: number; text: string }[] }).items;
}

function reply(
  res: ServerResponse,
  content: unknown,
  status = 200,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(
    JSON.stringify({
      choices: [{ message: { content: typeof content === 'string' ? content : JSON.stringify(content) } }],
    }),
  );
}

/** a well-behaved model: answers every item, in reverse order to prove indices are used */
const good: Handler = (r, res) => {
  const results = items(r)
    .map(({ index, text }) => ({
      index,
      sentiment: text.includes('love') ? 'positive' : 'negative',
      sentiment_score: text.includes('love') ? 0.91234 : -0.5,
      topics: ['technology'],
      intent: 'praise',
      keywords: [`Word${index}`, 'Shared'],
    }))
    .reverse();
  reply(res, { results });
};

beforeEach(async () => {
  requests = [];
  handlers = [];
  server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const rec: Recorded = { headers: req.headers, body: JSON.parse(raw) };
    requests.push(rec);
    (handlers.shift() ?? good)(rec, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(async () => {
  server.close();
  await once(server, 'close');
});

const make = (extra: Partial<Parameters<typeof createLlmEnricher>[0]> = {}) =>
  createLlmEnricher({
    baseUrl,
    apiKey: 'sk-test-secret',
    model: 'test-model',
    maxRetries: 2,
    timeoutMs: 2_000,
    ...extra,
  });

describe('LLM backend', () => {
  it('sends a chat-completions request with auth, temperature 0, a JSON schema and indexed texts', async () => {
    const llm = make();
    await llm.enrich({
      texts: ['I love it', 'meh'],
      types: ['sentiment', 'topics'],
      provider: 'model-1.5-pro',
    });
    expect(requests).toHaveLength(1);
    const r = requests[0]!;
    expect(r.headers.authorization).toBe('Bearer sk-test-secret');
    expect(r.body.model).toBe('test-model');
    expect(r.body.temperature).toBe(0);
    expect(r.body.response_format.type).toBe('json_schema');
    expect(items(r)).toEqual([
      { index: 0, text: 'I love it' },
      { index: 1, text: 'meh' },
    ]);
    expect(llm.isLocal('model-1.5-pro')).toBe(false);
  });

  it('returns results in input order, normalised and limited to the requested types', async () => {
    const llm = make();
    const out = await llm.enrich({
      texts: ['I love it', 'bad'],
      types: ['keywords', 'sentiment'],
      provider: 'model-1.5-pro',
    });
    expect(out).toEqual([
      { sentiment: 'positive', sentiment_score: 0.912, keywords: ['word0', 'shared'] },
      { sentiment: 'negative', sentiment_score: -0.5, keywords: ['word1', 'shared'] },
    ]);
    expect(Object.keys(out[0]!)).toEqual(['sentiment', 'sentiment_score', 'keywords']);
  });

  it('splits texts into batches of batchSize', async () => {
    const llm = make({ batchSize: 2 });
    const out = await llm.enrich({
      texts: ['a', 'b', 'c', 'd', 'e'],
      types: ['intent'],
      provider: 'model-1.5-pro',
    });
    expect(out).toHaveLength(5);
    expect(requests.map((r) => items(r).length).sort()).toEqual([1, 2, 2]);
  });

  it('serves repeated input from the cache with byte-identical output and no upstream call', async () => {
    const llm = make();
    const req = {
      texts: ['I love it'],
      types: ['sentiment', 'intent'] as const,
      provider: 'model-1.5-pro' as const,
    };
    const a = await llm.enrich({ ...req, types: [...req.types] });
    const b = await llm.enrich({ ...req, types: [...req.types] });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(requests).toHaveLength(1);
    // another type set is another cache entry
    await llm.enrich({ ...req, types: ['keywords'] });
    expect(requests).toHaveLength(2);
  });

  it('waits out a 429 with Retry-After, then succeeds', async () => {
    handlers.push((_r, res) => reply(res, 'slow down', 429, { 'retry-after': '1' }));
    const llm = make();
    const t0 = Date.now();
    const out = await llm.enrich({ texts: ['x'], types: ['intent'], provider: 'model-1.5-pro' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(out).toEqual([{ intent: 'praise' }]);
    expect(requests).toHaveLength(2);
  });

  it('retries after a 500 and after garbage JSON', async () => {
    handlers.push((_r, res) => {
      res.writeHead(500);
      res.end('boom');
    });
    handlers.push((_r, res) => reply(res, '{"results": [ this is not json'));
    const llm = make();
    const out = await llm.enrich({ texts: ['x'], types: ['intent'], provider: 'model-1.5-pro' });
    expect(out).toEqual([{ intent: 'praise' }]);
    expect(requests).toHaveLength(3);
  });

  it('throws EnrichmentError after persistent failure, without leaking the key', async () => {
    for (let i = 0; i < 5; i++) {
      handlers.push((_r, res) => {
        res.writeHead(503);
        res.end('sk-test-secret unavailable');
      });
    }
    const llm = make({ maxRetries: 1 });
    const err = await llm
      .enrich({ texts: ['x'], types: ['intent'], provider: 'model-1.5-pro' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnrichmentError);
    expect((err as EnrichmentError).kind).toBe('upstream');
    expect(String((err as Error).message)).not.toContain('sk-test-secret');
    expect(JSON.stringify(err)).not.toContain('sk-test-secret');
    expect(requests).toHaveLength(2);
  });

  it('reports throttled when 429 persists', async () => {
    for (let i = 0; i < 3; i++) handlers.push((_r, res) => reply(res, '', 429, { 'retry-after': '0' }));
    const llm = make({ maxRetries: 2 });
    const err = await llm
      .enrich({ texts: ['x'], types: ['intent'], provider: 'model-1.5-pro' })
      .catch((e: unknown) => e);
    expect((err as EnrichmentError).kind).toBe('throttled');
  });

  it('reports timeout when the upstream never answers in time', async () => {
    const hang: Handler = () => {};
    handlers.push(hang, hang);
    const llm = make({ maxRetries: 1, timeoutMs: 200 });
    const err = await llm
      .enrich({ texts: ['x'], types: ['intent'], provider: 'model-1.5-pro' })
      .catch((e: unknown) => e);
    expect((err as EnrichmentError).kind).toBe('timeout');
  });

  it('falls back to json_object when the server rejects json_schema', async () => {
    handlers.push((_r, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: "response_format type 'json_schema' is not supported" } }));
    });
    const llm = make();
    await llm.enrich({ texts: ['x'], types: ['intent'], provider: 'model-1.5-pro' });
    expect(requests.map((r) => r.body.response_format.type)).toEqual(['json_schema', 'json_object']);
  });

  it('repairs or rejects invalid labels', async () => {
    handlers.push((r, res) =>
      reply(res, {
        results: items(r).map(({ index }) => ({
          index,
          sentiment: 'very happy',
          sentiment_score: 7,
          topics: ['TECHNOLOGY', 'astrology', 'technology', 'music'],
          intent: 'Purchase Intent',
          keywords: ['  Big   Deal ', 'big deal', 42, ...Array.from({ length: 12 }, (_, k) => `k${k}`)],
        })),
      }),
    );
    const llm = make();
    const [out] = await llm.enrich({
      texts: ['x'],
      types: ['sentiment', 'topics', 'intent', 'keywords'],
      provider: 'model-1.5-pro',
    });
    expect(out).toEqual({
      sentiment: 'positive',
      sentiment_score: 1,
      topics: ['technology', 'music'],
      intent: 'purchase_intent',
      keywords: ['big deal', 'k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8'],
    });
    // an intent outside the six values cannot be repaired: the call is retried
    handlers.push((r, res) =>
      reply(res, { results: items(r).map(({ index }) => ({ index, intent: 'greeting' })) }),
    );
    const [again] = await llm.enrich({ texts: ['y'], types: ['intent'], provider: 'model-1.5-pro' });
    expect(again).toEqual({ intent: 'praise' });
  });

  it('chooses topics only from custom categories, and sends them to the model', async () => {
    handlers.push((r, res) =>
      reply(res, {
        results: items(r).map(({ index }) => ({ index, topics: ['Pricing', 'technology', 'pricing'] })),
      }),
    );
    const llm = make();
    const out = await llm.enrich({
      texts: ['too expensive'],
      types: ['topics'],
      categories: { topic: ['Pricing', 'Shipping'] },
      provider: 'model-1.5-pro',
    });
    expect(out).toEqual([{ topics: ['Pricing'] }]);
    expect(requests[0]!.body.messages[0]!.content).toContain('["Pricing","Shipping"]');
  });
});

describe('which analyzer serves a provider name (createEnricher)', () => {
  const sentiment = (provider: EnrichRequest['provider']): EnrichRequest => ({
    texts: ['I love it'],
    types: ['sentiment'],
    provider,
  });

  it('the names in LLM_PROVIDERS go to the LLM backend, every other name to the built-in analyzer', async () => {
    const enricher = createEnricher(
      loadConfig({ LLM_PROVIDERS: 'model-1.5-pro', LLM_BASE_URL: baseUrl, LLM_MODEL: 'test-model' }),
    );
    try {
      await enricher.enrich(sentiment('model-2.0-flash'));
      expect(requests).toHaveLength(0);
      expect(enricher.isLocal('model-2.0-flash')).toBe(true);
      // the stub's score, which the built-in analyzer would not give
      expect(await enricher.enrich(sentiment('model-1.5-pro'))).toEqual([
        { sentiment: 'positive', sentiment_score: 0.912 },
      ]);
      expect(requests).toHaveLength(1);
      expect(enricher.isLocal('model-1.5-pro')).toBe(false);
    } finally {
      await enricher.close();
    }
  });

  it('without an LLM backend the built-in analyzer serves every name, the same for each', async () => {
    const enricher = createEnricher(loadConfig({}));
    try {
      const fast = await enricher.enrich(sentiment('model-2.0-flash'));
      const pro = await enricher.enrich(sentiment('model-1.5-pro'));
      expect(fast[0]?.sentiment).toBe('positive');
      expect(pro[0]?.sentiment).toBe('positive');
      expect(requests).toHaveLength(0);
      expect(enricher.isLocal('model-1.5-pro')).toBe(true);
    } finally {
      await enricher.close();
    }
  });
});
