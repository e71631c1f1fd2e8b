// Load benchmark (npm run bench:load): requests per second and p50/p99 latency of
// POST /api/v1/clipnet/posts {username, limit: 10} (sandbox, no enrichment) on Gleaner with
// SQLite and with PostgreSQL, beside a bare Fastify route answering the same bytes, in the same
// run on the same machine, so that the cost of auth + billing + envelope reads as a ratio.
// Everything on loopback; autocannon runs in this process, each server in its own.
//   BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_ENV (extra server
//   settings, e.g. "KEY_CACHE_SECONDS=2")
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

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const EXTRA_ENV = Object.fromEntries(
  (process.env.BENCH_ENV ?? '')
    .split(/[ ,]+/)
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string]),
);
const PATH = '/api/v1/clipnet/posts';
const BODY = JSON.stringify({ username: 'rafatech', limit: 10 });

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(name: string, url: string, headers: Record<string, string>): Promise<Figures> {
  const opts = { url: url + PATH, method: 'POST' as const, headers, body: BODY, connections: CONNECTIONS };
  await autocannon({ ...opts, duration: 2 }); // warm-up: JIT, caches, connection pools
  const r = await autocannon({ ...opts, duration: SECONDS });
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** a bare Fastify server answering every POST with `body`, in its own process */
async function bareServer(body: string): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const script = `
    import Fastify from 'fastify';
    const body = process.env.BARE_BODY;
    const app = Fastify({ logger: false });
    app.post('${PATH}', async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
  `;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', BARE_BODY: body },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await http(url + PATH, { body: '{}', headers: { 'content-type': 'application/json' } });
      return { url, proc };
    } catch {
      await sleep(100);
    }
  }
  throw new Error('the bare server did not start');
}

async function gleaner(name: string, databaseUrl: string): Promise<{ figures: Figures; body: string }> {
  const cluster = await startCluster(1, databaseUrl, { ...EXTRA_ENV });
  try {
    const inst: Instance = cluster.instances[0]!;
    const key = await createKey(inst.url, 1_000_000_000);
    const headers = { 'content-type': 'application/json', 'x-api-key': key.key };
    const sample = await http(inst.url + PATH, { headers, body: BODY });
    if (sample.status !== 200) throw new Error(`${name}: ${sample.status} ${sample.body}`);
    return { figures: await load(name, inst.url, headers), body: sample.body };
  } finally {
    await cluster.stop();
  }
}

async function main() {
  buildOnce();
  const sqlite = sqliteDatabase();
  const pg = await createTestDatabase();
  try {
    const onSqlite = await gleaner('Gleaner, SQLite', sqlite.url);
    const bare = await bareServer(onSqlite.body);
    let bareFigures: Figures;
    try {
      bareFigures = await load('bare Fastify, same bytes', bare.url, { 'content-type': 'application/json' });
    } finally {
      bare.proc.kill('SIGTERM');
    }
    const onPostgres = await gleaner('Gleaner, PostgreSQL', pg.url);
    const rows = [bareFigures, onSqlite.figures, onPostgres.figures];
    const target: Record<string, number> = { 'Gleaner, SQLite': 0.5, 'Gleaner, PostgreSQL': 0.3 };
    const lines = [
      `POST ${PATH} ${BODY} → ${Buffer.byteLength(onSqlite.body)} bytes; ${CONNECTIONS} connections, ${SECONDS} s each${
        Object.keys(EXTRA_ENV).length ? `; ${process.env.BENCH_ENV}` : ''
      }`,
      '',
      '| server | req/s | p50 ms | p99 ms | errors | non-2xx | ratio to bare | target |',
      '|---|---|---|---|---|---|---|---|',
      ...rows.map((r) => {
        const ratio = r.rps / bareFigures.rps;
        const t = target[r.name];
        return `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${(ratio * 100).toFixed(0)}% | ${
          t === undefined ? '' : `${t * 100}% ${ratio >= t ? 'met' : 'MISSED'}`
        } |`;
      }),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
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
