// Enrichment over HTTP (npm run bench -- enrichment-http): texts per second of POST /api/v1/ml/analyze
// with all four enrichment types, the server process pinned to one core (taskset) and the load from
// wrk pinned to the other, against VADER's sentiment-only speed on one core (a child process pinned
// to the server's core, over the same texts). Every request carries texts never sent before (wrk's
// Lua script walks a file of distinct request bodies), so the enrichment cache never answers.
// VADER and the server are measured in interleaved rounds; the ratio is the median of the
// per-round ratios. Exits 1 below REQUIRED_RATIO.
//   BENCH_SECONDS (per round, default 4), BENCH_ROUNDS (default 3), BENCH_TEXTS (texts per request,
//   default 20), BENCH_CONNECTIONS (default 8), BENCH_SERVER_CPU / BENCH_LOAD_CPU (default 1 / 0),
//   BENCH_PROVIDER (default model-2.0-flash)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOnce, createKey, sqliteDatabase, startCluster } from '../scripts/lib/cluster.js';
import { goEmotions, tweetEval } from '../scripts/train/data.js';
import { ENRICHMENT_TYPES } from '../src/contract/items.js';
import { ROOT } from '../src/paths.js';
import { requireLoadTools, wrkSummary } from './lib/wrk.js';

const REQUIRED_RATIO = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const PER_REQUEST = Number(process.env.BENCH_TEXTS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const SERVER_CPU = process.env.BENCH_SERVER_CPU ?? '1';
const LOAD_CPU = process.env.BENCH_LOAD_CPU ?? '0';
const PROVIDER = process.env.BENCH_PROVIDER ?? 'model-2.0-flash';
/** VADER reads the first texts; the server gets the others, each once */
const VADER_SAMPLE = 5_000;

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

// VADER on one core, in its own process: texts per second over the same texts for SECONDS
const VADER_SCRIPT = `
import { readFileSync } from 'node:fs';
import vader from 'vader-sentiment';
const texts = JSON.parse(readFileSync(process.env.BENCH_TEXTS_FILE, 'utf8'));
for (let k = 0; k < 2000; k++) vader.SentimentIntensityAnalyzer.polarity_scores(texts[k % texts.length]);
let n = 0;
const t0 = performance.now();
while (performance.now() - t0 < Number(process.env.BENCH_MS)) {
  for (let k = 0; k < 100; k++) vader.SentimentIntensityAnalyzer.polarity_scores(texts[(n + k) % texts.length]);
  n += 100;
}
process.stdout.write(String((n / (performance.now() - t0)) * 1000));
`;

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

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export default async function run(): Promise<void> {
  requireLoadTools();
  buildOnce();
  const texts = distinctTexts();
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-enrich-http-'));
  const db = sqliteDatabase();
  const cluster = await startCluster(1, db.url, { ENRICH_THREADS: '1' }, { cpus: SERVER_CPU });
  try {
    const inst = cluster.instances[0]!;
    const key = await createKey(inst.url, 1_000_000_000);
    const script = join(dir, 'analyze.lua');
    writeFileSync(script, WRK_SCRIPT);
    const textsFile = join(dir, 'texts.json');
    writeFileSync(textsFile, JSON.stringify(texts.slice(0, VADER_SAMPLE)));
    // request bodies in disjoint blocks: the warm-up and each round read their own block
    let next = 0;
    const bodiesFile = (n: number) => {
      const lines: string[] = [];
      for (let r = 0; r < n; r++) {
        const batch = texts.slice(next, next + PER_REQUEST);
        next += PER_REQUEST;
        if (batch.length < PER_REQUEST) throw new Error('not enough distinct texts for this run');
        lines.push(JSON.stringify({ texts: batch, enrich: [...ENRICHMENT_TYPES], llm_provider: PROVIDER }));
      }
      const f = join(dir, `bodies-${next}.txt`);
      writeFileSync(f, `${lines.join('\n')}\n`);
      return f;
    };
    const wrk = (seconds: number, bodies: string) => {
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
          `${inst.url}/api/v1/ml/analyze`,
        ],
        { env: { ...process.env, BENCH_BODIES: bodies, BENCH_KEY: key.key }, encoding: 'utf8' },
      );
      const s = wrkSummary(r);
      if (s.errors! > 0 || s.non2xx! > 0) throw new Error(`wrk: ${s.errors} errors, ${s.non2xx} non-2xx`);
      return { texts: (s.requests! * PER_REQUEST) / (s.duration_us! / 1e6), requests: s.requests! };
    };
    const vaderRate = () => {
      const r = spawnSync(
        'taskset',
        ['-c', SERVER_CPU, process.execPath, '--input-type=module', '-e', VADER_SCRIPT],
        {
          cwd: ROOT,
          env: { ...process.env, BENCH_TEXTS_FILE: textsFile, BENCH_MS: String(SECONDS * 1000) },
          encoding: 'utf8',
        },
      );
      if (r.status !== 0) throw new Error(`VADER run failed: ${r.stderr}`);
      return Number(r.stdout);
    };
    // a round can at most read this many requests: a generous bound on the server's speed
    const perRound = Math.ceil((SECONDS * 20_000) / PER_REQUEST);
    const remaining = texts.length - VADER_SAMPLE;
    const blocks = Math.min(perRound, Math.floor(remaining / PER_REQUEST / (ROUNDS + 1)));
    next = VADER_SAMPLE; // VADER's sample comes first; the server never sees it
    wrk(2, bodiesFile(blocks)); // warm-up: JIT, models, connections
    const server: number[] = [];
    const vaderRates: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const v = vaderRate();
      const s = wrk(SECONDS, bodiesFile(blocks));
      if (s.requests >= blocks) throw new Error('a round ran out of distinct bodies; lower BENCH_SECONDS');
      vaderRates.push(v);
      server.push(s.texts);
      ratios.push(s.texts / v);
    }
    const ratio = median(ratios);
    console.log(
      `POST /api/v1/ml/analyze, ${PER_REQUEST} texts per request, all four types, ${PROVIDER}; server on CPU ${SERVER_CPU} ` +
        `(ENRICH_THREADS=1), wrk on CPU ${LOAD_CPU} with ${CONNECTIONS} connections; every text sent once; ` +
        `${ROUNDS} interleaved rounds of ${SECONDS} s`,
    );
    console.log(
      `server:  ${median(server).toFixed(0)} texts/s (rounds ${server.map((x) => x.toFixed(0)).join(' / ')})`,
    );
    console.log(
      `VADER sentiment only, one core: ${median(vaderRates).toFixed(0)} texts/s (rounds ${vaderRates.map((x) => x.toFixed(0)).join(' / ')})`,
    );
    const met = ratio >= REQUIRED_RATIO;
    console.log(
      `ratio (median of per-round ratios): ${ratio.toFixed(2)} (rounds ${ratios.map((x) => x.toFixed(2)).join(' / ')}); ` +
        `requirement ≥ ${REQUIRED_RATIO.toFixed(2)}: ${met ? 'met' : 'NOT MET'}`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    await cluster.stop();
    db.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}
