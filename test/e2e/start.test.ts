// `npm start` as a newcomer runs it: the real process on its embedded defaults (SQLite ledger,
// sandbox, built-in analyzer), a demo key printed once, and a clean shutdown on SIGTERM.
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
  output: () => string;
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
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${out}`)), 90_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const listening = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (!listening) return;
      clearTimeout(timer);
      const base = (JSON.parse(listening) as { url: string }).url;
      resolve({ child, base, demoKey: /X-API-Key: (gl_\S+)/.exec(out)?.[1] ?? null, output: () => out });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${out}`));
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
    // the key appears only in the banner, never in a log line
    const logLines = first
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.some((l) => l.includes(key))).toBe(false);

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
  } finally {
    expect(await stop(first)).toBe(0);
  }

  const second = await start();
  try {
    expect(second.demoKey).toBeNull();
  } finally {
    await stop(second);
  }
}, 180_000);
