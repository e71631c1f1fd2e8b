// A local stand-in for the platform's web API (InnerTube) that answers from recorded exchanges:
// each file in test/fixtures/live/youtubei/ holds one request (method, path, body without the
// client `context`) and the response the platform sent to it (see SOURCES.md there, and
// scripts/record-fixtures.ts, which writes new ones in the same format).
//
// POST /youtubei/v1/{browse,search,next,player} is matched to a recording by, in this order:
// the continuation token; else the query (and the search params, when the recording names
// them); else the browseId (and params); else the videoId. A request no recording answers gets
// HTTP 418 with a message naming it, is listed in `unmatched`, and so fails the test that made
// it. Every request is counted per endpoint, so a test can assert how many upstream requests a
// call cost.
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const YOUTUBEI_FIXTURES = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/live/youtubei',
);

type Json = Record<string, unknown>;

export interface Exchange {
  /** the file name without .json */
  name: string;
  request: { method: string; path: string; body: Json };
  response: { status: number; body: unknown; headers?: Record<string, string> };
}

export interface ReplayRequest {
  method: string;
  /** the path without the query string */
  path: string;
  /** 'browse', 'search', 'next', 'player', or the path when it is not an InnerTube call */
  endpoint: string;
  /** the request body without `context` */
  body: Json;
  /** the recording that answered it */
  answeredBy?: string;
}

/**
 * HTTP settings for a backend pointed at the replay: no retry (a request is counted once) and
 * timeouts loose enough for a loaded test machine (a recorded page is a few hundred KB of JSON).
 */
export const REPLAY_HTTP = {
  UPSTREAM_TIMEOUT_MS: '10000',
  UPSTREAM_DEADLINE_MS: '30000',
  UPSTREAM_RETRIES: '0',
  UPSTREAM_BREAKER_THRESHOLD: '1000',
};

const cache = new Map<string, Exchange>();

/** one recorded exchange by file name (without .json) */
export function exchange(name: string, dir = YOUTUBEI_FIXTURES): Exchange {
  const file = join(dir, `${name}.json`);
  let ex = cache.get(file);
  if (!ex) {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Omit<Exchange, 'name'>;
    ex = { name, ...raw };
    cache.set(file, ex);
  }
  return ex;
}

/** the recorded response body of an exchange, as the JSON text the platform sent */
export function recordedBody(name: string): string {
  return JSON.stringify(exchange(name).response.body);
}

/** a recorded response body, parsed (a copy: tests may change it to simulate drift) */
export function recordedJson<T = Json>(name: string): T {
  return JSON.parse(recordedBody(name)) as T;
}

/** every exchange in a folder */
export function loadExchanges(dir = YOUTUBEI_FIXTURES): Exchange[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => exchange(f.slice(0, -'.json'.length), dir));
}

const norm = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};
const same = (a: unknown, b: unknown) => norm(a) === norm(b);

/** the recording that answers a request, by the rules in the header of this file */
export function matchExchange(
  exchanges: readonly Exchange[],
  path: string,
  body: Json,
): Exchange | undefined {
  const candidates = exchanges.filter((e) => e.request.method === 'POST' && e.request.path === path);
  const rules: Array<[string, (r: Json) => boolean]> = [
    ['continuation', (r) => same(r.continuation, body.continuation)],
    ['query', (r) => same(r.query, body.query) && (r.params === undefined || same(r.params, body.params))],
    [
      'browseId',
      (r) =>
        r.continuation === undefined &&
        same(r.browseId, body.browseId) &&
        (r.params === undefined || same(r.params, body.params)),
    ],
    ['videoId', (r) => same(r.videoId, body.videoId)],
  ];
  for (const [key, fits] of rules) {
    if (typeof body[key] !== 'string') continue;
    return candidates.find((e) => typeof e.request.body[key] === 'string' && fits(e.request.body));
  }
  return undefined;
}

export interface Replay {
  origin: string;
  requests: ReplayRequest[];
  /** requests no recording answered (a test asserts there are none) */
  unmatched: ReplayRequest[];
  /** the requests since the start or the last reset() */
  recent(): ReplayRequest[];
  /** requests per endpoint since the start or the last reset() */
  counts(): Record<string, number>;
  /** requests to one endpoint since the start or the last reset() */
  count(endpoint: string): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startReplay(exchanges: readonly Exchange[] = loadExchanges()): Promise<Replay> {
  const requests: ReplayRequest[] = [];
  const unmatched: ReplayRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? '/', 'http://replay').pathname;
    let body: Json = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Json;
    } catch {
      // not JSON: matched by nothing
    }
    const { context: _context, ...sans } = body;
    const m = /^\/youtubei\/v1\/(browse|search|next|player)$/.exec(path);
    const r: ReplayRequest = { method: req.method ?? 'GET', path, endpoint: m?.[1] ?? path, body: sans };
    requests.push(r);
    const ex = r.method === 'POST' && m ? matchExchange(exchanges, path, sans) : undefined;
    if (!ex) {
      unmatched.push(r);
      const message = `no recording answers ${r.method} ${path} ${JSON.stringify(sans).slice(0, 300)}`;
      res.writeHead(418, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 418, message, status: 'NO_RECORDING' } }));
      return;
    }
    r.answeredBy = ex.name;
    res.writeHead(ex.response.status, { 'content-type': 'application/json', ...ex.response.headers });
    res.end(JSON.stringify(ex.response.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  let from = 0;
  const since = () => requests.slice(from);
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    unmatched,
    recent: since,
    counts() {
      const out: Record<string, number> = {};
      for (const r of since()) out[r.endpoint] = (out[r.endpoint] ?? 0) + 1;
      return out;
    },
    count(endpoint) {
      return since().filter((r) => r.endpoint === endpoint).length;
    },
    reset() {
      from = requests.length;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A replay in which one recorded answer was changed: a layout drift simulated on a real
 * recording. `change` edits a copy of the recorded body.
 */
export function startChangedReplay(name: string, change: (body: any) => void): Promise<Replay> {
  const body = recordedJson(name);
  change(body);
  const changed: Exchange = { ...exchange(name), response: { status: 200, body } };
  return startReplay(loadExchanges().map((e) => (e.name === name ? changed : e)));
}

/** the grid of items of a recorded channel tab's first page (for drift simulations) */
export function channelGrid(body: any): any[] {
  return body.contents.twoColumnBrowseResultsRenderer.tabs[1].tabRenderer.content.richGridRenderer.contents;
}

// ---------------------------------------------------------------------------------------------
// what the recordings hold, for the tests' assertions

/** about when the recordings were made: relative dates ("13 days ago") are read from it */
export const RECORDED_AT = new Date('2026-01-27T12:00:00Z');

/** the keyword results of `search-test-page1` and `-page2`, in order (shelf items are not) */
export const SEARCH_TEST_IDS = [
  'Z8KYabgkMbw',
  '0YWt4Ai8q_g',
  'UEQSkaqrMZA',
  'WN3cB7w_7MA',
  'wRyD81oBUSM',
  'waLptFFtlZY',
  'cguSj5lvNto',
  'dtQlcQs72yY',
  // page 2
  'JOHUZMTdgBY',
  'E8Ssd5-86jw',
  '9-JeWpq0aYg',
  'Xybph6W15mE',
  'OcMn79IHL1g',
  '9dbH3qnlm9o',
];

/** the videos of `channel-videos-page1` and `-page2` (Creative Commons), in order */
export const CHANNEL_VIDEOS_IDS = [
  'BD-LB23rRBE',
  'ea1MAxH0KJc',
  'zXhTF-T24fw',
  '8U2LLmThFS0',
  'AzFgLYHc-oc',
  'tlFdJ3DI8z4',
  'Tp3Z1FnVyC4',
  'CweFSQw3tBs',
  // page 2
  'CIFHx7_z3Vc',
  's5jaFTP3tN8',
  '1BMHyslHmYY',
  'qiAzEH711CQ',
  '-MDUZuruN1k',
];

/** the first Shorts of `channel-shorts-page1` (Doobydobap), in order */
export const SHORTS_IDS = [
  'l-X5WbDSH2o',
  'pBah3o0H0Ao',
  'FvIlYTy_vaQ',
  'MGIg9g_Nt1w',
  'ZTO7AxzVE18',
  'vNCjCUbR8CE',
  's5xv1hs-Lfg',
  'UyUWey62EbE',
  'Mr7YRmsVTjs',
  'AU67EyVqdBA',
];

/** the top-level comments of `comments-xaQJbozY_Is-page1`, then of `comments-D00Au7k3i6o-page1` */
export const COMMENTS_XAQJ = [
  ['UgwSOM0QHBLysE3vZE54AaABAg', '@kurzgesagt'],
  ['UgxNNFhhw8l9vjj9zsx4AaABAg', '@MoreConsole'],
  ['Ugyoo-QsiAVVW3Tqqjt4AaABAg', '@heyquitstealingmymoves6538'],
  ['UgzFxzarru7O2dbK0Dh4AaABAg', '@ExiStrife'],
  ['UgwaG5ZLOj86V_35uRJ4AaABAg', '@m0ssflower355'],
  ['Ugzoygnmz9IYzNj2B4J4AaABAg', '@Sinvicta'],
];
export const COMMENTS_D00A = [
  ['Ugj1yo5xTCQt9HgCoAEC', '@Nicky-mg4up'],
  ['Ugyupvm3YjcpQ5RLtbp4AaABAg', '@LicensedTaddus'],
  ['UgiMBVVB9XkcTHgCoAEC', '@Triggerhappyfan-cx7iy'],
];
