// Load benchmark (npm run bench:load): requests per second, latency and the server's CPU time per
// request of POST /api/v1/clipnet/posts {username, limit: 10} (sandbox, no enrichment) on Gleaner
// with SQLite and with PostgreSQL, beside a bare Fastify route answering the same bytes, in the
// same run on the same machine, so that the cost of auth + billing + envelope reads as a ratio.
//
// The load comes from wrk (a C load generator, Debian package `wrk`) pinned to one core and every
// server process pinned to another (taskset): a load generator in JavaScript would take the CPU
// the server needs on a 2-core machine. The servers are measured in interleaved rounds (bare,
// SQLite, PostgreSQL, then again), so that a machine whose speed drifts moves all of them alike;
// the table gives each server's median round, the ratio is the median of the per-round ratios to
// the bare route's round, and CPU µs/request is the server process's user+system time (all its
// threads, from /proc) over the requests it answered in the round. The PostgreSQL server itself
// is not pinned: its CPU is not in the per-request figure, and it shares the cores with both.
//
// BENCH_BASELINE=<git revision>[,<revision>…] also runs each revision's server (built in a temporary
// worktree) in the same rounds, so a change is compared with what came before it in one run.
//   BENCH_SECONDS (per round, default 5), BENCH_ROUNDS (default 5), BENCH_CONNECTIONS (default 50),
//   BENCH_SERVER_CPU / BENCH_LOAD_CPU (cores, default 1 and 0), BENCH_BARE_BYTES (the bare route
//   sends pre-encoded bytes), BENCH_ENV (extra server settings, e.g. "KEY_CACHE_SECONDS=0")
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildOnce,
  createKey,
  freePort,
  http,
  sleep,
  sqliteDatabase,
  startCluster,
} from '../scripts/lib/cluster.js';
import { writeDocSection } from '../scripts/lib/doc-section.js';
import { createTestDatabase } from '../scripts/lib/pg.js';
import { ROOT } from '../src/paths.js';
import { BASELINES, baselineCheckout } from './lib/baseline.js';
import { cpuSeconds } from './lib/cpu.js';
import { requireLoadTools, wrkSummary } from './lib/wrk.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SERVER_CPU = process.env.BENCH_SERVER_CPU ?? '1';
const LOAD_CPU = process.env.BENCH_LOAD_CPU ?? '0';
/** the bare route sends its body as pre-encoded bytes instead of a string */
const BARE_BYTES = process.env.BENCH_BARE_BYTES === '1';
const EXTRA_ENV = Object.fromEntries(
  (process.env.BENCH_ENV ?? '')
    .split(/[ ,]+/)
    .filter(Boolean)
    .map((kv) => {
      const at = kv.indexOf('=');
      return [kv.slice(0, at), kv.slice(at + 1)] as [string, string];
    }),
);
const PATH = '/api/v1/clipnet/posts';
const BODY = JSON.stringify({ username: 'rafatech', limit: 10 });
const TARGET: Record<string, number> = { SQLite: 0.5, PostgreSQL: 0.3 };

interface Figures {
  rps: number;
  p50ms: number;
  p99ms: number;
  errors: number;
  non2xx: number;
  /** server CPU time per answered request, in microseconds */
  cpuUs: number;
}

interface Server {
  name: string;
  /** the ledger it runs on, for its target ('' for the bare route) */
  ledger: string;
  url: string;
  pid: number;
  key?: string;
  rounds: Figures[];
  stop(): Promise<void>;
}

// wrk reads the request from this script and prints its summary as one JSON line
const WRK_SCRIPT = `
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["content-type"] = "application/json"
local key = os.getenv("BENCH_KEY")
if key and key ~= "" then wrk.headers["x-api-key"] = key end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\n{"requests":%d,"duration_us":%d,"errors":%d,"non2xx":%d,"p50_us":%d,"p99_us":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
`;

function wrk(script: string, server: Server, seconds: number): Figures {
  const cpu0 = cpuSeconds(server.pid);
  const r = spawnSync(
    'taskset',
    ['-c', LOAD_CPU, 'wrk', '-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '-s', script, server.url + PATH],
    { env: { ...process.env, BENCH_BODY: BODY, BENCH_KEY: server.key ?? '' }, encoding: 'utf8' },
  );
  const cpu = cpuSeconds(server.pid) - cpu0;
  const s = wrkSummary(r);
  const requests = s.requests!;
  return {
    rps: requests / (s.duration_us! / 1e6),
    p50ms: s.p50_us! / 1000,
    p99ms: s.p99_us! / 1000,
    errors: s.errors!,
    non2xx: s.non2xx!,
    cpuUs: requests > 0 ? (cpu / requests) * 1e6 : 0,
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
  const proc: ChildProcess = spawn(
    'taskset',
    ['-c', SERVER_CPU, process.execPath, '--input-type=module', '-e', script],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BARE_BODY: body, ...(BARE_BYTES ? { BARE_BYTES: '1' } : {}) },
      stdio: 'inherit',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const server: Server = {
    name: BARE_BYTES ? 'bare Fastify, same bytes pre-encoded' : 'bare Fastify, same bytes',
    ledger: '',
    url,
    pid: proc.pid!,
    rounds: [],
    stop: async () => {
      proc.kill('SIGTERM');
    },
  };
  for (let i = 0; i < 100; i++) {
    try {
      await http(url + PATH, { body: '{}', headers: { 'content-type': 'application/json' } });
      return server;
    } catch {
      await sleep(100);
    }
  }
  proc.kill('SIGKILL');
  throw new Error('the bare server did not start');
}

async function gleaner(
  label: string,
  ledger: string,
  databaseUrl: string,
  root = ROOT,
): Promise<{ server: Server; body: string }> {
  const cluster = await startCluster(1, databaseUrl, { ...EXTRA_ENV }, { root, cpus: SERVER_CPU });
  const inst = cluster.instances[0]!;
  const key = await createKey(inst.url, 1_000_000_000);
  const sample = await http(inst.url + PATH, {
    headers: { 'content-type': 'application/json', 'x-api-key': key.key },
    body: BODY,
  });
  if (sample.status !== 200) {
    await cluster.stop();
    throw new Error(`${label}, ${ledger}: ${sample.status} ${sample.body}`);
  }
  return {
    server: {
      name: `${label}, ${ledger}`,
      ledger,
      url: inst.url,
      pid: inst.proc!.pid!,
      key: key.key,
      rounds: [],
      stop: () => cluster.stop(),
    },
    body: sample.body,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  requireLoadTools();
  buildOnce();
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-load-'));
  const script = join(dir, 'post.lua');
  writeFileSync(script, WRK_SCRIPT);
  const databases = [sqliteDatabase(), ...BASELINES.map(() => sqliteDatabase())];
  const pgs = [await createTestDatabase()];
  for (const _ of BASELINES) pgs.push(await createTestDatabase());
  const baselines = BASELINES.map((rev) => baselineCheckout(rev));
  const servers: Server[] = [];
  try {
    const onSqlite = await gleaner('Gleaner', 'SQLite', databases[0]!.url);
    servers.push(onSqlite.server, (await gleaner('Gleaner', 'PostgreSQL', pgs[0]!.url)).server);
    for (const [i, baseline] of baselines.entries()) {
      buildOnce(baseline.root);
      const label = `Gleaner ${baseline.rev}`;
      servers.push((await gleaner(label, 'SQLite', databases[i + 1]!.url, baseline.root)).server);
      servers.push((await gleaner(label, 'PostgreSQL', pgs[i + 1]!.url, baseline.root)).server);
    }
    servers.unshift(await bareServer(onSqlite.body));
    // warm-up: JIT, caches, connection pools
    for (const s of servers) wrk(script, s, 2);
    for (let round = 0; round < ROUNDS; round++)
      for (const s of servers) s.rounds.push(wrk(script, s, SECONDS));

    const bare = servers[0]!;
    const lines = [
      `POST ${PATH} ${BODY} → ${Buffer.byteLength(onSqlite.body)} bytes; wrk on CPU ${LOAD_CPU}, ${CONNECTIONS} connections; servers on CPU ${SERVER_CPU}; ${ROUNDS} interleaved rounds of ${SECONDS} s per server${
        Object.keys(EXTRA_ENV).length ? `; ${process.env.BENCH_ENV}` : ''
      }`,
      '',
      '| server | req/s (median round) | req/s by round | server CPU µs/request | p50 ms | p99 ms | errors | non-2xx | ratio to bare | target |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...servers.map((s) => {
        const rps = s.rounds.map((r) => r.rps);
        const mid = s.rounds.find((r) => r.rps === median(rps)) ?? s.rounds[0]!;
        const ratio = median(s.rounds.map((r, i) => r.rps / bare.rounds[i]!.rps));
        const t = TARGET[s.ledger];
        const sum = (f: (r: Figures) => number) => s.rounds.reduce((a, r) => a + f(r), 0);
        return `| ${s.name} | ${median(rps).toFixed(0)} | ${rps.map((x) => x.toFixed(0)).join(' / ')} | ${median(s.rounds.map((r) => r.cpuUs)).toFixed(0)} | ${mid.p50ms.toFixed(2)} | ${mid.p99ms.toFixed(2)} | ${sum((r) => r.errors)} | ${sum((r) => r.non2xx)} | ${(ratio * 100).toFixed(0)}% | ${
          t === undefined ? '' : `${t * 100}% ${ratio >= t ? 'met' : 'MISSED'}`
        } |`;
      }),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (process.env.BENCH_WRITE === '1')
      writeDocSection(
        join(ROOT, 'docs/reliability.md'),
        'bench:load',
        `Run of ${new Date().toISOString().slice(0, 10)} on ${availableParallelism()} cores, Node ${process.version}${BASELINES.length ? `, beside ${BASELINES.join(' and ')}` : ''}:\n\n${lines.join('\n')}`,
      );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    for (const d of databases) d.cleanup();
    for (const p of pgs) await p.drop();
    for (const b of baselines) b.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench:load failed: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
