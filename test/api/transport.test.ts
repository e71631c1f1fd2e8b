// Errors below the routes, on a real socket: what Node's HTTP parser refuses (oversized headers, a
// malformed header or request line), a URL that does not decode, a request that arrives while the
// server shuts down. Each is answered in the error envelope with a request id, like any other
// error. And the log: one request id per line.
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { fakeSources } from '../support/fakes.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function listening(opts: Parameters<typeof startApp>[0] = {}) {
  t = await startApp({ env: { ADMIN_TOKEN: 'admin-token-0123456789' }, ...opts });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** writes `request` on a new connection and reads until the server closes it */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => {
      out += d.toString('latin1');
    });
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.write(request);
  });
}

interface RawReply {
  status: number;
  headers: Map<string, string>;
  body: any;
}

function parse(raw: string): RawReply {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n\r\n')) };
}

function expectEnvelope(r: RawReply, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(r.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  expect(r.body).toEqual({
    success: false,
    error: expect.objectContaining({ code, message: expect.any(String) }),
    metadata: { credits_used: 0, processing_time: expect.any(Number) },
  });
  expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(r.body)));
}

describe('refused before routing', () => {
  test('headers over 16 KiB: 431 in the envelope', async () => {
    const port = await listening();
    const r = parse(
      await exchange(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expectEnvelope(r, 431, 'BAD_REQUEST');
    expect(r.body.error.message).toBe('Request headers are larger than 16 KiB');
    expect(r.headers.get('connection')).toBe('close');
  });

  test('a malformed header or request line: 400 in the envelope', async () => {
    const port = await listening();
    for (const request of [
      'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
      'POST /api/v1/ml/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n',
      'NOT A REQUEST\r\n\r\n',
    ]) {
      const r = parse(await exchange(port, request));
      expectEnvelope(r, 400, 'BAD_REQUEST');
      expect(r.body.error.message).toMatch(/^Malformed HTTP request/);
    }
  });

  test('a URL whose parameter does not decode: 400 in the envelope', async () => {
    const port = await listening();
    for (const path of ['/docs/assets/%ff', '/admin/v1/keys/%E0%A4%A', '/api/v1/%']) {
      const r = parse(await exchange(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      expect(r.status, path).toBeLessThan(500);
      expect(r.body.success, path).toBe(false);
      expect(r.body.metadata.credits_used).toBe(0);
      expect(r.headers.get('x-request-id')).toBeTruthy();
    }
    const r = parse(
      await exchange(port, 'GET /docs/assets/%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    expectEnvelope(r, 400, 'BAD_REQUEST');
  });
});

test('a request arriving while the server shuts down: 503 in the envelope; the call in flight completes', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const port = await listening({
    sources: fakeSources({ kind: 'live', onCall: (_op, target) => (target === 'alice' ? gate : undefined) }),
  });
  const socket = connect(port, '127.0.0.1');
  let out = '';
  socket.on('data', (d) => {
    out += d.toString();
  });
  const body = JSON.stringify({ username: 'alice', limit: 1 });
  socket.write(
    `POST /api/v1/clipnet/posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-API-Key: ${t!.key}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  await new Promise((r) => setTimeout(r, 100));
  const app = t!;
  t = undefined;
  const closed = app.close();
  await new Promise((r) => setTimeout(r, 100));
  release();
  while (!out.includes('"success"')) await new Promise((r) => setTimeout(r, 10));
  expect(out).toMatch(/^HTTP\/1\.1 200 /);
  out = '';
  const ended = new Promise((r) => socket.on('close', r));
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  await ended;
  const r = parse(out);
  expectEnvelope(r, 503, 'SERVICE_UNAVAILABLE');
  expect(r.headers.get('retry-after')).toBe('1');
  await closed;
});

describe('log lines', () => {
  async function logged(level: string) {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const sources = fakeSources();
    const original = sources.clipnet.userPosts.bind(sources.clipnet);
    sources.clipnet.userPosts = async (q, ctx) => {
      if (q.username === 'crash') throw new Error('internal detail');
      return original(q, ctx);
    };
    t = await startApp({ logger: pino({ level }, sink), sources });
    expect((await t.post('/clipnet/posts', { username: 'alice', limit: 1 })).statusCode).toBe(200);
    expect((await t.post('/clipnet/posts', { username: 'crash', limit: 1 })).statusCode).toBe(500);
    expect((await t.post('/clipnet/posts', { username: 'alice' }, { 'x-api-key': 'gl_x' })).statusCode).toBe(
      401,
    );
    return lines;
  }

  test('at info: one line per request and the failure, each naming its request once', async () => {
    const lines = await logged('info');
    const perRequest = lines.filter((l) => l.includes('"reqId"'));
    expect(perRequest.filter((l) => l.includes('"msg":"request"'))).toHaveLength(3);
    expect(perRequest.filter((l) => l.includes('"msg":"request failed"'))).toHaveLength(1);
    for (const l of perRequest) expect(l.match(/"reqId"/g), l).toHaveLength(1);
  });

  test('at warn: the failure names its request once', async () => {
    const lines = await logged('warn');
    const failed = lines.filter((l) => l.includes('"msg":"request failed"'));
    expect(failed).toHaveLength(1);
    expect(failed[0]!.match(/"reqId":"req_[0-9a-f]{24}"/g)).toHaveLength(1);
  });
});
