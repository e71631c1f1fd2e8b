// A local stand-in for every upstream the live backends call: one node:http server on
// 127.0.0.1 (port 0) that answers each backend's paths with the recorded fixtures, so that the
// real app can be pointed at it by configuration alone (base URL variables).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordedRoutes } from './recorded.js';
import { loadExchanges, matchExchange, recordedBody, recordedJson } from './replay.js';

export interface StubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}

export interface StubAnswer {
  status?: number;
  body: string;
  headers?: Record<string, string>;
}

export type Route = (r: StubRequest) => StubAnswer | undefined;

export interface Stub {
  origin: string;
  port: number;
  requests: StubRequest[];
  /** requests no route answered (a test asserts there are none) */
  unmatched: StubRequest[];
  close(): Promise<void>;
}

export async function startStub(route: Route): Promise<Stub> {
  const requests: StubRequest[] = [];
  const unmatched: StubRequest[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url ?? '/', 'http://stub');
    const r: StubRequest = {
      method: req.method ?? 'GET',
      path: u.pathname,
      query: u.searchParams,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(r);
    let a: StubAnswer | undefined;
    try {
      a = route(r);
    } catch (e) {
      a = { status: 500, body: JSON.stringify({ error: String(e) }) };
    }
    if (!a) {
      unmatched.push(r);
      a = { status: 418, body: JSON.stringify({ error: `no stub route for ${r.method} ${r.path}` }) };
    }
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    unmatched,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** a port on 127.0.0.1 that nothing listens on (connections are refused) */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------------------------
// the fixtures, by upstream path

const json = (b: string): Record<string, unknown> => {
  try {
    return JSON.parse(b) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** the youtubei recordings (test/fixtures/live/youtubei), for InnerTube requests */
const YOUTUBEI = loadExchanges();
const recorded = (name: string): StubAnswer => ({ body: recordedBody(name) });
/** the end of a list: a continuation answer with no items and no further token */
const END_OF_LIST = JSON.stringify({
  onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: [] } }],
});

/** the continuation at the end of the recorded first comments page */
const COMMENTS_PAGE_2 = (() => {
  const items = recordedJson<any>('comments-xaQJbozY_Is-page1').onResponseReceivedEndpoints[1]
    .reloadContinuationItemsCommand.continuationItems;
  return items[items.length - 1].continuationItemRenderer.continuationEndpoint.continuationCommand
    .token as string;
})();

/** a /player answer for a video no recording has: the recorded Shorts layout with its id */
function player(id: string): StubAnswer {
  const p = recordedJson<{
    videoDetails: Record<string, unknown>;
    microformat: { playerMicroformatRenderer: Record<string, unknown> };
  }>('player-l-X5WbDSH2o');
  p.videoDetails.videoId = id;
  Object.assign(p.microformat.playerMicroformatRenderer, {
    externalVideoId: id,
    title: { simpleText: `Short ${id}` },
  });
  return { body: JSON.stringify(p) };
}

/**
 * InnerTube: the recording a request names (replay.ts's rules), else, since the live-backend
 * tests ask for other keywords, videos and channels than were recorded, the recorded page of
 * the same kind; an unknown continuation ends the list.
 */
function youtubei(path: string, b: Record<string, unknown>): StubAnswer | undefined {
  const ex = matchExchange(YOUTUBEI, path, b);
  if (ex) return { status: ex.response.status, body: JSON.stringify(ex.response.body) };
  if (path === '/youtubei/v1/next') {
    // a first comments page of any video is the recorded one; that page's own continuation ends
    return b.continuation === COMMENTS_PAGE_2
      ? { body: END_OF_LIST }
      : recorded('comments-xaQJbozY_Is-page1');
  }
  if (typeof b.continuation === 'string') return { body: END_OF_LIST };
  switch (path) {
    case '/youtubei/v1/search':
      return recorded('search-test-page1');
    case '/youtubei/v1/player':
      return player(String(b.videoId));
    case '/youtubei/v1/browse':
      if (b.browseId === 'FEhashtag') return recorded('hashtag-martingarrix-page1');
      if (typeof b.browseId === 'string' && b.browseId.startsWith('UC')) {
        const shorts = String(b.params ?? '').startsWith('EgZzaG9ydHM');
        return recorded(shorts ? 'channel-shorts-page1' : 'channel-videos-page1');
      }
  }
  return undefined;
}

export const fixtureRoutes: Route = (r) => {
  const p = r.path;
  // the provider and official backends: recorded answers, chosen by request (recorded.ts)
  const recorded = recordedRoutes(r);
  if (recorded) return recorded;
  // youtubei (YOUTUBEI_BASE_URL=<stub>): recorded exchanges (replay.ts)
  if (r.method === 'POST' && p.startsWith('/youtubei/v1/')) return youtubei(p, json(r.body));
  return undefined;
};
