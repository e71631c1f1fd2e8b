// Load benchmark (npm run bench:load): requests per second and p50/p99 latency of
// POST /api/v1/clipnet/posts {username, limit: 10} (sandbox, no enrichment) on Gleaner with
// SQLite and with PostgreSQL, beside a bare Fastify route answering the same bytes, in the same
// run on the same machine, so that the cost of auth + billing + envelope reads as a ratio.
// Everything on loopback; autocannon runs in this process, each server in its own. The three
// servers run side by side and are measured in interleaved rounds (bare, SQLite, PostgreSQL,
// then again), so that a machine whose speed drifts during the run (shared cores) moves all
// three alike; the table gives each server's median round, and the ratio is the median of the
// per-round ratios to the bare route's round.
// The bare route answers with the JSON text as a string, as a handler normally does (Node encodes
// it to UTF-8 on every send); BENCH_BARE_BYTES=1 gives it the bytes pre-encoded instead, the
// cheapest answer there is, for a stricter comparison (Gleaner itself sends UTF-8 bytes).
//   BENCH_SECONDS (per round, default 5), BENCH_ROUNDS (default 5), BENCH_CONNECTIONS
//   (default 50), BENCH_BARE_BYTES, BENCH_ENV (extra server settings, e.g. "KEY_CACHE_SECONDS=0")
import { type ChildProcess, spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { ROOT } from '../src/paths.js';
import {
  buildOnce,
  createKey,
  freePort,
  http,
  type Instance,
  sleep,
  sqliteDatabase,
  startCluster,
} from '../test/reliability/lib/cluster.js';
import { createTestDatabase } from '../test/reliability/lib/pg.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** the bare route sends its body as pre-encoded bytes instead of a string */
const BARE_BYTES = process.env.BENCH_BARE_BYTES === '1';
const EXTRA_ENV = Object.fromEntries(
  (process.env.BENCH_ENV ?? '')
    .split(/[ ,]+/)
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string]),
);
const PATH = '/api/v1/clipnet/posts';
const BODY = JSON.stringify({ username: 'rafatech', limit: 10 });

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

interface Server {
  name: string;
  url: string;
  headers: Record<string, string>;
  rounds: Figures[];
  stop(): Promise<void>;
}

async function load(server: Server, duration: number): Promise<Figures> {
  const r = await autocannon({
    url: server.url + PATH,
    method: 'POST',
    headers: server.headers,
    body: BODY,
    connections: CONNECTIONS,
    duration,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** a bare Fastify server answering every POST with `body`, in its own process */
async function bareServer(body: string): Promise<Server> {
  const port = await freePort();
  const script = `
    import Fastify from 'fastify';
    const body = process.env.BARE_BYTES ? Buffer.from(process.env.BARE_BODY, 'utf8') : process.env.BARE_BODY;
    const app = Fastify({ logger: false });
    app.post('${PATH}', async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
  `;
  const proc: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', BARE_BODY: body, ...(BARE_BYTES ? { BARE_BYTES: '1' } : {}) },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  const server: Server = {
    name: BARE_BYTES ? 'bare Fastify, same bytes pre-encoded' : 'bare Fastify, same bytes',
    url,
    headers: { 'content-type': 'application/json' },
    rounds: [],
    stop: async () => {
      proc.kill('SIGTERM');
    },
  };
  for (let i = 0; i < 100; i++) {
    try {
      await http(url + PATH, { body: '{}', headers: server.headers });
      return server;
    } catch {
      await sleep(100);
    }
  }
  proc.kill('SIGKILL');
  throw new Error('the bare server did not start');
}

async function gleaner(name: string, databaseUrl: string): Promise<{ server: Server; body: string }> {
  const cluster = await startCluster(1, databaseUrl, { ...EXTRA_ENV });
  const inst: Instance = cluster.instances[0]!;
  const key = await createKey(inst.url, 1_000_000_000);
  const headers = { 'content-type': 'application/json', 'x-api-key': key.key };
  const sample = await http(inst.url + PATH, { headers, body: BODY });
  if (sample.status !== 200) {
    await cluster.stop();
    throw new Error(`${name}: ${sample.status} ${sample.body}`);
  }
  return {
    server: { name, url: inst.url, headers, rounds: [], stop: () => cluster.stop() },
    body: sample.body,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  buildOnce();
  const sqlite = sqliteDatabase();
  const pg = await createTestDatabase();
  const servers: Server[] = [];
  try {
    const onSqlite = await gleaner('Gleaner, SQLite', sqlite.url);
    servers.push(onSqlite.server);
    servers.push((await gleaner('Gleaner, PostgreSQL', pg.url)).server);
    servers.unshift(await bareServer(onSqlite.body));
    // warm-up: JIT, caches, connection pools
    for (const s of servers) await load(s, 2);
    for (let round = 0; round < ROUNDS; round++)
      for (const s of servers) s.rounds.push(await load(s, SECONDS));

    const bare = servers[0]!;
    const target: Record<string, number> = { 'Gleaner, SQLite': 0.5, 'Gleaner, PostgreSQL': 0.3 };
    const lines = [
      `POST ${PATH} ${BODY} → ${Buffer.byteLength(onSqlite.body)} bytes; ${CONNECTIONS} connections; ${ROUNDS} interleaved rounds of ${SECONDS} s per server${
        Object.keys(EXTRA_ENV).length ? `; ${process.env.BENCH_ENV}` : ''
      }`,
      '',
      '| server | req/s (median round) | req/s by round | p50 ms | p99 ms | errors | non-2xx | ratio to bare | target |',
      '|---|---|---|---|---|---|---|---|---|',
      ...servers.map((s) => {
        const rps = s.rounds.map((r) => r.rps);
        const mid = s.rounds.find((r) => r.rps === median(rps)) ?? s.rounds[0]!;
        const ratio = median(s.rounds.map((r, i) => r.rps / bare.rounds[i]!.rps));
        const t = target[s.name];
        const sum = (f: (r: Figures) => number) => s.rounds.reduce((a, r) => a + f(r), 0);
        return `| ${s.name} | ${median(rps).toFixed(0)} | ${rps.map((x) => x.toFixed(0)).join(' / ')} | ${mid.p50} | ${mid.p99} | ${sum((r) => r.errors)} | ${sum((r) => r.non2xx)} | ${(ratio * 100).toFixed(0)}% | ${
          t === undefined ? '' : `${t * 100}% ${ratio >= t ? 'met' : 'MISSED'}`
        } |`;
      }),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    sqlite.cleanup();
    await pg.drop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench:load failed: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
