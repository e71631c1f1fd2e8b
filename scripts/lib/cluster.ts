// Real Gleaner processes on loopback for the reliability suite: build once, spawn
// `node dist/src/main.js` with the environment a scenario needs, wait until ready, kill -9,
// restart on the same port. Keys and reconcile go through the admin API.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { ROOT } from '../../src/paths.js';

export const ADMIN_TOKEN = 'reliability-admin-token-0123456789';
const mainOf = (root: string) => join(root, 'dist/src/main.js');

const built = new Set<string>();
/** `npm run build` once per run in a checkout (default: this one); type errors elsewhere do not
 *  stop the emit */
export function buildOnce(root = ROOT): void {
  if (built.has(root)) return;
  const main = mainOf(root);
  try {
    execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], {
      cwd: root,
      stdio: 'pipe',
    });
  } catch (e) {
    if (!existsSync(main)) throw e;
    process.stderr.write(`build in ${root} reported type errors; running the emitted code\n`);
  }
  if (!existsSync(main) || statSync(main).size === 0) throw new Error(`${main} missing after build`);
  built.add(root);
}

export interface InstanceOptions {
  /** the checkout whose build to run (default: this one) */
  root?: string;
  /** CPU list the process is pinned to with taskset (e.g. "1"), for benchmarks */
  cpus?: string;
  /** flags for node itself, before the script (e.g. --cpu-prof, which NODE_OPTIONS refuses) */
  nodeArgs?: string[];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export const agent = new Agent({ connections: 256, pipelining: 1, keepAliveTimeout: 10_000 });

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
  json(): {
    success?: boolean;
    data?: unknown;
    error?: { code?: string };
    metadata?: { credits_used?: number };
  } & Record<string, unknown>;
}

export async function http(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<Reply> {
  const r = await request(url, {
    method: (opts.method ?? 'POST') as 'POST',
    headers: opts.headers,
    body: opts.body,
    dispatcher: agent,
    headersTimeout: opts.timeoutMs ?? 60_000,
    bodyTimeout: opts.timeoutMs ?? 60_000,
  });
  const body = await r.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: r.statusCode, headers, body, json: () => JSON.parse(body) };
}

export class Instance {
  proc: ChildProcess | null = null;
  readonly url: string;
  stderr = '';

  constructor(
    readonly port: number,
    readonly env: Record<string, string>,
    readonly options: InstanceOptions = {},
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    this.stderr = '';
    const root = this.options.root ?? ROOT;
    const node = [process.execPath, ...(this.options.nodeArgs ?? []), mainOf(root)];
    // taskset execs node in place, so the child's pid is the server's (for /proc CPU readings)
    const [cmd, ...args] = this.options.cpus ? ['taskset', '-c', this.options.cpus, ...node] : node;
    const proc = spawn(cmd!, args, {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(this.port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DEMO_KEY_CREDITS: '0',
        ADMIN_TOKEN,
        ENRICH_THREADS: '1',
        ...this.env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    this.proc = proc;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`instance on ${this.port} exited: ${this.stderr}`);
      try {
        const r = await http(`${this.url}/readyz`, { method: 'GET', timeoutMs: 1000 });
        if (r.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`instance on ${this.port} did not become ready: ${this.stderr}`);
  }

  /** kill -9: no shutdown, no settling */
  async kill(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
    this.proc = null;
  }

  async stop(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    const t = setTimeout(() => p.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(t);
    this.proc = null;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Cluster {
  instances: Instance[];
  urls: string[];
  databaseUrl: string;
  stop(): Promise<void>;
}

/** a SQLite file in a fresh folder, removed by cleanup() */
export function sqliteDatabase(): { url: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-rel-'));
  return {
    url: `sqlite:${join(dir, 'ledger.db')}`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function startCluster(
  n: number,
  databaseUrl: string,
  env: Record<string, string> = {},
  options: InstanceOptions = {},
): Promise<Cluster> {
  buildOnce(options.root);
  const instances: Instance[] = [];
  for (let i = 0; i < n; i++)
    instances.push(new Instance(await freePort(), { DATABASE_URL: databaseUrl, ...env }, options));
  // start together: PostgreSQL migrations run under an advisory lock, SQLite creates its schema
  await Promise.all(instances.map((i) => i.start()));
  return {
    instances,
    urls: instances.map((i) => i.url),
    databaseUrl,
    stop: async () => {
      await Promise.all(instances.map((i) => i.stop()));
    },
  };
}

const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

export async function createKey(url: string, credits: number): Promise<{ id: string; key: string }> {
  const r = await http(`${url}/admin/v1/keys`, {
    headers: adminHeaders,
    body: JSON.stringify({ name: 'reliability', credits }),
  });
  if (r.status !== 201) throw new Error(`create key: ${r.status} ${r.body}`);
  return r.json() as unknown as { id: string; key: string };
}

export interface KeyState {
  credits: number;
  held: number;
  available: number;
}

export async function keyState(url: string, id: string): Promise<KeyState> {
  const r = await http(`${url}/admin/v1/keys/${id}`, {
    method: 'GET',
    headers: { authorization: adminHeaders.authorization },
  });
  return r.json() as unknown as KeyState;
}

export interface Entry {
  seq: number;
  kind: 'grant' | 'debit';
  credits: number;
  request_id: string | null;
  /** the caller's X-Request-Id of the charged request */
  client_request_id: string | null;
}

/** every debit of a key, read page by page */
export async function debits(url: string, id: string): Promise<Entry[]> {
  const all: Entry[] = [];
  let before = '';
  for (;;) {
    const r = await http(`${url}/admin/v1/keys/${id}/ledger?limit=1000${before}`, {
      method: 'GET',
      headers: { authorization: adminHeaders.authorization },
    });
    const entries = (r.json() as unknown as { entries: Entry[] }).entries;
    all.push(...entries);
    if (entries.length < 1000) break;
    before = `&before=${entries[entries.length - 1]!.seq}`;
  }
  return all.filter((e) => e.kind === 'debit');
}

export async function reconcile(
  url: string,
): Promise<{ openHolds: number; problems: unknown[]; entries: number }> {
  const r = await http(`${url}/admin/v1/reconcile`, {
    method: 'GET',
    headers: { authorization: adminHeaders.authorization },
  });
  return r.json() as unknown as { openHolds: number; problems: unknown[]; entries: number };
}

/** runs `count` tasks with at most `concurrency` at once */
export async function pool<T>(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  });
  await Promise.all(workers);
  return out;
}
