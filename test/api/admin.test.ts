// The operator's two ways to manage keys and credits: the admin HTTP API and the admin CLI.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

const run = promisify(execFile);
const TOKEN = 'admin-token-0123456789';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ env: { ADMIN_TOKEN: TOKEN } });
});
afterAll(async () => t.close());

const admin = (method: 'GET' | 'POST', url: string, payload?: unknown, token = TOKEN) =>
  t.inject({
    method,
    url: `/admin/v1${url}`,
    headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
    payload: payload ? JSON.stringify(payload) : undefined,
  });

describe('admin HTTP API', () => {
  test('needs the admin token', async () => {
    expect((await admin('GET', '/keys', undefined, 'wrong-token-000000000')).statusCode).toBe(401);
    const r = await t.inject({ method: 'GET', url: '/admin/v1/keys' });
    expect(r.statusCode).toBe(401);
    expect(r.json().error.code).toBe('UNAUTHORIZED');
  });

  test('create → use → list → grant → ledger → revoke', async () => {
    const c = await admin('POST', '/keys', { name: 'team-a', credits: 12.5 });
    expect(c.statusCode).toBe(201);
    const { id, key, credits } = c.json();
    expect(id).toMatch(/^key_[0-9a-f]{20}$/);
    expect(key).toMatch(/^gl_[A-Za-z0-9_-]{32}$/);
    expect(credits).toBe(12.5);

    const use = await t.post('/clipnet/posts', { username: 'alice', limit: 2 }, { 'x-api-key': key });
    expect(use.json().metadata.credits_remaining).toBe(9.5);

    const list = (await admin('GET', '/keys')).json().keys as Array<Record<string, unknown>>;
    const mine = list.find((k) => k.id === id)!;
    expect(mine).toMatchObject({ name: 'team-a', credits: 9.5, held: 0, revoked_at: null });
    expect(JSON.stringify(list)).not.toContain(key);
    expect(mine.prefix).toBe(key.slice(0, 9));

    const g = await admin('POST', `/keys/${id}/credits`, { credits: 0.5, note: 'top-up' });
    expect(g.json().credits).toBe(10);

    const l = (await admin('GET', `/keys/${id}/ledger`)).json();
    expect(l.entries.map((e: { kind: string; credits: number }) => [e.kind, e.credits])).toEqual([
      ['grant', 0.5],
      ['debit', 3],
      ['grant', 12.5],
    ]);

    const rv = await admin('POST', `/keys/${id}/revoke`);
    expect(rv.json().revoked_at).not.toBeNull();
    const denied = await t.post('/clipnet/posts', { username: 'alice' }, { 'x-api-key': key });
    expect(denied.json().error.message).toBe('Invalid API key');

    expect((await admin('GET', '/reconcile')).json().problems).toEqual([]);
  });

  test('bad input and unknown keys', async () => {
    const bad = await admin('POST', '/keys', { name: '', credits: -1 });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['credits', 'name']);
    expect((await admin('POST', '/keys/key_00000000000000000000/credits', { credits: 1 })).statusCode).toBe(
      404,
    );
    expect((await admin('POST', '/keys/key_00000000000000000000/revoke')).statusCode).toBe(404);
  });

  test('keys are stored only as SHA-256 hashes', async () => {
    const c = (await admin('POST', '/keys', { name: 'hash-check', credits: 1 })).json();
    const db = new Database(join(t.dir, 'ledger.db'), { readonly: true });
    const dump = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    const row = db.prepare('SELECT key_hash FROM api_keys WHERE id = ?').get(c.id) as { key_hash: Buffer };
    db.close();
    expect(dump).not.toContain(c.key);
    expect(row.key_hash.length).toBe(32);
  });
});

test('without ADMIN_TOKEN the admin API does not exist', async () => {
  const t2 = await startApp();
  try {
    const r = await t2.inject({
      method: 'GET',
      url: '/admin/v1/keys',
      headers: { authorization: 'Bearer x' },
    });
    expect(r.statusCode).toBe(404);
  } finally {
    await t2.close();
  }
});

describe('admin CLI', () => {
  const cli = (args: string[], dir: string) =>
    run(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], {
      env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'cli.db')}`, LOG_LEVEL: 'silent' },
    });

  test('create, list, grant, ledger, revoke and reconcile', async () => {
    const dir = t.dir;
    const created = JSON.parse(
      (await cli(['keys', 'create', '--name', 'cli-team', '--credits', '20', '--json'], dir)).stdout,
    );
    expect(created.key).toMatch(/^gl_/);
    const list = JSON.parse((await cli(['keys', 'list', '--json'], dir)).stdout);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: created.id, credits: 20 });
    const g = await cli(['keys', 'grant', created.id, '--credits', '2.5'], dir);
    expect(g.stdout).toContain('22.5 credits');
    const l = JSON.parse((await cli(['keys', 'ledger', created.id, '--json'], dir)).stdout);
    expect(l.entries).toHaveLength(2);
    expect((await cli(['keys', 'revoke', created.id], dir)).stdout).toContain('revoked');
    const ok = await cli(['reconcile'], dir);
    expect(ok.stdout).toMatch(/^ok: 1 keys/);

    const db = new Database(join(dir, 'cli.db'));
    db.prepare('UPDATE api_keys SET balance = balance - 1').run();
    db.close();
    const err = await cli(['reconcile'], dir).catch((e: { code: number; stdout: string }) => e);
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stdout: string }).stdout).toContain('MISMATCH');
  }, 60_000);

  test('usage errors exit 2 with help', async () => {
    const err = (await cli(['keys', 'create'], t.dir).catch((e) => e)) as { code: number; stderr: string };
    expect(err.code).toBe(2);
    expect(err.stderr).toContain('--name');
  }, 30_000);
});
