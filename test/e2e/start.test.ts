// `npm start` as a newcomer runs it: the real process on its embedded defaults (SQLite ledger,
// sandbox, built-in analyzer), a demo key printed once (on stderr, apart from the JSON logs on
// stdout), process metrics, and a clean shutdown on SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'gleaner-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Running {
  child: ChildProcess;
  base: string;
  demoKey: string | null;
  stdout: () => string;
  stderr: () => string;
}

function start(): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      DATABASE_URL: `sqlite:${join(dir, 'ledger.db')}`,
      LOG_LEVEL: 'info',
      ENRICH_THREADS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${out}\n${err}`)), 90_000);
    // The banner (stderr) is written before the listening line (stdout), but the two pipes are
    // read apart, so the banner may arrive after it: wait for it a little once listening.
    let grace: NodeJS.Timeout | undefined;
    let done = false;
    const settle = (base: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(grace);
      const demoKey = /X-API-Key: (gl_\S+)/.exec(err)?.[1] ?? null;
      resolve({ child, base, demoKey, stdout: () => out, stderr: () => err });
    };
    const check = () => {
      const listening = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (!listening || done) return;
      const base = (JSON.parse(listening) as { url: string }).url;
      if (/X-API-Key: gl_\S+\s/.test(err)) settle(base);
      else grace ??= setTimeout(() => settle(base), 3000);
    };
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      check();
    });
    child.stderr!.on('data', (b: Buffer) => {
      err += b.toString();
      check();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      clearTimeout(grace);
      reject(new Error(`exited with ${code}:\n${out}\n${err}`));
    });
  });
}

function stop(r: Running): Promise<number | null> {
  return new Promise((resolve) => {
    r.child.removeAllListeners('exit');
    r.child.on('exit', (code) => resolve(code));
    r.child.kill('SIGTERM');
  });
}

const post = (base: string, key: string, path: string, body: unknown) =>
  fetch(`${base}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });

test('first start prints a working demo key once; the API works offline; SIGTERM exits cleanly', async () => {
  const first = await start();
  try {
    expect(first.demoKey).toMatch(/^gl_[A-Za-z0-9_-]{32}$/);
    const key = first.demoKey!;
    // the key appears only in the banner on stderr; stdout holds JSON log lines only, none with it
    expect(first.stderr()).toContain('Gleaner created a demo key');
    expect(first.stderr()).toContain(`X-API-Key: ${key}`);

    const a = await post(first.base, key, '/ml/analyze', {
      texts: [
        'I absolutely love this, best purchase ever!',
        'This is the worst service, still waiting for my refund',
      ],
      enrich: ['sentiment', 'topics', 'intent', 'keywords'],
    });
    expect(a.status).toBe(200);
    const aj = (await a.json()) as any;
    expect(aj.data.results[0].enrichment.sentiment).toBe('positive');
    expect(aj.data.results[1].enrichment.sentiment).toBe('negative');
    expect(aj.metadata.credits_used).toBe(6);
    expect(aj.metadata.credits_remaining).toBe(994);

    const p = await post(first.base, key, '/clipnet/posts', {
      username: 'rafatech',
      limit: 3,
      enrich: ['sentiment'],
    });
    const pj = (await p.json()) as any;
    expect(p.status).toBe(200);
    expect(pj.metadata.source).toBe('sandbox');
    expect(pj.data.posts).toHaveLength(3);
    expect(pj.data.posts[0].enrichment.sentiment).toMatch(/^(positive|negative|neutral)$/);
    expect(pj.metadata.credits_used).toBe(5.5);
    expect((await fetch(`${first.base}/readyz`)).status).toBe(200);

    // the process metrics docs/operations.md lists
    const metrics = await (await fetch(`${first.base}/metrics`)).text();
    for (const series of [
      'gleaner_process_cpu_seconds_total',
      'gleaner_process_resident_memory_bytes',
      'gleaner_nodejs_heap_size_used_bytes',
      'gleaner_nodejs_eventloop_lag_seconds',
    ])
      expect(metrics).toMatch(new RegExp(`^${series} \\d`, 'm'));
  } finally {
    expect(await stop(first)).toBe(0);
  }
  const lines = first.stdout().split('\n').filter(Boolean);
  expect(lines.length).toBeGreaterThan(3);
  for (const line of lines) {
    expect(line.startsWith('{'), line).toBe(true);
    expect(line).not.toContain(first.demoKey!);
  }
  // one request id per log line
  const requests = lines.filter((l) => l.includes('"msg":"request"'));
  expect(requests.length).toBeGreaterThanOrEqual(3);
  for (const line of requests) expect(line.match(/"reqId"/g)).toHaveLength(1);

  const second = await start();
  try {
    expect(second.demoKey).toBeNull();
  } finally {
    await stop(second);
  }
}, 180_000);
