// The real app on the real sandbox, listening on 127.0.0.1 for the client and the CLI, and a stub
// HTTP proxy to put in front of it to inject failures the app itself would not produce.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SourceError, type Sources } from '../../src/sources/interface.js';
import { openSandbox } from '../../src/sources/sandbox/index.js';
import { startApp, type TestApp } from '../support/app.js';

/** the sandbox world anchored to a fixed clock, so that pages never shift during a test */
export const SANDBOX_NOW = new Date('2026-01-15T12:00:00Z');

export interface LiveApp extends TestApp {
  url: string;
}

export async function startLive(
  opts: { credits?: number; wrap?: (s: Sources) => Sources } = {},
): Promise<LiveApp> {
  const sandbox = openSandbox({ now: () => SANDBOX_NOW });
  const sources: Sources = {
    clipnet: sandbox.clipnet,
    picnet: sandbox.picnet,
    vidnet: sandbox.vidnet,
    blipnet: sandbox.blipnet,
    close: async () => sandbox.close(),
  };
  const t = await startApp({
    credits: opts.credits ?? 1000,
    sources: opts.wrap ? opts.wrap(sources) : sources,
  });
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...t, url };
}

/** Sources whose clipnet userPosts fails `times` times with `kind` before working again. */
export function failingClipnet(
  kind: 'unavailable' | 'throttled' | 'upstream',
  times: number,
): { wrap: (s: Sources) => Sources; calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    wrap: (s) => ({
      ...s,
      clipnet: {
        ...s.clipnet,
        name: s.clipnet.name,
        kind: s.clipnet.kind,
        userPosts: async (q, ctx) => {
          calls++;
          if (calls <= times) throw new SourceError(kind, `injected ${kind}`, { retryAfterSeconds: 0 });
          return s.clipnet.userPosts(q, ctx);
        },
      },
    }),
  };
}

export interface SeenRequest {
  path: string;
  idempotencyKey: string | undefined;
  apiKey: string | undefined;
}

/**
 * A proxy on 127.0.0.1 in front of `target`. `decide(n)` for the n-th request (from 1) returns
 * 'pass' (forward), 'drop' (forward, let the app answer and charge, then cut the connection
 * before the answer reaches the client), or a status to answer itself (with Retry-After: 0).
 */
export async function startProxy(
  target: string,
  decide: (n: number) => 'pass' | 'drop' | number,
): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const h = (k: string) => {
        const v = req.headers[k];
        return Array.isArray(v) ? v[0] : v;
      };
      seen.push({ path: req.url ?? '', idempotencyKey: h('idempotency-key'), apiKey: h('x-api-key') });
      const action = decide(seen.length);
      if (typeof action === 'number') {
        res.writeHead(action, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(
          JSON.stringify({
            success: false,
            error: {
              code: action === 429 ? 'RATE_LIMITED' : 'SERVICE_UNAVAILABLE',
              message: 'injected by proxy',
            },
            metadata: { credits_used: 0, processing_time: 0 },
          }),
        );
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
      const upstream = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (action === 'drop') {
        req.socket.destroy();
        return;
      }
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
      });
      res.writeHead(upstream.status, out);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
