// A newcomer's first hour, checked as they would live it (npm run check:first-hour; .ci/run runs
// it after the test suite): clone this repository into a temporary folder, run the README's
// install-and-start command exactly as written, wait for the demo key it prints, run every Quick
// start curl exactly as written (only the port and $KEY filled in), and check that each answers
// items and costs what the README's price table says. The README's other command (install and
// test) must be the one .ci/run runs, which is what runs it. Exits 1 on any failure.
//   KEEP=1 keeps the clone; PORT picks the port (default: a free one).
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { freePort } from './lib/cluster.js';
import { expectedCost, items, priceTable, quickStart, readReadme, section } from './lib/readme.js';

const failures: string[] = [];
const fail = (what: string) => {
  failures.push(what);
  process.stdout.write(`  FAIL ${what}\n`);
};
const ok = (what: string) => process.stdout.write(`  ok   ${what}\n`);

/** the commands of the README's first shell block (its two set-up commands) */
function setupCommands(readme: string): string[] {
  const m = /```sh\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error('README has no sh block');
  return (m[1] as string)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** the Quick start's curl commands as written (continuation lines joined) */
function quickStartCurls(readme: string): string[] {
  const block = /```sh\n([\s\S]*?)```/.exec(section(readme, 'Quick start'));
  if (!block) throw new Error('README Quick start has no sh block');
  return (block[1] as string)
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('curl '));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-first-hour-'));
  const clone = join(dir, 'gleaner');
  let server: ChildProcess | undefined;
  try {
    process.stdout.write(`cloning into ${clone}\n`);
    execFileSync('git', ['clone', '--quiet', ROOT, clone]);
    const readme = readReadme(clone);
    const [start, test, ...rest] = setupCommands(readme);
    if (!start || !test || rest.length > 0)
      throw new Error('README does not give exactly two set-up commands');
    ok(`README gives two commands: "${start}" and "${test}"`);

    // the test command is what CI runs
    const ci = readFileSync(join(clone, '.ci/run'), 'utf8');
    const ciRuns = test
      .split('&&')
      .every((part) => ci.includes(part.trim().split(' ').slice(0, 3).join(' ')));
    if (ciRuns) ok(`.ci/run runs the README's test command (${test})`);
    else fail(`.ci/run does not run the README's test command "${test}"`);

    // install and start, exactly as written
    const port = Number(process.env.PORT ?? (await freePort()));
    const started = performance.now();
    server = spawn('sh', ['-c', start], {
      cwd: clone,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CI: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stderr = '';
    server.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    server.stdout?.resume();
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      if (server.exitCode !== null)
        throw new Error(`"${start}" exited with ${server.exitCode}: ${stderr.slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`"${start}" did not answer /healthz in 15 minutes`);
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {}
      await new Promise((r) => setTimeout(r, 250));
    }
    ok(
      `"${start}" answers /healthz after ${((performance.now() - started) / 1000).toFixed(0)} s (install included)`,
    );
    const key = /X-API-Key: (gl_\S+)/.exec(stderr)?.[1];
    if (!key) throw new Error(`no demo key printed: ${stderr.slice(-1000)}`);
    ok('a demo key was printed once');

    // every Quick start request, as written
    const table = priceTable(readme);
    const requests = quickStart(readme);
    const curls = quickStartCurls(readme);
    if (curls.length !== requests.length || curls.length === 0)
      fail(`Quick start: ${curls.length} curl commands but ${requests.length} readable requests`);
    for (const [i, curl] of curls.entries()) {
      const req = requests[i]!;
      const cmd = curl.replaceAll('http://127.0.0.1:8080', base);
      const r = spawnSync('sh', ['-c', cmd], { env: { ...process.env, KEY: key }, encoding: 'utf8' });
      let j: { success?: boolean; data?: Record<string, unknown>; metadata?: { credits_used?: number } };
      try {
        j = JSON.parse(r.stdout);
      } catch {
        fail(`${req.path}: not JSON: ${r.stdout.slice(0, 200)} ${r.stderr.slice(0, 200)}`);
        continue;
      }
      if (!j.success || !j.data) {
        fail(`${req.path}: ${r.stdout.slice(0, 300)}`);
        continue;
      }
      const n = items(j.data);
      const cost = expectedCost(table, req.path, req.body, n);
      if (n === 0) fail(`${req.path}: no items`);
      else if (cost === undefined) fail(`${req.path}: no row in the README's price table`);
      else if (j.metadata?.credits_used !== cost)
        fail(
          `${req.path}: cost ${j.metadata?.credits_used} credits, the price table says ${cost} for ${n} items`,
        );
      else ok(`${req.path} ${JSON.stringify(req.body)}: ${n} items for ${cost} credits`);
    }

    // the dashboard the Quick start sends the reader to, from the build `npm start` made: its
    // page, and every style sheet and module it loads, following the modules' imports (uPlot's
    // build is served from its package, not from dist/)
    const dashboard = await fetch(`${base}/dashboard`);
    const queue = [...(await dashboard.text()).matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map(
      (m) => m[1] as string,
    );
    const served = new Set<string>();
    const broken: string[] = [];
    for (let asset = queue.shift(); asset !== undefined; asset = queue.shift()) {
      if (served.has(asset)) continue;
      served.add(asset);
      const r = await fetch(`${base}${asset}`);
      if (!r.ok) broken.push(`${asset} ${r.status}`);
      else if (asset.endsWith('.js'))
        for (const m of (await r.text()).matchAll(/^import .* from '\.\/([\w.-]+\.js)';$/gm))
          queue.push(`/dashboard/assets/${m[1]}`);
    }
    if (!dashboard.ok || broken.length > 0 || !served.has('/dashboard/assets/uplot.js'))
      fail(
        `/dashboard: page ${dashboard.status}; ${broken.join(', ') || `served ${[...served].join(', ')}`}`,
      );
    else ok(`/dashboard serves its page and the ${served.size} files it loads, uPlot's included`);

    // a stop signal stops it
    process.kill(-server.pid!, 'SIGTERM');
    const exited = await Promise.race([
      new Promise((r) => server!.once('exit', () => r(true))),
      new Promise((r) => setTimeout(() => r(false), 20_000)),
    ]);
    if (exited) ok('SIGTERM stopped the server');
    else fail('the server did not stop within 20 s of SIGTERM');
  } finally {
    if (server?.exitCode === null) {
      try {
        process.kill(-server.pid!, 'SIGKILL');
      } catch {}
    }
    if (process.env.KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    process.stdout.write(`first hour: ${failures.length} problem(s)\n`);
    process.exit(1);
  }
  process.stdout.write('first hour: every README command and Quick start example works as written\n');
}

main().catch((e: unknown) => {
  process.stdout.write(`first hour: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
