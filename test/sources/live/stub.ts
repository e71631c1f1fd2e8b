// A local stand-in for every upstream the live backends call: one node:http server on
// 127.0.0.1 (port 0) that answers each backend's paths with the recorded fixtures, so that the
// real app can be pointed at it by configuration alone (base URL variables). youtubei's hosts
// are fixed inside youtubei.js, so for it a dispatcher re-routes requests to the stub.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { fixture } from './helpers.js';
import { recordedRoutes } from './recorded.js';

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

/**
 * A dispatcher that sends every request whose origin is not already on 127.0.0.1 to the stub
 * instead (youtubei.js calls https://www.youtube.com), so nothing can reach the network.
 */
export function routeToStub(stubOrigin: string): Dispatcher {
  return new Agent().compose(
    (dispatch) => (opts, handler) =>
      dispatch(
        String(opts.origin).startsWith('http://127.0.0.1:') ? opts : { ...opts, origin: stubOrigin },
        handler,
      ),
  );
}

// ---------------------------------------------------------------------------------------------
// the fixtures, by upstream path

const ok = (backend: string, name: string): StubAnswer => ({ body: fixture(backend, name) });
const json = (b: string): Record<string, unknown> => {
  try {
    return JSON.parse(b) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** a /player answer for a Short other than the recorded one */
function player(id: string): StubAnswer {
  const p = JSON.parse(fixture('youtubei', 'player-short')) as {
    videoDetails: Record<string, unknown>;
  };
  Object.assign(p.videoDetails, { videoId: id, title: `Short ${id}` });
  return { body: JSON.stringify(p) };
}

export const fixtureRoutes: Route = (r) => {
  const p = r.path;
  // the provider and official backends: recorded answers, chosen by request (recorded.ts)
  const recorded = recordedRoutes(r);
  if (recorded) return recorded;
  // youtubei (re-routed from https://www.youtube.com by routeToStub)
  if (r.method === 'POST' && p.startsWith('/youtubei/v1/')) {
    const b = json(r.body);
    const c = b.continuation;
    switch (p) {
      case '/youtubei/v1/search':
        return ok('youtubei', c === 'EpMDEgZjb2ZmZWUa_SEARCH_PAGE_2' ? 'search-page2' : 'search-page1');
      case '/youtubei/v1/next':
        return ok(
          'youtubei',
          c === 'Eg0SC2RRdzR3OVdnWGNRGAYy_COMMENTS_2' ? 'comments-page2' : 'comments-page1',
        );
      case '/youtubei/v1/player':
        return b.videoId === 'SHORT000001' ? ok('youtubei', 'player-short') : player(String(b.videoId));
      case '/youtubei/v1/browse': {
        if (c === '4qmFsgI_HASHTAG_PAGE_2') return ok('youtubei', 'hashtag-page2');
        if (c === '4qmFsgI_HASHTAG_SHORTS_CHIP') return ok('youtubei', 'hashtag-shorts');
        if (c === '4qmFsgI_HASHTAG_SHORTS_2') return ok('youtubei', 'hashtag-shorts-page2');
        if (b.browseId === 'FEhashtag') return ok('youtubei', 'hashtag-page1');
        if (typeof b.browseId === 'string' && b.browseId.startsWith('UC')) {
          const shorts = String(b.params ?? '').startsWith('EgZzaG9ydHM');
          return ok('youtubei', shorts ? 'channel-shorts' : 'channel-videos');
        }
      }
    }
  }
  return undefined;
};
