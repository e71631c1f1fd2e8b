// Finds the changes between two OpenAPI documents that would break a client written against the
// older one. `npm run check:openapi` compares the generated document with the newest released
// snapshot (docs/openapi-released/<version>.json) and fails on any such change unless the major
// version was raised; `npm run gen:openapi -- --release` writes the snapshot of a new version.
//
// What counts as breaking, seen from a client:
// - requests: a path or method removed; a body field removed, newly required, its type or enum
//   narrowed, its bounds tightened; a body made required;
// - responses: a success status removed; a field that was always present removed or made
//   optional; its type changed.
// Loosening (a new optional field, a wider bound, a new enum value in a request, a new endpoint)
// is not breaking.

type Json = Record<string, unknown>;
export interface OpenApiDoc {
  info: { version: string };
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, Json> };
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

function resolver(doc: OpenApiDoc) {
  return (s: unknown): Json => {
    let cur = s;
    for (let i = 0; i < 20 && isObj(cur) && typeof cur.$ref === 'string'; i++) {
      const name = cur.$ref.replace('#/components/schemas/', '');
      cur = doc.components?.schemas?.[name];
    }
    return isObj(cur) ? cur : {};
  };
}

/** the JSON types a schema admits ('null' for a nullable anyOf), or undefined when unconstrained */
function typesOf(s: Json, resolve: (s: unknown) => Json): Set<string> | undefined {
  if (typeof s.type === 'string') return new Set([s.type === 'integer' ? 'integer' : s.type]);
  if (Array.isArray(s.type)) return new Set(s.type as string[]);
  if ('const' in s) return new Set([typeof s.const === 'object' ? 'null' : typeof s.const]);
  const alts = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(alts)) {
    const out = new Set<string>();
    for (const a of alts) {
      const t = typesOf(resolve(a), resolve);
      if (!t) return undefined;
      for (const x of t) out.add(x);
    }
    return out;
  }
  return undefined;
}

const widen = (t: Set<string>) => (t.has('number') ? new Set([...t, 'integer']) : t);

type Direction = 'request' | 'response';

function compareSchemas(
  path: string,
  a: unknown,
  b: unknown,
  dir: Direction,
  ra: (s: unknown) => Json,
  rb: (s: unknown) => Json,
  out: string[],
  depth = 0,
): void {
  if (depth > 30) return;
  const x = ra(a);
  const y = rb(b);
  const tx = typesOf(x, ra);
  const ty = typesOf(y, rb);
  if (tx && ty) {
    // a request may accept more types than before; a response may not send new ones
    const [from, to] = dir === 'request' ? [tx, widen(ty)] : [ty, widen(tx)];
    const lost = [...from].filter((t) => !to.has(t));
    if (lost.length > 0) out.push(`${path}: type changed from ${[...tx]} to ${[...ty]}`);
  } else if (tx && !ty && dir === 'response') {
    out.push(`${path}: type no longer stated (was ${[...tx]})`);
  }
  if (dir === 'request') {
    if (Array.isArray(x.enum) && Array.isArray(y.enum)) {
      const gone = x.enum.filter((v) => !(y.enum as unknown[]).includes(v));
      if (gone.length > 0)
        out.push(`${path}: no longer accepts ${gone.map((v) => JSON.stringify(v)).join(', ')}`);
    } else if (!Array.isArray(x.enum) && Array.isArray(y.enum)) out.push(`${path}: now limited to an enum`);
    for (const k of ['minimum', 'exclusiveMinimum', 'minLength', 'minItems'] as const)
      if (typeof y[k] === 'number' && (typeof x[k] !== 'number' || (y[k] as number) > (x[k] as number)))
        out.push(`${path}: ${k} raised to ${y[k]}`);
    for (const k of ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'] as const)
      if (typeof y[k] === 'number' && (typeof x[k] !== 'number' || (y[k] as number) < (x[k] as number)))
        out.push(`${path}: ${k} lowered to ${y[k]}`);
    if (typeof y.pattern === 'string' && y.pattern !== x.pattern) out.push(`${path}: pattern changed`);
  }
  const px = isObj(x.properties) ? x.properties : {};
  const py = isObj(y.properties) ? y.properties : {};
  const reqX = new Set(Array.isArray(x.required) ? (x.required as string[]) : []);
  const reqY = new Set(Array.isArray(y.required) ? (y.required as string[]) : []);
  for (const [name, sx] of Object.entries(px)) {
    const p = `${path}.${name}`;
    if (!(name in py)) {
      // a request field clients may send is gone; a response field clients may read is gone
      if (dir === 'request' || reqX.has(name)) out.push(`${p}: removed`);
      continue;
    }
    if (dir === 'response' && reqX.has(name) && !reqY.has(name)) out.push(`${p}: no longer always present`);
    compareSchemas(p, sx, py[name], dir, ra, rb, out, depth + 1);
  }
  if (dir === 'request')
    for (const name of reqY) if (!reqX.has(name)) out.push(`${path}.${name}: newly required`);
  if (x.items !== undefined && y.items !== undefined)
    compareSchemas(`${path}[]`, x.items, y.items, dir, ra, rb, out, depth + 1);
}

const jsonSchemaOf = (content: unknown): unknown =>
  isObj(content) && isObj(content['application/json']) ? content['application/json'].schema : undefined;

/** Every change from `before` to `after` that breaks a client of `before`, one line each. */
export function breakingChanges(before: OpenApiDoc, after: OpenApiDoc): string[] {
  const out: string[] = [];
  const ra = resolver(before);
  const rb = resolver(after);
  for (const [path, ops] of Object.entries(before.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.has(method)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const next = after.paths[path]?.[method];
      if (!next) {
        out.push(`${where}: removed`);
        continue;
      }
      const bodyA = isObj(op.requestBody) ? op.requestBody : undefined;
      const bodyB = isObj(next.requestBody) ? next.requestBody : undefined;
      if (bodyB?.required === true && bodyA?.required !== true) out.push(`${where}: a body is now required`);
      const sa = jsonSchemaOf(bodyA?.content);
      const sb = jsonSchemaOf(bodyB?.content);
      if (sa !== undefined && sb !== undefined)
        compareSchemas(`${where} body`, sa, sb, 'request', ra, rb, out);
      const respA = isObj(op.responses) ? op.responses : {};
      const respB = isObj(next.responses) ? next.responses : {};
      for (const [status, r] of Object.entries(respA)) {
        if (!status.startsWith('2')) continue;
        const rB = respB[status];
        if (!isObj(rB)) {
          out.push(`${where}: response ${status} removed`);
          continue;
        }
        const ja = jsonSchemaOf(isObj(r) ? r.content : undefined);
        const jb = jsonSchemaOf(rB.content);
        if (ja !== undefined && jb !== undefined)
          compareSchemas(`${where} ${status}`, ja, jb, 'response', ra, rb, out);
      }
    }
  }
  return out;
}

export const majorOf = (version: string): number => Number(version.split('.')[0]);

/** semver order of two x.y.z versions */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}
