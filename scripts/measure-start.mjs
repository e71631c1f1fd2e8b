// Measures how long `npm start` takes to answer /healthz: a first start after `npm ci` (no build
// yet, no sandbox world file yet) and a restart with unchanged sources. Prints one line each and
// the figures used in the README. Runs `npm start` exactly as a user does, on a free port with a
// throwaway ledger and sandbox file.
//   node scripts/measure-start.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './build.mjs';

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function timeToHealthy(env) {
  const started = performance.now();
  const proc = spawn('npm', ['start', '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  const url = `http://127.0.0.1:${env.PORT}/healthz`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`npm start exited: ${stderr}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
  return seconds;
}

const dir = mkdtempSync(join(tmpdir(), 'gleaner-start-'));
try {
  const env = {
    ...process.env,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'ledger.db')}`,
    SANDBOX_DB: join(dir, 'sandbox.db'),
    LOG_LEVEL: 'warn',
  };
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const first = await timeToHealthy(env);
  const restart = await timeToHealthy(env);
  console.log(`first start (build + sandbox world + ledger): ${first.toFixed(1)} s to /healthz`);
  console.log(`restart, sources unchanged:                   ${restart.toFixed(1)} s to /healthz`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
