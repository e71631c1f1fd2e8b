// The breaking-change check behind `npm run check:openapi`, on the real document and on edits of it
// that a client of the released version would notice.
import { describe, expect, it } from 'vitest';
import { breakingChanges, type OpenApiDoc } from '../../scripts/openapi-compat.js';
import { buildOpenApi } from '../../src/contract/openapi.js';

const doc = () => structuredClone(buildOpenApi()) as unknown as OpenApiDoc;
type S = Record<string, any>;
const body = (d: OpenApiDoc, path: string): S =>
  (d.paths[path]!.post!.requestBody as S).content['application/json'].schema;
const ok = (d: OpenApiDoc, path: string): S =>
  (d.paths[path]!.post!.responses as S)['200'].content['application/json'].schema;

describe('breakingChanges', () => {
  it('finds nothing between a document and itself', () => {
    expect(breakingChanges(doc(), doc())).toEqual([]);
  });

  it('reports a removed endpoint', () => {
    const after = doc();
    delete after.paths['/api/v1/clipnet/posts'];
    expect(breakingChanges(doc(), after)).toContain('POST /api/v1/clipnet/posts: removed');
  });

  it('reports a newly required or removed request field and a narrowed bound or enum', () => {
    const after = doc();
    const b = body(after, '/api/v1/vidnet/search');
    b.required = [...(b.required ?? []), 'region'];
    b.properties.region = { type: 'string' };
    b.properties.depth.maximum = 2;
    b.properties.period.enum = b.properties.period.enum.filter((p: string) => p !== 'all');
    delete b.properties.sorting;
    const found = breakingChanges(doc(), after);
    expect(found).toContain('POST /api/v1/vidnet/search body.region: newly required');
    expect(found).toContain('POST /api/v1/vidnet/search body.depth: maximum lowered to 2');
    expect(found).toContain('POST /api/v1/vidnet/search body.period: no longer accepts "all"');
    expect(found).toContain('POST /api/v1/vidnet/search body.sorting: removed');
  });

  it('reports a response field that is gone, optional or of another type, through $refs', () => {
    const after = doc();
    const post = after.components!.schemas!.ClipnetPost as S;
    post.required = post.required.filter((r: string) => r !== 'caption');
    post.properties.stats.properties.views = { type: 'string' };
    delete ok(after, '/api/v1/clipnet/posts').properties.data.properties.has_more;
    const found = breakingChanges(doc(), after).join('\n');
    expect(found).toContain('data.posts[].caption: no longer always present');
    expect(found).toContain('data.posts[].stats.views: type changed');
    expect(found).toContain('data.has_more: removed');
  });

  it('does not report loosening: a new optional field, a wider bound, a field no longer required', () => {
    const after = doc();
    const b = body(after, '/api/v1/clipnet/posts');
    b.properties.extra = { type: 'string' };
    b.properties.limit.maximum = 500;
    b.required = b.required.filter((r: string) => r !== 'limit');
    ok(after, '/api/v1/clipnet/posts').properties.data.properties.total = { type: 'integer' };
    expect(breakingChanges(doc(), after)).toEqual([]);
  });
});
