// The account API through the SDK (account, usage, entries) and the CLI (`gleaner account`):
// the key's balance, usage and ledger, free, against the real app.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, run } from '../../packages/cli/src/run.js';
import { Gleaner, GleanerAuthError } from '../../packages/client/src/index.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await startApp({ credits: 50 });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  for (let i = 0; i < 3; i++)
    expect((await t.post('/clipnet/posts', { username: 'bob', limit: 1 })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

async function cli(argv: string[], env: Record<string, string>) {
  const out = new PassThrough();
  const err = new PassThrough();
  const o: Buffer[] = [];
  const e: Buffer[] = [];
  out.on('data', (c: Buffer) => o.push(c));
  err.on('data', (c: Buffer) => e.push(c));
  const code = await run(argv, { env: { HOME: '/nonexistent-home', ...env }, stdout: out, stderr: err });
  return { code, stdout: Buffer.concat(o).toString(), stderr: Buffer.concat(e).toString() };
}

describe('SDK', () => {
  it('reads the account, its usage and its entries, free', async () => {
    const g = new Gleaner({ apiKey: t.key, baseUrl: url });
    const balance = await t.balance();
    const a = await g.account();
    expect(a.data).toMatchObject({ id: t.keyId, credits: balance, totals: { granted: 50, calls: 3 } });
    expect(a.creditsUsed).toBe(0);
    const u = await g.usage();
    expect(u.data.total.calls).toBe(3);
    const first = await g.entries({ limit: 2 });
    expect(first.data.entries).toHaveLength(2);
    const rest = await g.entries({ limit: 2, cursor: first.data.next_cursor! });
    expect(rest.data.entries.map((x) => x.kind)).toEqual(['debit', 'grant']);
    expect(rest.data.next_cursor).toBeNull();
    expect(await t.balance()).toBe(balance);
    await expect(
      new Gleaner({ apiKey: 'gl_wrong', baseUrl: url, retries: 0 }).account(),
    ).rejects.toBeInstanceOf(GleanerAuthError);
  });
});

describe('gleaner account', () => {
  it('prints the account, usage and entries as JSON', async () => {
    const env = { GLEANER_API_KEY: t.key, GLEANER_BASE_URL: url };
    const a = await cli(['account'], env);
    expect(a.code).toBe(EXIT.ok);
    expect(JSON.parse(a.stdout)).toMatchObject({ id: t.keyId, credits: await t.balance() });
    const today = new Date().toISOString().slice(0, 10);
    const u = await cli(['account', 'usage', '--from', today], env);
    expect(JSON.parse(u.stdout)).toMatchObject({ from: today, to: today, total: { calls: 3 } });
    const e = await cli(['account', 'entries', '--limit', '1'], env);
    expect(JSON.parse(e.stdout).entries).toHaveLength(1);
    // the key never printed
    expect(a.stdout + u.stdout + e.stdout + a.stderr).not.toContain(t.key);
  });

  it('exits with the documented codes on a bad key or a bad flag', async () => {
    const bad = await cli(['account'], { GLEANER_API_KEY: 'gl_wrong', GLEANER_BASE_URL: url });
    expect(bad.code).toBe(EXIT.auth);
    expect(bad.stderr).toContain('UNAUTHORIZED');
    const flag = await cli(['account', 'usage', '--since', 'x'], {
      GLEANER_API_KEY: t.key,
      GLEANER_BASE_URL: url,
    });
    expect(flag.code).toBe(EXIT.usage);
    const date = await cli(['account', 'usage', '--from', '2026-13-01'], {
      GLEANER_API_KEY: t.key,
      GLEANER_BASE_URL: url,
    });
    expect(date.code).toBe(EXIT.error);
    expect(date.stderr).toContain('BAD_REQUEST');
  });
});
