// The OpenAPI document as a user's generator reads it: openapi-typescript turns it into types
// without an error, and a field with a default is optional in what it generates, so a generated
// client never forces a caller to send `limit`, `depth`, `period`, `sorting`, `only_shorts`, ….
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { ROOT } from '../../src/paths.js';

let types: string;
beforeAll(async () => {
  const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));
  types = astToString(await openapiTS(doc));
}, 60_000);

/** the generated members of the request body of the operation `id` (operationId) */
function bodyMembers(id: string): string {
  const at = types.indexOf(`\n    ${id}: {`, types.indexOf('export interface operations'));
  expect(at, id).toBeGreaterThan(-1);
  const op = types.indexOf('requestBody', at);
  const json = types.indexOf('"application/json": {', op);
  return types.slice(json, types.indexOf('};\n', json));
}

describe('openapi-typescript on docs/openapi.json', () => {
  it('generates a type for every endpoint', () => {
    for (const e of ENDPOINTS) expect(types).toContain(`"/api/v1${e.path}": {`);
  });

  it('makes fields with a default optional and keeps the others required', () => {
    const search = bodyMembers('vidnet_search');
    expect(search).toMatch(/\bkeywords: string\[\]/);
    for (const f of ['depth', 'period', 'sorting', 'max_posts_per_keyword'])
      expect(search).toMatch(new RegExp(`\\b${f}\\?:`));
    const posts = bodyMembers('clipnet_posts');
    expect(posts).toMatch(/\busername: string/);
    expect(posts).toMatch(/\blimit\?: number/);
    expect(bodyMembers('vidnet_hashtag_search')).toMatch(/\bonly_shorts\?: boolean/);
  });
});
