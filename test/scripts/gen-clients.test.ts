// `npm run check:clients` fails when what the clients know of the contract drifts from the
// OpenAPI document: a new body field, or a new API version the packages' versions do not follow.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../src/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'gleaner-gen-clients-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(doc?: Record<string, any>): { status: number | null; out: string } {
  const args = [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/gen-clients.ts', '--check'];
  if (doc) {
    const file = join(dir, `openapi-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(doc));
    args.push('--openapi', file);
  }
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

const current = () => JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));

describe('check:clients', () => {
  it('passes on the committed document', () => {
    const r = check();
    expect(r.out).toContain('clients are in sync');
    expect(r.status).toBe(0);
  });

  it('fails, naming every generated file, when a body field is added', () => {
    const doc = current();
    const body = doc.paths['/api/v1/clipnet/posts'].post.requestBody.content['application/json'].schema;
    body.properties.region = { type: 'string', description: 'A region' };
    const r = check(doc);
    expect(r.status).toBe(1);
    for (const f of [
      'packages/client/src/generated.ts',
      'packages/cli/src/contract.ts',
      'clients/python/src/gleaner/_generated.py',
    ])
      expect(r.out).toContain(`${f} is out of date`);
  });

  it('fails when the API version moves and the packages do not follow', () => {
    const doc = current();
    const [major] = doc.info.version.split('.');
    doc.info.version = `${Number(major) + 1}.0.0`;
    const r = check(doc);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/packages\/client\/package\.json: version \S+ does not follow the API's/);
    expect(r.out).toMatch(/clients\/python\/pyproject\.toml: version \S+ does not follow the API's/);
  });
});
