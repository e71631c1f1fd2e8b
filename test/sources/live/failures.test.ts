// Every backend operation against the same upstream misbehaviours.
import { describe, expect, it } from 'vitest';
import { ClipnetPost } from '../../../src/contract/items.js';
import type { ClipnetSource, Platform } from '../../../src/sources/interface.js';
import { ATPROTO_ACCESS_JWT, build, CASES, type Case, ENV, SECRETS } from './cases.js';
import { captureLogger, FAST, mockAgent, refusingAgent, rejection } from './helpers.js';

const OWN_SECRETS: Record<string, string[]> = {
  'youtube-data-api': [SECRETS.YOUTUBE_API_KEY],
  youtubei: [],
  scrapekit: [SECRETS.SCRAPEKIT_API_KEY],
  'clipnet-research': [
    SECRETS.CLIPNET_RESEARCH_CLIENT_KEY,
    SECRETS.CLIPNET_RESEARCH_CLIENT_SECRET,
    'clt.example12345Example12345Example',
  ],
  'picnet-graph': [SECRETS.PICNET_GRAPH_ACCESS_TOKEN],
  datadepth: [SECRETS.DATADEPTH_TOKEN],
  atproto: [SECRETS.ATPROTO_APP_PASSWORD, ATPROTO_ACCESS_JWT],
};

/** cases whose good response rightly gives no item here. Hashtag posts: the recorded posts are
 *  older than the 7-day window the case asks for at today's date (test/e2e/live-recordings.test.ts
 *  reads them with the clock at the recording's date). The channel: it has no uploads. */
const EMPTY_ON_GOOD = new Set([
  'datadepth clipnet hashtag',
  'datadepth picnet hashtag',
  'picnet-graph hashtag',
  'scrapekit clipnet hashtag',
  'youtube-data-api channel videos',
]);

/** how many items an operation's result holds (a page, a list, a search result) */
function itemCount(r: unknown): number {
  if (Array.isArray(r)) return r.length;
  const o = r as { items?: unknown[]; videos?: unknown[] };
  return (o.items ?? o.videos ?? []).length;
}

function intercept(agent: ReturnType<typeof mockAgent>, c: Case) {
  return agent
    .get(c.origin)
    .intercept({ method: c.method, path: (p: string) => new URL(p, c.origin).pathname === c.path });
}

describe.each(CASES)('$label', (c) => {
  const setup = (env: Record<string, string> = {}) => {
    const agent = mockAgent();
    c.prepare?.(agent);
    const { logger, lines } = captureLogger();
    return { agent, src: build(c, { ...FAST, ...env }, agent, logger), lines };
  };

  /** the result of the operation on the good response alone */
  const good = async () => {
    const { agent, src } = setup();
    intercept(agent, c).reply(200, c.ok).persist();
    return c.call(src);
  };

  it('succeeds on a good response, with what it holds', async () => {
    const r = await good();
    if (EMPTY_ON_GOOD.has(c.label)) expect(itemCount(r)).toBe(0);
    else expect(itemCount(r)).toBeGreaterThan(0);
  });

  it('retries a 503 and then gives what the good response holds', async () => {
    const { agent, src } = setup();
    intercept(agent, c).reply(503, 'Service Unavailable');
    intercept(agent, c).reply(200, c.ok).persist();
    expect(await c.call(src)).toEqual(await good());
  });

  it('honours a short Retry-After on 429 and gives what the good response holds', async () => {
    const { agent, src } = setup();
    intercept(agent, c).reply(429, '{}', { headers: { 'retry-after': '0' } });
    intercept(agent, c).reply(200, c.ok).persist();
    expect(await c.call(src)).toEqual(await good());
  });

  it('gives up with throttled when Retry-After exceeds the deadline', async () => {
    const { agent, src } = setup();
    intercept(agent, c).reply(429, '{}', { headers: { 'retry-after': '120' } });
    const err = await rejection(c.call(src));
    expect(err.kind).toBe('throttled');
    expect(err.options.retryAfterSeconds).toBe(120);
  });

  it('reports a persistent 5xx as upstream', async () => {
    const { agent, src } = setup();
    intercept(agent, c).reply(500, 'oops').times(3);
    expect((await rejection(c.call(src))).kind).toBe('upstream');
  });

  it('reports a hanging upstream as timeout, fast', async () => {
    const { agent, src } = setup({ UPSTREAM_RETRIES: '1', UPSTREAM_TIMEOUT_MS: '50' });
    intercept(agent, c).reply(200, c.ok).delay(1000).times(2);
    const err = await rejection(c.call(src));
    expect(err.kind).toBe('timeout');
  });

  it('reports truncated JSON as upstream', async () => {
    const { agent, src } = setup();
    intercept(agent, c).reply(200, c.ok.slice(0, Math.floor(c.ok.length / 2)));
    expect((await rejection(c.call(src))).kind).toBe('upstream');
  });

  it('reports schema drift as upstream', async () => {
    const { agent, src } = setup();
    intercept(agent, c).reply(200, '{"unexpected":{"renamed":[1,2,3]}}');
    expect((await rejection(c.call(src))).kind).toBe('upstream');
  });

  it('switches off after repeated failures (circuit open → unavailable)', async () => {
    const { agent, src } = setup({ UPSTREAM_BREAKER_THRESHOLD: '2', UPSTREAM_RETRIES: '0' });
    intercept(agent, c).reply(502, 'bad gateway').times(2);
    expect((await rejection(c.call(src))).kind).toBe('upstream');
    expect((await rejection(c.call(src))).kind).toBe('upstream');
    const err = await rejection(c.call(src));
    expect(err.kind).toBe('unavailable');
  });

  it('never logs or reports its credentials', async () => {
    const { agent, src, lines } = setup({ UPSTREAM_RETRIES: '1' });
    // an upstream that echoes this backend's own credentials back in its error bodies
    const own = OWN_SECRETS[c.backend] ?? [];
    const echo = `echo ${own.join(' ')} key=${own[0] ?? 'none'} access_token=${own[0] ?? 'none'}`;
    intercept(agent, c).reply(503, echo);
    intercept(agent, c).reply(400, JSON.stringify({ error: { message: echo } }));
    const err = await rejection(c.call(src));
    const all = lines.join('\n') + err.message;
    expect(lines.length).toBeGreaterThan(0);
    for (const s of own) expect(all).not.toContain(s);
  });
});

describe('no network at all', () => {
  const ops: Record<Platform, Case[]> = { clipnet: [], picnet: [], vidnet: [], blipnet: [] };
  for (const c of CASES) ops[c.platform].push(c);
  it.each(Object.entries(ops).filter(([, cases]) => cases.length > 0))(
    '%s: every call fails fast with upstream, timeout or unavailable',
    async (_p, cases) => {
      for (const c of cases) {
        const src = build(c, { ...FAST, UPSTREAM_RETRIES: '1' }, refusingAgent());
        const started = Date.now();
        const err = await rejection(c.call(src));
        expect(['upstream', 'timeout', 'unavailable']).toContain(err.kind);
        expect(Date.now() - started).toBeLessThan(3000);
      }
    },
  );
});

describe('proxy configuration', () => {
  it('rejects a malformed proxy URL at construction', () => {
    expect(() => build(CASES[0] as Case, { UPSTREAM_PROXY_URL: 'not a url' }, mockAgent())).toThrow(
      /UPSTREAM_PROXY_URL/,
    );
  });
  it('builds a backend behind a proxy without touching the network', () => {
    const c = CASES.find((x) => x.backend === 'scrapekit') as Case;
    const src = build(
      c,
      { UPSTREAM_PROXY_URL: 'http://user:pw@127.0.0.1:3128' },
      mockAgent(),
    ) as ClipnetSource;
    expect(src.name).toBe('scrapekit');
    expect(ClipnetPost.$id).toBe('ClipnetPost');
    expect(ENV.SCRAPEKIT_BASE_URL).toContain('scrapekit');
  });
});
