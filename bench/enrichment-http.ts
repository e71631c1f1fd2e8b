// Enrichment over HTTP (npm run bench -- enrichment-http): texts per second of POST /api/v1/ml/analyze
// with all four enrichment types, the server process pinned to one core (taskset) and the load from
// wrk pinned to the other, against VADER's sentiment-only speed on one core (a process of its own
// pinned to the server's core, over the same kind of texts). Every request carries texts the server
// has never seen (wrk's Lua script walks a file of distinct request bodies, each server from where its
// last slice stopped), so the enrichment cache never answers.
// The machine's speed moves by up to half within a minute, so the measurement is made of short slices:
// each server is started once and warmed up, then every round runs VADER for one slice (while the
// servers are idle) and each server for one slice right after it (their order turned each round);
// a server's ratio is the median of its per-round ratios, each against the VADER slice of its own
// round, seconds apart. Beside the server's CPU per text it prints the analyzer's own computing time
// per text inside the server (from /metrics), which tells the request path's share from the
// analyzer's, and the wall time of its batches. Exits 1 below REQUIRED_RATIO.
//   BENCH_SECONDS (per slice, default 1), BENCH_ROUNDS (default 8), BENCH_TEXTS (texts per request,
//   default 20), BENCH_CONNECTIONS (default 8), BENCH_SERVER_CPU / BENCH_LOAD_CPU (default 1 / 0),
//   BENCH_PROVIDER (default model-2.0-flash), BENCH_TYPES (the enrichment types each request asks
//   for, comma-separated, default all four: fewer show the request path's share per text, e.g.
//   "topics"; the requirement holds for all four only, so it is not checked then),
//   BENCH_NODE_ARGS (flags for the servers' node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to
//   profile them; scripts/cpu-profile.ts reads the files),
//   BENCH_BASELINE=<git revision>[,…] (also runs each revision's server in the same rounds, against
//   the same VADER slices), BENCH_NODE_VARIANTS="<flags>;<flags>…" (also runs this checkout's server
//   with each set of node flags added, e.g. "--max-semi-space-size=64;--single-threaded-gc", in the
//   same rounds)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildOnce, createKey, http, sqliteDatabase, startCluster } from '../scripts/lib/cluster.js';
import { goEmotions, tweetEval } from '../scripts/train/data.js';
import { ENRICHMENT_TYPES } from '../src/contract/items.js';
import { ROOT } from '../src/paths.js';
import { BASELINES, baselineCheckout } from './lib/baseline.js';
import { cpuSeconds } from './lib/cpu.js';
import { requireLoadTools, wrkSummary } from './lib/wrk.js';

const REQUIRED_RATIO = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 8));
const PER_REQUEST = Number(process.env.BENCH_TEXTS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const SERVER_CPU = process.env.BENCH_SERVER_CPU ?? '1';
const LOAD_CPU = process.env.BENCH_LOAD_CPU ?? '0';
const PROVIDER = process.env.BENCH_PROVIDER ?? 'model-2.0-flash';
const TYPES = process.env.BENCH_TYPES
  ? process.env.BENCH_TYPES.split(',').filter(Boolean)
  : [...ENRICHMENT_TYPES];
const ALL_TYPES = ENRICHMENT_TYPES.every((t) => TYPES.includes(t));
const UNKNOWN_TYPES = TYPES.filter((t) => !(ENRICHMENT_TYPES as readonly string[]).includes(t));
const flagsOf = (s: string) => s.split(' ').filter(Boolean);
const NODE_ARGS = flagsOf(process.env.BENCH_NODE_ARGS ?? '');
const NODE_VARIANTS = (process.env.BENCH_NODE_VARIANTS ?? '')
  .split(';')
  .map(flagsOf)
  .filter((f) => f.length > 0);
/** VADER reads the first texts; the server gets the others, each once */
const VADER_SAMPLE = 5_000;
/** each server is warmed up on this many requests of other texts, for this long: after 2 s a fresh
 *  server still spends about a fifth more CPU per text than after 12 s */
const WARMUP_REQUESTS = Math.ceil(20_000 / PER_REQUEST);
const WARMUP_SECONDS = 10;
/** the pause between two slices, so that a server's last replies are sent before VADER's slice */
const PAUSE_MS = 100;

// each request takes the next body of the file; every connection's thread reads its own share
const WRK_SCRIPT = `
local bodies = {}
for line in io.lines(os.getenv("BENCH_BODIES")) do bodies[#bodies + 1] = line end
local i = tonumber(os.getenv("BENCH_START")) or 0
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["x-api-key"] = os.getenv("BENCH_KEY")
request = function()
  i = i + 1
  if i > #bodies then i = 1 end
  return wrk.format(nil, nil, nil, bodies[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\n{"requests":%d,"duration_us":%d,"errors":%d,"non2xx":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status))
end
`;

// VADER on one core, in a process of its own that stays up: each line it reads holds the milliseconds
// of a slice, and it answers with the texts per second of that slice (of wall-clock and of its own CPU
// time), walking on through the texts from where the last slice stopped
const VADER_SCRIPT = `
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import vader from 'vader-sentiment';
const texts = JSON.parse(readFileSync(process.env.BENCH_TEXTS_FILE, 'utf8'));
for (let k = 0; k < 2000; k++) vader.SentimentIntensityAnalyzer.polarity_scores(texts[k % texts.length]);
let at = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const ms = Number(line);
  let n = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  while (performance.now() - t0 < ms) {
    for (let k = 0; k < 100; k++) vader.SentimentIntensityAnalyzer.polarity_scores(texts[(at + k) % texts.length]);
    n += 100;
    at = (at + 100) % texts.length;
  }
  const c = process.cpuUsage(c0);
  process.stdout.write(JSON.stringify({ wall: (n / (performance.now() - t0)) * 1000, cpu: n / ((c.user + c.system) / 1e6) }) + '\\n');
});
`;

/** the VADER process: slice(ms) measures one slice; stop() ends the process */
function startVader(textsFile: string): { slice(ms: number): Promise<Rate>; stop(): void } {
  const child = spawn(
    'taskset',
    ['-c', SERVER_CPU, process.execPath, '--input-type=module', '-e', VADER_SCRIPT],
    {
      cwd: ROOT,
      env: { ...process.env, BENCH_TEXTS_FILE: textsFile },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  return {
    slice: (ms) =>
      new Promise<Rate>((resolve, reject) => {
        const failed = () => reject(new Error('the VADER process stopped'));
        child.once('exit', failed);
        waiting.push((line) => {
          child.off('exit', failed);
          resolve(JSON.parse(line) as Rate);
        });
        child.stdin!.write(`${ms}\n`);
      }),
    stop: () => {
      child.stdin!.end();
      child.kill();
    },
  };
}

function distinctTexts(): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const files = [
    tweetEval('sentiment/tweeteval-train.jsonl'),
    goEmotions('sentiment/goemotions-train.jsonl'),
    tweetEval('sentiment/tweeteval-val.jsonl'),
    goEmotions('sentiment/goemotions-dev.jsonl'),
  ].map((f) => f.map((e) => e.text));
  const longest = Math.max(...files.map((f) => f.length));
  // alternate tweets and Reddit comments
  for (let i = 0; i < longest; i++)
    for (const f of files) {
      const t = f[i];
      if (t?.trim() && !seen.has(t)) {
        seen.add(t);
        out.push(t);
      }
    }
  return out;
}

interface Server {
  name: string;
  url: string;
  key: string;
  pid: number;
  /** the next measured request body it reads */
  next: number;
  /** texts per second, and per-round ratios to VADER's rate (wall clock; CPU time) */
  rates: number[];
  /** texts per second of the server's CPU time, per round */
  cpuRates: number[];
  ratios: number[];
  cpuRatios: number[];
  /** µs per text the server's analyzer spent computing (NaN: the server does not report it), and
   *  the wall time of its batches, per round */
  analyzerUs: number[];
  analyzerWallUs: number[];
}

/** texts per second of wall-clock time, and per second of the process's CPU time */
interface Rate {
  wall: number;
  cpu: number;
}

/** seconds the server's analyzer has spent so far: `busy`, computing (the sum of
 *  gleaner_enrichment_busy_seconds_total over providers; undefined from a server without it), and
 *  `wall`, the wall time of its batches (gleaner_enrichment_duration_seconds, which under
 *  concurrency also holds waits for other requests' work); without the cache, billing or HTTP */
async function analyzerSeconds(url: string): Promise<{ busy: number | undefined; wall: number }> {
  const r = await http(`${url}/metrics`, { method: 'GET' });
  let busy: number | undefined;
  let wall = 0;
  for (const line of r.body.split('\n')) {
    const value = () => Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith('gleaner_enrichment_busy_seconds_total')) busy = (busy ?? 0) + value();
    else if (line.startsWith('gleaner_enrichment_duration_seconds_sum')) wall += value();
  }
  return { busy, wall };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export default async function run(): Promise<void> {
  if (TYPES.length === 0 || UNKNOWN_TYPES.length > 0)
    throw new Error(
      `BENCH_TYPES: ${UNKNOWN_TYPES.length > 0 ? `unknown ${UNKNOWN_TYPES.join(', ')}` : 'no type'}; the types are ${ENRICHMENT_TYPES.join(', ')}`,
    );
  requireLoadTools();
  buildOnce();
  const texts = distinctTexts();
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-enrich-http-'));
  // a ledger of its own for each server
  const dbs: ReturnType<typeof sqliteDatabase>[] = [];
  const baselines = BASELINES.map((rev) => baselineCheckout(rev));
  const clusters: Awaited<ReturnType<typeof startCluster>>[] = [];
  let vader: ReturnType<typeof startVader> | undefined;
  try {
    const script = join(dir, 'analyze.lua');
    writeFileSync(script, WRK_SCRIPT);
    const textsFile = join(dir, 'texts.json');
    writeFileSync(textsFile, JSON.stringify(texts.slice(0, VADER_SAMPLE)));
    const bodiesFile = (from: number, n: number) => {
      const lines: string[] = [];
      for (let r = 0; r < n; r++) {
        const batch = texts.slice(from + r * PER_REQUEST, from + (r + 1) * PER_REQUEST);
        if (batch.length < PER_REQUEST) throw new Error('not enough distinct texts for this run');
        lines.push(JSON.stringify({ texts: batch, enrich: TYPES, llm_provider: PROVIDER }));
      }
      const f = join(dir, `bodies-${from}.txt`);
      writeFileSync(f, `${lines.join('\n')}\n`);
      return f;
    };
    /** one run of wrk from body `start` on; `warmup`: errors are tolerated (a fresh server loads its
     *  models on the first requests, which on a busy machine can outlast wrk's 2 s timeout); a
     *  measured slice must have none */
    const wrk = (srv: Server, seconds: number, bodies: string, start: number, warmup = false) => {
      const cpu0 = cpuSeconds(srv.pid);
      const r = spawnSync(
        'taskset',
        [
          '-c',
          LOAD_CPU,
          'wrk',
          '-t1',
          `-c${CONNECTIONS}`,
          `-d${seconds}s`,
          '-s',
          script,
          `${srv.url}/api/v1/ml/analyze`,
        ],
        {
          env: { ...process.env, BENCH_BODIES: bodies, BENCH_KEY: srv.key, BENCH_START: String(start) },
          encoding: 'utf8',
        },
      );
      const s = wrkSummary(r);
      if (!warmup && (s.errors! > 0 || s.non2xx! > 0))
        throw new Error(`wrk: ${s.errors} errors, ${s.non2xx} non-2xx`);
      const texts = s.requests! * PER_REQUEST;
      const cpu = cpuSeconds(srv.pid) - cpu0;
      return { wall: texts / (s.duration_us! / 1e6), cpu: texts / cpu, requests: s.requests! };
    };
    // VADER's sample comes first (the servers never see it), then the warm-up texts, then the
    // measured ones: every server walks the same measured texts, each from where its last slice
    // stopped, so no text reaches a server twice (its enrichment cache never answers)
    const warmupRequests = WARMUP_REQUESTS;
    const measured = VADER_SAMPLE + warmupRequests * PER_REQUEST;
    const blocks = Math.floor((texts.length - measured) / PER_REQUEST);
    const warmupBodies = bodiesFile(VADER_SAMPLE, warmupRequests);
    const roundBodies = bodiesFile(measured, blocks);
    for (const baseline of baselines) buildOnce(baseline.root);
    const checkouts: Array<{ name: string; root?: string; flags?: string[] }> = [
      { name: 'server' },
      ...NODE_VARIANTS.map((flags) => ({ name: `server ${flags.join(' ')}`, flags })),
      ...baselines.map((b) => ({ name: `server @ ${b.rev}`, root: b.root })),
    ];
    const servers: Server[] = [];
    for (const c of checkouts) {
      const nodeArgs = [...NODE_ARGS, ...(c.flags ?? [])];
      const opts = { cpus: SERVER_CPU, nodeArgs, ...(c.root ? { root: c.root } : {}) };
      const db = sqliteDatabase();
      dbs.push(db);
      const cluster = await startCluster(1, db.url, { ENRICH_THREADS: '1' }, opts);
      clusters.push(cluster);
      const inst = cluster.instances[0]!;
      const key = await createKey(inst.url, 1_000_000_000);
      servers.push({
        name: c.name,
        url: inst.url,
        key: key.key,
        pid: inst.proc!.pid!,
        next: 0,
        rates: [],
        cpuRates: [],
        ratios: [],
        cpuRatios: [],
        analyzerUs: [],
        analyzerWallUs: [],
      });
    }
    // each server is warmed up alone, with the others idle
    for (const srv of servers) wrk(srv, WARMUP_SECONDS, warmupBodies, 0, true);
    vader = startVader(textsFile);
    const vaderRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await sleep(PAUSE_MS);
      const v = await vader.slice(SECONDS * 1000);
      vaderRates.push(v.wall);
      // the servers' order turns each round, so that none is always the furthest from VADER's slice
      for (let k = 0; k < servers.length; k++) {
        const srv = servers[(round + k) % servers.length]!;
        await sleep(PAUSE_MS);
        const analyzed0 = await analyzerSeconds(srv.url);
        const s = wrk(srv, SECONDS, roundBodies, srv.next);
        const analyzed = await analyzerSeconds(srv.url);
        // (the requests still in flight when wrk stopped were sent but not counted)
        srv.next += s.requests + CONNECTIONS;
        if (srv.next >= blocks)
          throw new Error(
            `a server ran out of distinct texts (${blocks * PER_REQUEST}); lower BENCH_ROUNDS or BENCH_SECONDS`,
          );
        const perText = (seconds: number) => (seconds * 1e6) / (s.requests * PER_REQUEST);
        srv.analyzerUs.push(
          analyzed.busy === undefined ? Number.NaN : perText(analyzed.busy - (analyzed0.busy ?? 0)),
        );
        srv.analyzerWallUs.push(perText(analyzed.wall - analyzed0.wall));
        srv.rates.push(s.wall);
        srv.cpuRates.push(s.cpu);
        srv.ratios.push(s.wall / v.wall);
        srv.cpuRatios.push(s.cpu / v.cpu);
      }
    }
    const list = (xs: readonly number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(' / ');
    console.log(
      `POST /api/v1/ml/analyze, ${PER_REQUEST} texts per request, ${ALL_TYPES ? 'all four types' : TYPES.join(', ')}, ${PROVIDER}; server on CPU ${SERVER_CPU} ` +
        `(ENRICH_THREADS=1), wrk on CPU ${LOAD_CPU} with ${CONNECTIONS} connections; every text new to the server; ` +
        `each server warmed up for ${WARMUP_SECONDS} s, then ${ROUNDS} rounds of a ${SECONDS} s slice of VADER and one of each server`,
    );
    console.log(
      `VADER sentiment only, one core: ${median(vaderRates).toFixed(0)} texts/s (rounds ${list(vaderRates, 0)})`,
    );
    for (const srv of servers)
      console.log(
        `${srv.name}: ${median(srv.rates).toFixed(0)} texts/s (rounds ${list(srv.rates, 0)}); ` +
          `ratio ${median(srv.ratios).toFixed(2)} (rounds ${list(srv.ratios, 2)}); ` +
          `per CPU second ${median(srv.cpuRatios).toFixed(2)} (rounds ${list(srv.cpuRatios, 2)}); ` +
          `${(1e6 / median(srv.cpuRates)).toFixed(0)} µs of server CPU per text, of which the analyzer's ` +
          (srv.analyzerUs.some(Number.isNaN)
            ? ''
            : `computing ${median(srv.analyzerUs).toFixed(0)} µs (rounds ${list(srv.analyzerUs, 0)}; gleaner_enrichment_busy_seconds_total), `) +
          `its batches' wall time ${median(srv.analyzerWallUs).toFixed(0)} µs (rounds ${list(srv.analyzerWallUs, 0)}; gleaner_enrichment_duration_seconds)`,
      );
    for (const b of servers.slice(1)) {
      const paired = servers[0]!.ratios.map((r, i) => r / b.ratios[i]!);
      console.log(
        `${servers[0]!.name} against ${b.name}, round by round: ${median(paired).toFixed(2)}× (rounds ${list(paired, 2)})`,
      );
    }
    // the requirement reads the wall-clock ratio; the CPU-time ratio says what the server did with
    // the share of its core that it got when other processes ran on it too
    const ratio = median(servers[0]!.ratios);
    const met = ratio >= REQUIRED_RATIO;
    console.log(
      `ratio (median of per-round ratios): ${ratio.toFixed(2)}; ` +
        (ALL_TYPES
          ? `requirement ≥ ${REQUIRED_RATIO.toFixed(2)}: ${met ? 'met' : 'NOT MET'}`
          : 'the requirement (all four types) is not checked'),
    );
    if (ALL_TYPES && !met) process.exitCode = 1;
  } finally {
    vader?.stop();
    for (const c of clusters) await c.stop();
    for (const b of baselines) b.remove();
    for (const db of dbs) db.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}
