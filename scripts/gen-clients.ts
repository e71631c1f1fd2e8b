// Generates what the clients know of the contract, from docs/openapi.json (and, for the CLI's
// --max-credits, the price table of src/billing/pricing.ts and the item bounds of
// src/contract/bounds.ts), so that none of them imports anything from the server:
//   packages/client/src/generated.ts     request/response types, endpoint paths, one method per endpoint
//   packages/cli/src/contract.ts         endpoint paths, body field bounds and defaults, prices
//   clients/python/src/gleaner/_generated.py  TypedDicts, endpoint table, error classes, methods
// and keeps the packages' versions tied to the API's: their major.minor is the API's major.minor.
//   tsx scripts/gen-clients.ts          writes them (npm run gen:clients)
//   tsx scripts/gen-clients.ts --check  fails when a committed file differs (npm run check:clients)
//   … --openapi FILE                    from another document than docs/openapi.json
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENRICHMENT_RATES, MILLI, PROVIDER_MULTIPLIER, RATES } from '../src/billing/pricing.js';
import { BOUNDS } from '../src/contract/bounds.js';

const ROOT = join(fileURLToPath(import.meta.url), '../..');

type Json = Record<string, unknown>;
type Schema = Json;
interface Operation {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema: Schema }>;
  summary?: string;
  description?: string;
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { description?: string; content?: { 'application/json'?: { schema?: Schema } } }>;
}
interface OpenApi {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const API_PREFIX = '/api/v1';
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const pascal = (s: string) =>
  s
    .split(/[_\-.\s]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
const camel = (s: string) => {
  const p = pascal(s);
  return p[0]!.toLowerCase() + p.slice(1);
};
const singular = (s: string) => (s.endsWith('ies') ? `${s.slice(0, -3)}y` : s.replace(/s$/, ''));

// ---- a small model of the schemas the document uses ----

type Lit = string | number | boolean | null;
type IR =
  | { k: 'ref'; name: string }
  | { k: 'union'; of: IR[] }
  | { k: 'lit'; value: Lit }
  | { k: 'prim'; t: 'string' | 'number' | 'integer' | 'boolean' | 'null' }
  | { k: 'array'; items: IR }
  | { k: 'map'; values: IR }
  | { k: 'any' };

interface Field {
  name: string;
  type: IR;
  required: boolean;
  description?: string;
  default?: unknown;
  schema: Schema;
}
type Named =
  | { kind: 'object'; name: string; description?: string; fields: Field[]; extra?: IR }
  | { kind: 'alias'; name: string; description?: string; type: IR };

/** input: a request body (a field with a default is optional); output: a response */
type Side = 'input' | 'output';

class Model {
  readonly named = new Map<string, Named>();
  readonly #byShape = new Map<string, string>();
  constructor(readonly doc: OpenApi) {}

  /** the shape of a type: equal shapes get one name (objects documented alike, enums of the
   *  same values) */
  static shape(n: Named | IR): string {
    if ('kind' in n)
      return n.kind === 'alias'
        ? `alias:${Model.shape(n.type)}`
        : `obj:${JSON.stringify(n.fields.map((f) => [f.name, f.required, Model.shape(f.type), f.description]))}:${n.extra ? Model.shape(n.extra) : ''}`;
    return JSON.stringify(n);
  }

  #register(n: Named): IR {
    const shape = Model.shape(n);
    const known = this.#byShape.get(shape);
    if (known) return { k: 'ref', name: known };
    let name = n.name;
    for (let i = 2; this.named.has(name); i++) name = `${n.name}${i}`;
    this.named.set(name, { ...n, name });
    this.#byShape.set(shape, name);
    return { k: 'ref', name };
  }

  /** gives the type of `schema` a name; equal shapes met later use it */
  seed(name: string, schema: Schema, side: Side): void {
    const t = this.convert(schema, name, side);
    if (t.k === 'ref' && this.named.has(t.name)) {
      if (t.name !== name) throw new Error(`${name} has the shape of ${t.name}`);
      return;
    }
    this.#register({ kind: 'alias', name, description: schema.description as string | undefined, type: t });
  }

  component(name: string): IR {
    if (!this.named.has(name)) {
      const s = this.doc.components.schemas[name];
      if (!s) throw new Error(`no component ${name}`);
      const t = this.convert(s, name, 'output');
      if (t.k !== 'ref' || t.name !== name)
        this.#register({ kind: 'alias', name, description: s.description as string | undefined, type: t });
    }
    return { k: 'ref', name };
  }

  /** \`name\` for a type that already has another name (an endpoint sharing another's body) */
  alias(name: string, t: IR): IR {
    if (t.k === 'ref' && t.name === name) return t;
    if (this.named.has(name)) throw new Error(`two types named ${name}`);
    this.named.set(name, { kind: 'alias', name, type: t });
    return { k: 'ref', name };
  }

  convert(s: Schema, hint: string, side: Side): IR {
    if (typeof s.$ref === 'string') return this.component(s.$ref.replace('#/components/schemas/', ''));
    const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (alts) return union(alts.map((a, i) => this.convert(a, `${hint}${i}`, side)));
    if (Array.isArray(s.allOf) && s.allOf.length === 1) return this.convert(s.allOf[0] as Schema, hint, side);
    if (s.const !== undefined) return this.#known({ k: 'lit', value: s.const as Lit });
    if (Array.isArray(s.enum)) return this.#known(union(s.enum.map((value) => ({ k: 'lit', value }) as IR)));
    if (Array.isArray(s.type)) return union(s.type.map((t) => this.convert({ ...s, type: t }, hint, side)));
    switch (s.type) {
      case 'string':
      case 'number':
      case 'integer':
      case 'boolean':
      case 'null':
        return { k: 'prim', t: s.type };
      case 'array':
        return { k: 'array', items: this.convert((s.items ?? {}) as Schema, singular(hint), side) };
      case 'object': {
        const props = (s.properties ?? {}) as Record<string, Schema>;
        const extra =
          s.additionalProperties === true
            ? ({ k: 'any' } as IR)
            : isObj(s.additionalProperties)
              ? this.convert(s.additionalProperties, `${hint}Value`, side)
              : undefined;
        if (Object.keys(props).length === 0) return { k: 'map', values: extra ?? { k: 'any' } };
        const required = new Set((s.required ?? []) as string[]);
        const base = hint.replace(/(Params|Data)$/, '');
        // a child is named after its parent: ClipnetBulkPostsData.users[] is ClipnetBulkPostsUser
        const fields = Object.entries(props).map(
          ([name, p]): Field => ({
            name,
            type: this.convert(p, `${base}${pascal(name)}`, side),
            required: required.has(name) && !(side === 'input' && p.default !== undefined),
            description: p.description as string | undefined,
            default: p.default,
            schema: p,
          }),
        );
        return this.#register({
          kind: 'object',
          name: hint,
          description: s.description as string,
          fields,
          extra,
        });
      }
      default:
        return { k: 'any' };
    }
  }

  /** an enum or literal with the shape of a seeded alias is that alias */
  #known(t: IR): IR {
    const name = this.#byShape.get(`alias:${Model.shape(t)}`);
    return name ? { k: 'ref', name } : t;
  }
}

/** the object type a type names, through aliases */
function objectOf(t: IR): Extract<Named, { kind: 'object' }> {
  for (let cur = t; ; ) {
    if (cur.k !== 'ref') throw new Error(`not a named object: ${Model.shape(t)}`);
    const n = model.named.get(cur.name);
    if (!n) throw new Error(`no type ${cur.name}`);
    if (n.kind === 'object') return n;
    cur = n.type;
  }
}

const hasRef = (t: IR): boolean =>
  t.k === 'ref' ||
  (t.k === 'union' && t.of.some(hasRef)) ||
  (t.k === 'array' && hasRef(t.items)) ||
  (t.k === 'map' && hasRef(t.values));

function union(of: IR[]): IR {
  const flat = of.flatMap((t) => (t.k === 'union' ? t.of : [t]));
  const seen = new Map(flat.map((t) => [Model.shape(t), t]));
  const list = [...seen.values()];
  return list.length === 1 ? list[0]! : { k: 'union', of: list };
}

// ---- the document ----

// --openapi FILE reads another document (to see what a contract change would change)
const docArg = process.argv.indexOf('--openapi');
const docPath = docArg > 0 ? process.argv[docArg + 1]! : join(ROOT, 'docs/openapi.json');
const doc = JSON.parse(readFileSync(docPath, 'utf8')) as OpenApi;
const API_VERSION = doc.info.version;

interface Endpoint {
  id: string;
  /** TypeScript method name; the Python one is its snake_case */
  method: string;
  snake: string;
  path: string;
  summary: string;
  description: string;
  body: Schema;
  data: Schema;
  params: IR;
  dataType: IR;
  /** the data field holding the returned list */
  itemsField: string;
  /** data has cursor and has_more: pages follow the cursor */
  cursor: boolean;
}

const model = new Model(doc);
const get = (path: (string | number)[]): Schema => {
  let cur: unknown = doc;
  for (const p of path) cur = (cur as Json)?.[p];
  if (!isObj(cur)) throw new Error(`docs/openapi.json has no ${path.join('.')}`);
  return cur;
};
const metadataProps = ['components', 'schemas', 'Metadata', 'properties'];
const errorProps = ['components', 'schemas', 'ErrorEnvelope', 'properties', 'error', 'properties'];
model.seed('EnrichmentType', get([...metadataProps, 'enrichments', 'items']), 'output');
model.seed('LlmProvider', get([...metadataProps, 'llm_provider']), 'output');
model.seed('ErrorCode', get([...errorProps, 'code']), 'output');
model.seed('ErrorDetail', get([...errorProps, 'details', 'items']), 'output');
model.seed('Warning', get([...metadataProps, 'warnings', 'items']), 'output');
const firstBody = [
  'paths',
  `${API_PREFIX}/clipnet/posts`,
  'post',
  'requestBody',
  'content',
  'application/json',
];
model.seed('Categories', get([...firstBody, 'schema', 'properties', 'categories']), 'input');
for (const name of Object.keys(doc.components.schemas)) if (name !== 'ErrorEnvelope') model.component(name);

/** the method name of an operation: its operationId in camelCase, without the group where the
 *  group is not a platform (ml_analyze is `analyze`, account_usage is `usage`) */
function methodName(operationId: string): string {
  const [group, ...rest] = operationId.split('_');
  return (group === 'ml' || group === 'account') && rest.length ? camel(rest.join('_')) : camel(operationId);
}

const apiOperations = (method: 'post' | 'get') =>
  Object.entries(doc.paths)
    .filter(([path, ops]) => path.startsWith(`${API_PREFIX}/`) && ops[method])
    .map(([path, ops]) => {
      const op = ops[method]!;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path}: no operationId`);
      return { path, op, operationId: op.operationId };
    });

const dataOf = (op: Operation): Schema =>
  (op.responses['200']!.content!['application/json']!.schema!.properties as Json).data as Schema;

const endpoints: Endpoint[] = apiOperations('post').map(({ path, op, operationId }) => {
  const [group, ...rest] = operationId.split('_');
  const name = rest.join('_');
  const method = methodName(operationId);
  const body = op.requestBody!.content['application/json'].schema;
  const data = dataOf(op);
  const dataProps = (data.properties ?? {}) as Record<string, Schema>;
  const itemsField = Object.keys(dataProps).find((k) => dataProps[k]!.type === 'array');
  if (!itemsField) throw new Error(`${path}: no list in data`);
  const typeName = pascal(method);
  return {
    id: `${group}.${name}`,
    method,
    snake: method.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    path: path.slice(API_PREFIX.length),
    summary: op.summary ?? '',
    description: op.description ?? '',
    body,
    data,
    params: model.alias(`${typeName}Params`, model.convert(body, `${typeName}Params`, 'input')),
    dataType: model.alias(`${typeName}Data`, model.convert(data, `${typeName}Data`, 'output')),
    itemsField,
    // pages follow the cursor at a page size of `limit` (blipnet search pages by its cursor too,
    // but its size is per keyword: callers pass its cursor themselves)
    cursor:
      'cursor' in dataProps && 'has_more' in dataProps && 'limit' in ((body.properties ?? {}) as Schema),
  };
});

/** A free GET of the API (the account API): its query parameters and data. */
interface ReadEndpoint {
  /** its operationId with a dot after the group: \`account.usage\` */
  id: string;
  /** under /api/v1 */
  path: string;
  method: string;
  snake: string;
  summary: string;
  description: string;
  /** the query parameters as the schema of an object, or undefined when there are none */
  query: Schema | undefined;
  params: IR | undefined;
  dataType: IR;
}

const reads: ReadEndpoint[] = apiOperations('get').map(({ path, op, operationId }) => {
  const method = methodName(operationId);
  const typeName = pascal(method);
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  const query: Schema | undefined = params.length
    ? {
        type: 'object',
        required: params.filter((p) => p.required).map((p) => p.name),
        properties: Object.fromEntries(
          params.map((p) => [p.name, { ...p.schema, description: p.description ?? p.schema.description }]),
        ),
      }
    : undefined;
  return {
    id: operationId.replace('_', '.'),
    path: path.slice(API_PREFIX.length),
    method,
    snake: method.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    summary: op.summary ?? '',
    description: op.description ?? '',
    query,
    params: query && model.alias(`${typeName}Params`, model.convert(query, `${typeName}Params`, 'input')),
    dataType: model.alias(`${typeName}Data`, model.convert(dataOf(op), `${typeName}Data`, 'output')),
  };
});

const errorCodes = (get([...errorProps, 'code']).enum as string[]).slice();
/** HTTP status of each error code, from the responses' descriptions ("402 PAYMENT_REQUIRED: …") */
const statusOfCode = new Map<string, { status: number; description: string }>();
for (const ops of Object.values(doc.paths))
  for (const op of Object.values(ops))
    for (const [status, r] of Object.entries(op.responses ?? {})) {
      const m = /^([A-Z_]+): (.*)$/.exec(r.description ?? '');
      if (m && !statusOfCode.has(m[1]!) && op.operationId)
        statusOfCode.set(m[1]!, { status: Number(status), description: m[2]! });
    }

// ---- bounds of body fields, for the CLI and the Python client ----

interface FieldInfo {
  type: string;
  required?: true;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  enum?: unknown[];
}
function fieldInfo(body: Schema): Record<string, FieldInfo> {
  const required = new Set((body.required ?? []) as string[]);
  const out: Record<string, FieldInfo> = {};
  for (const [name, s] of Object.entries((body.properties ?? {}) as Record<string, Schema>)) {
    const items = isObj(s.items) ? s.items : undefined;
    const info: FieldInfo = { type: String(s.type ?? 'any') };
    if (required.has(name) && s.default === undefined) info.required = true;
    for (const k of ['minimum', 'maximum', 'minItems', 'maxItems', 'default'] as const)
      if (s[k] !== undefined) (info as unknown as Json)[k] = s[k];
    const e = (s.enum ?? items?.enum) as unknown[] | undefined;
    if (e) info.enum = e;
    out[name] = info;
  }
  return out;
}

function boundOf(e: Endpoint, field: string, bound: 'minimum' | 'maximum'): number {
  const v = fieldInfo(e.body)[field]?.[bound];
  if (typeof v !== 'number') throw new Error(`${e.id}: no ${bound} of ${field}`);
  return v;
}

// ---- TypeScript ----

const HEADER = (what: string) =>
  `Generated by scripts/gen-clients.ts from docs/openapi.json (API ${API_VERSION}) ${what}. Do not edit: run \`npm run gen:clients\`.`;

function tsType(t: IR): string {
  switch (t.k) {
    case 'ref':
      return t.name;
    case 'lit':
      return JSON.stringify(t.value);
    case 'prim':
      return t.t === 'integer' ? 'number' : t.t;
    case 'union':
      return t.of.map(tsType).join(' | ');
    case 'array': {
      const inner = tsType(t.items);
      return t.items.k === 'union' ? `Array<${inner}>` : `${inner}[]`;
    }
    case 'map':
      return `Record<string, ${tsType(t.values)}>`;
    case 'any':
      return 'unknown';
  }
}

function tsDoc(lines: (string | undefined)[], indent = ''): string {
  const text = lines.filter((l): l is string => !!l).flatMap((l) => l.split('\n'));
  if (text.length === 0) return '';
  if (text.length === 1) return `${indent}/** ${text[0]!.replaceAll('*/', '*\\/')} */\n`;
  return `${indent}/**\n${text.map((l) => `${indent} * ${l.replaceAll('*/', '*\\/')}`).join('\n')}\n${indent} */\n`;
}

const defaultNote = (f: Field) =>
  f.default === undefined ? undefined : `@default ${JSON.stringify(f.default)}`;

function typescriptClient(): string {
  let out = `// ${HEADER('for @gleaner/client')}\n`;
  out += "import type { ApiResult, CallOptions } from './types.js';\n\n";
  out += `/** The version of the API these types describe (info.version of its OpenAPI document). */\nexport const API_VERSION = ${JSON.stringify(API_VERSION)};\n\n`;
  for (const n of model.named.values()) {
    out += tsDoc([n.description]);
    if (n.kind === 'alias') out += `export type ${n.name} = ${tsType(n.type)};\n\n`;
    else {
      out += `export interface ${n.name} {\n`;
      for (const f of n.fields) {
        out += tsDoc([f.description, defaultNote(f)], '  ');
        out += `  ${f.name}${f.required ? '' : '?'}: ${tsType(f.type)};\n`;
      }
      if (n.extra) out += `  [key: string]: ${tsType(n.extra)};\n`;
      out += '}\n\n';
    }
  }
  out += `/** Every endpoint of the API, by id. */\nexport type EndpointId = ${endpoints.map((e) => JSON.stringify(e.id)).join(' | ')};\n\n`;
  out += '/** Body and data type of each endpoint. */\nexport interface EndpointTypes {\n';
  for (const e of endpoints)
    out += `  ${JSON.stringify(e.id)}: { params: ${tsType(e.params)}; data: ${tsType(e.dataType)} };\n`;
  out += '}\n\n';
  out += `/** Path of each endpoint under /api/v1. */\nexport const ENDPOINT_PATHS: Readonly<Record<EndpointId, string>> = {\n`;
  for (const e of endpoints) out += `  ${JSON.stringify(e.id)}: ${JSON.stringify(e.path)},\n`;
  out += '};\n\n';
  const pageSizes = endpoints
    .filter((e) => e.cursor)
    .map((e) => `  ${JSON.stringify(e.id)}: ${boundOf(e, 'limit', 'maximum')},\n`);
  out += `/** The largest page (\`limit\`) of each cursor-paged endpoint. */\nexport const MAX_PAGE_SIZE = {\n${pageSizes.join('')}} as const;\n\n`;
  out += `/** One method per endpoint: a POST through \`call\`, or a free GET through \`read\`. */
export abstract class Endpoints {
  abstract call<Id extends EndpointId>(
    id: Id,
    params: EndpointTypes[Id]['params'],
    options?: CallOptions,
  ): Promise<ApiResult<EndpointTypes[Id]['data']>>;

  /** a GET of \`path\` under /api/v1 with the query parameters of \`query\` */
  protected abstract read<D>(path: string, query: object, options?: CallOptions): Promise<ApiResult<D>>;\n\n`;
  for (const e of endpoints) {
    out += tsDoc([`${e.summary}: POST ${API_PREFIX}${e.path}.`, e.description], '  ');
    out += `  ${e.method}(params: ${tsType(e.params)}, options?: CallOptions): Promise<ApiResult<${tsType(e.dataType)}>> {\n    return this.call(${JSON.stringify(e.id)}, params, options);\n  }\n\n`;
  }
  for (const r of reads) {
    out += tsDoc([`${r.summary}: GET ${API_PREFIX}${r.path}.`, r.description], '  ');
    const data = `Promise<ApiResult<${tsType(r.dataType)}>>`;
    if (!r.params) {
      out += `  ${r.method}(options?: CallOptions): ${data} {\n    return this.read(${JSON.stringify(r.path)}, {}, options);\n  }\n\n`;
      continue;
    }
    const optional = objectOf(r.params).fields.every((f) => !f.required);
    out += `  ${r.method}(params: ${tsType(r.params)}${optional ? ' = {}' : ''}, options?: CallOptions): ${data} {\n    return this.read(${JSON.stringify(r.path)}, params, options);\n  }\n\n`;
  }
  out += '}\n';
  return out;
}

function cliContract(): string {
  const table = Object.fromEntries(endpoints.map((e) => [e.id, { path: e.path, fields: fieldInfo(e.body) }]));
  const enrichment = model.named.get('EnrichmentType') as { type: IR };
  const provider = model.named.get('LlmProvider') as { type: IR };
  const lits = (t: IR) => (t.k === 'union' ? t.of : [t]).map((x) => (x as { value: string }).value);
  return `// ${HEADER('and the price table and item bounds of src/, for @gleaner/cli')}
import type { EndpointId, EnrichmentType, LlmProvider } from '@gleaner/client';

export const API_VERSION = ${JSON.stringify(API_VERSION)};

/** A body field: its JSON type and the bounds and default the server applies. */
export interface FieldInfo {
  type: string;
  required?: true;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  enum?: readonly unknown[];
}

export interface EndpointInfo {
  /** under /api/v1 */
  path: string;
  fields: Readonly<Record<string, FieldInfo>>;
}

export const ENDPOINTS: Readonly<Record<EndpointId, EndpointInfo>> = ${JSON.stringify(table, null, 2)};

export const ENRICHMENT_TYPES: readonly EnrichmentType[] = ${JSON.stringify(lits(enrichment.type))};
export const LLM_PROVIDERS: readonly LlmProvider[] = ${JSON.stringify(lits(provider.type))};

/** The server's price table, in millicredits (MILLI per credit). */
export const MILLI = ${MILLI};
/** base charge and per-item charge of each endpoint, before enrichment */
export const RATES: Readonly<Record<EndpointId, { base: number; perItem: number }>> = ${JSON.stringify(RATES, null, 2)};
/** per returned item (per text on analyze), per enrichment type */
export const ENRICHMENT_RATES: Readonly<Record<EnrichmentType, number>> = ${JSON.stringify(ENRICHMENT_RATES)};
/** factor on the enrichment part of a charge */
export const PROVIDER_MULTIPLIER: Readonly<Record<LlmProvider, number>> = ${JSON.stringify(PROVIDER_MULTIPLIER)};

/** How a request's item count is bounded, as the server caps it: \`targets × unit × body[cap]\`, or
 *  a fixed count per target. */
export interface Bound {
  /** the body field that caps items per target, and that --max-credits may lower */
  cap?: string;
  /** list field whose length multiplies the bound */
  targets?: string;
  unit: number;
  /** a fixed per-target bound when there is no cap field */
  fixed?: number;
}

export const BOUNDS: Readonly<Record<EndpointId, Bound>> = ${JSON.stringify(BOUNDS, null, 2)};
`;
}

// ---- Python ----

const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

function pyLiteral(v: unknown): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number' || typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pyLiteral).join(', ')}]`;
  if (isObj(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${pyLiteral(x)}`)
      .join(', ')}}`;
  throw new Error(`no Python literal for ${String(v)}`);
}

/** Python names that differ: \`Warning\` would shadow the built-in exception class */
const PY_NAMES: Record<string, string> = { Warning: 'ApiWarning' };
const pyName = (name: string) => PY_NAMES[name] ?? name;

/** a Python literal, indented like black would */
function pyPretty(v: unknown, indent = ''): string {
  const inner = `${indent}    `;
  if (Array.isArray(v)) {
    const flat = pyLiteral(v);
    if (flat.length + indent.length < 90) return flat;
    return `[\n${v.map((x) => `${inner}${pyPretty(x, inner)},\n`).join('')}${indent}]`;
  }
  if (isObj(v)) {
    const flat = pyLiteral(v);
    if (flat.length + indent.length < 90) return flat;
    return `{\n${Object.entries(v)
      .map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pyPretty(x, inner)},\n`)
      .join('')}${indent}}`;
  }
  return pyLiteral(v);
}

function pyType(t: IR): string {
  switch (t.k) {
    case 'ref':
      return pyName(t.name);
    case 'lit':
      return t.value === null ? 'None' : `Literal[${pyLiteral(t.value)}]`;
    case 'prim':
      return { string: 'str', number: 'float', integer: 'int', boolean: 'bool', null: 'None' }[t.t];
    case 'union': {
      const lits = t.of.filter((x) => x.k === 'lit' && x.value !== null) as { value: Lit }[];
      const others = t.of.filter((x) => !(x.k === 'lit' && x.value !== null));
      const nullable =
        others.some((x) => x.k === 'prim' && x.t === 'null') ||
        t.of.some((x) => x.k === 'lit' && x.value === null);
      const parts = [
        ...(lits.length ? [`Literal[${lits.map((l) => pyLiteral(l.value)).join(', ')}]`] : []),
        ...others.filter((x) => !(x.k === 'prim' && x.t === 'null')).map(pyType),
      ];
      const inner = parts.length === 1 ? parts[0]! : `Union[${parts.join(', ')}]`;
      return nullable ? `Optional[${inner}]` : inner;
    }
    case 'array':
      return `List[${pyType(t.items)}]`;
    case 'map':
      return `Dict[str, ${pyType(t.values)}]`;
    case 'any':
      return 'Any';
  }
}

const pyDocLines = (text: string | undefined, indent: string) =>
  (text ?? '')
    .trim()
    .split('\n')
    .map((l) => (l ? `${indent}${l.replaceAll('\\', '\\\\').replaceAll('"""', '\\"\\"\\"')}` : ''));

function pyClassDoc(text: string | undefined, indent: string): string {
  const lines = pyDocLines(text, indent);
  if (!text?.trim()) return '';
  if (lines.length === 1) return `${indent}"""${lines[0]!.trimStart()}"""\n`;
  return `${indent}"""${lines[0]!.trimStart()}\n${lines.slice(1).join('\n')}\n${indent}"""\n`;
}

/** a field's description with its default, as the docs of a Python field or argument */
const pyFieldDoc = (f: Field) =>
  `${f.description ?? ''}${f.default !== undefined ? `${f.description ? ' ' : ''}(default: ${pyLiteral(f.default)})` : ''}`;

function pythonModels(): string {
  let out = `# ${HEADER('for the gleaner Python package')}
# fmt: off
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Literal, Mapping, Optional, Type, TypedDict, Union, cast

from .errors import (
    GleanerAuthError,
    GleanerBadRequestError,
    GleanerError,
    GleanerNotFoundError,
    GleanerPaymentError,
    GleanerRateLimitError,
    GleanerUpstreamError,
)

if TYPE_CHECKING:
    from .client import Paginator

API_VERSION = ${JSON.stringify(API_VERSION)}

`;
  // an alias is a value at import time: one of a literal type comes before the classes, one of
  // another type after them
  const aliases = [...model.named.values()].filter((n) => n.kind === 'alias');
  const objects = [...model.named.values()].filter((n) => n.kind === 'object');
  const pyAlias = (n: Named) => {
    if (n.kind !== 'alias') return '';
    return `${pyName(n.name)} = ${pyType(n.type)}\n${n.description ? `"""${n.description}"""\n` : ''}\n`;
  };
  for (const n of aliases) if (n.kind === 'alias' && !hasRef(n.type)) out += pyAlias(n);
  for (const n of objects) {
    if (n.kind !== 'object') continue;
    const req = n.fields.filter((f) => f.required);
    const opt = n.fields.filter((f) => !f.required);
    const body = (fs: Field[]) => fs.map((f) => `    ${f.name}: ${pyType(f.type)}\n`).join('');
    const fieldDocs = n.fields.filter((f) => pyFieldDoc(f)).map((f) => `    ${f.name}: ${pyFieldDoc(f)}`);
    const doc = [
      n.description ? `${n.description}\n` : '',
      ...(fieldDocs.length ? ['Fields:', ...fieldDocs] : []),
    ]
      .join('\n')
      .trim();
    if (n.fields.some((f) => PY_KEYWORDS.has(f.name))) {
      // a field named like a Python keyword (\`from\`) cannot be written in a class body
      const dict = (fs: Field[]) =>
        `{${fs.map((f) => `${JSON.stringify(f.name)}: ${JSON.stringify(pyType(f.type))}`).join(', ')}}`;
      const name = pyName(n.name);
      out += `\n_${name}Required = TypedDict(${JSON.stringify(`_${name}Required`)}, ${dict(req)})\n`;
      out += `_${name}Optional = TypedDict(${JSON.stringify(`_${name}Optional`)}, ${dict(opt)}, total=False)\n`;
      out += `\n\nclass ${name}(_${name}Required, _${name}Optional):\n`;
      out += pyClassDoc(doc, '    ') || '    pass\n';
    } else if (req.length && opt.length) {
      out += `\nclass _${pyName(n.name)}Required(TypedDict):\n${body(req)}\n\nclass ${pyName(n.name)}(_${pyName(n.name)}Required, total=False):\n`;
      out += pyClassDoc(doc, '    ');
      out += body(opt);
    } else {
      out += `\nclass ${pyName(n.name)}(TypedDict${req.length ? '' : ', total=False'}):\n`;
      out += pyClassDoc(doc, '    ');
      out += body(n.fields) || '    pass\n';
    }
    out += '\n';
  }
  out += '\n';
  for (const n of aliases) if (n.kind === 'alias' && hasRef(n.type)) out += pyAlias(n);

  out += `
EndpointId = Literal[${endpoints.map((e) => JSON.stringify(e.id)).join(', ')}]


class _ApiResultFields(TypedDict):
    endpoint: str
    metadata: Metadata
    credits_used: float
    credits_remaining: Optional[float]
    request_id: Optional[str]
    enrichments: List[EnrichmentType]
    warnings: List[ApiWarning]
    truncated: bool
    replayed: bool
    idempotency_key: str
    attempts: int


class ApiResult(_ApiResultFields):
    """What every endpoint method returns: a plain dict."""
    data: Dict[str, Any]

`;
  for (const e of [...endpoints, ...reads])
    out += `\nclass ${pascal(e.method)}ApiResult(_ApiResultFields):\n    data: ${pyType(e.dataType)}\n\n`;

  const table = Object.fromEntries(
    endpoints.map((e) => [
      e.id,
      { path: e.path, items: e.itemsField, cursor: e.cursor, fields: fieldInfo(e.body) },
    ]),
  );
  out += `\n#: path (under /api/v1), the data field holding the items, whether pages follow a cursor, and the
#: body fields with their bounds and defaults, per endpoint
ENDPOINTS: Dict[str, Dict[str, Any]] = ${pyPretty(table)}\n\n`;

  // errors: one class per error.code, under the class of its kind
  const kindClass: Record<string, string> = {
    BAD_REQUEST: 'GleanerBadRequestError',
    PAYLOAD_TOO_LARGE: 'GleanerBadRequestError',
    UNSUPPORTED_MEDIA_TYPE: 'GleanerBadRequestError',
    METHOD_NOT_ALLOWED: 'GleanerBadRequestError',
    UNAUTHORIZED: 'GleanerAuthError',
    PAYMENT_REQUIRED: 'GleanerPaymentError',
    NOT_FOUND: 'GleanerNotFoundError',
    RATE_LIMITED: 'GleanerRateLimitError',
    EXTERNAL_API_ERROR: 'GleanerUpstreamError',
    SERVICE_UNAVAILABLE: 'GleanerUpstreamError',
  };
  const errorClassName = (code: string) => pascal(code.toLowerCase()).replace(/(Error)?$/, 'Error');
  for (const code of errorCodes) {
    const info = statusOfCode.get(code);
    out += `\nclass ${errorClassName(code)}(${kindClass[code] ?? 'GleanerError'}):\n`;
    out += `    """${info ? `HTTP ${info.status} ${code}: ${info.description}` : code}"""\n\n`;
  }
  const byStatus = new Map<number, string>();
  for (const code of errorCodes) {
    const info = statusOfCode.get(code);
    if (info && !byStatus.has(info.status)) byStatus.set(info.status, code);
  }
  out += `\n#: the error code of each HTTP status, for an answer without the API's envelope
CODE_OF_STATUS: Dict[int, str] = {\n${[...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([st, c]) => `    ${st}: ${JSON.stringify(c)},\n`)
    .join('')}}\n`;
  out += `\n#: the exception class of each error.code of the API
ERROR_CLASSES: Dict[str, Type[GleanerError]] = {\n${errorCodes.map((c) => `    ${JSON.stringify(c)}: ${errorClassName(c)},\n`).join('')}}\n\n`;

  const exported = [
    'API_VERSION',
    'ENDPOINTS',
    'ERROR_CLASSES',
    'CODE_OF_STATUS',
    'EndpointId',
    'ApiResult',
    ...[...model.named.keys()].map(pyName),
    ...[...endpoints, ...reads].map((e) => `${pascal(e.method)}ApiResult`),
    ...errorCodes.map(errorClassName),
  ];
  out += `\n__all__ = [\n${exported.map((n) => `    ${JSON.stringify(n)},\n`).join('')}]\n\n`;

  // methods
  out += `
def _body(**fields: Any) -> Dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


class Endpoints:
    """One method per endpoint of the API: a POST through \`call\`, or a free GET through \`_read\`."""

    def call(
        self, endpoint: EndpointId, params: Mapping[str, Any], *, idempotency_key: Optional[str] = None
    ) -> ApiResult:
        raise NotImplementedError

    def _read(self, endpoint: str, path: str, query: Mapping[str, Any]) -> ApiResult:
        raise NotImplementedError

    def _cursor_pages(
        self,
        endpoint: EndpointId,
        params: Dict[str, Any],
        max_pages: Optional[int],
        before_page: Optional[Callable[[Dict[str, Any]], Any]],
    ) -> Paginator[Any]:
        raise NotImplementedError
`;
  for (const e of endpoints) {
    const params = objectOf(e.params);
    for (const f of params.fields)
      if (PY_KEYWORDS.has(f.name)) throw new Error(`${e.id}: ${f.name} is a Python keyword`);
    const args = (skip: string[] = []) =>
      params.fields
        .filter((f) => !skip.includes(f.name))
        .map((f) =>
          f.required
            ? `        ${f.name}: ${pyType(f.type)},\n`
            : `        ${f.name}: Optional[${pyType(f.type)}] = None,\n`,
        )
        .join('');
    const pass = `_body(\n${params.fields.map((f) => `                ${f.name}=${f.name},\n`).join('')}            )`;
    const argDocs = params.fields.map((f) =>
      `            ${f.name}: ${pyFieldDoc(f)}${f.required ? ' (required)' : ''}`.trimEnd(),
    );
    const doc = (first: string, extra: string[]) =>
      `        """${first}\n\n${pyDocLines(e.description, '        ').join('\n')}\n\n        Args:\n${argDocs.join('\n')}\n${extra.join('\n')}        """\n`;
    out += `
    def ${e.snake}(
        self,
        *,
${args()}        idempotency_key: Optional[str] = None,
    ) -> ${pascal(e.method)}ApiResult:
${doc(`${e.summary}: POST ${API_PREFIX}${e.path}.`, ['            idempotency_key: sent with every attempt of this call (default: a new UUID per call).\n'])}        return cast(
            ${JSON.stringify(`${pascal(e.method)}ApiResult`)},
            self.call(${JSON.stringify(e.id)}, ${pass}, idempotency_key=idempotency_key),
        )
`;
    if (e.cursor) {
      const itemsType = objectOf(e.dataType).fields.find((f) => f.name === e.itemsField)?.type;
      const itemType = itemsType?.k === 'array' ? pyType(itemsType.items) : 'Dict[str, Any]';
      out += `
    def iterate_${e.snake}(
        self,
        *,
${args()}        max_pages: Optional[int] = None,
        before_page: Optional[Callable[[Dict[str, Any]], Any]] = None,
    ) -> Paginator[${itemType}]:
${doc(
  `All ${e.summary[0]!.toLowerCase()}${e.summary.slice(1)}, page after page: follows \`cursor\` while \`has_more\`.`,
  [
    '            max_pages: stop after this many pages.',
    '            before_page: called before each request with {"body", "page", "credits_used", "items",',
    '                "previous"}; return False to stop, or a dict of fields to change in the body.\n',
  ],
)}        return self._cursor_pages(
            ${JSON.stringify(e.id)},
            ${pass},
            max_pages,
            before_page,
        )
`;
    }
  }
  for (const r of reads) {
    const params = r.params ? objectOf(r.params).fields : [];
    const arg = (name: string) => (PY_KEYWORDS.has(name) ? `${name}_` : name);
    const args = params
      .map((f) =>
        f.required
          ? `        ${arg(f.name)}: ${pyType(f.type)},\n`
          : `        ${arg(f.name)}: Optional[${pyType(f.type)}] = None,\n`,
      )
      .join('');
    const argDocs = params.map((f) =>
      `            ${arg(f.name)}: ${pyFieldDoc(f)}${f.required ? ' (required)' : ''}`.trimEnd(),
    );
    const query = params.length
      ? `_body(**{${params.map((f) => `${JSON.stringify(f.name)}: ${arg(f.name)}`).join(', ')}})`
      : '{}';
    out += `
    def ${r.snake}(${params.length ? `\n        self,\n        *,\n${args}    ` : 'self'}) -> ${pascal(r.method)}ApiResult:
        """${r.summary}: GET ${API_PREFIX}${r.path}.

${pyDocLines(r.description, '        ').join('\n')}
${argDocs.length ? `\n        Args:\n${argDocs.join('\n')}\n` : ''}        """
        return cast(
            ${JSON.stringify(`${pascal(r.method)}ApiResult`)},
            self._read(${JSON.stringify(r.id)}, ${JSON.stringify(r.path)}, ${query}),
        )
`;
  }
  return out;
}

// ---- versions ----

function versionOk(v: string): boolean {
  const [a, b] = API_VERSION.split('.');
  const [x, y] = v.split('.');
  return a === x && b === y;
}

// ---- write or check ----

function biomeFormat(file: string, text: string): string {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/@biomejs/biome/bin/biome'), 'format', `--stdin-file-path=${file}`],
    { input: text, encoding: 'utf8', cwd: ROOT },
  );
  if (r.status !== 0) throw new Error(`biome could not format ${file}:\n${r.stderr}`);
  return r.stdout;
}

const outputs: Array<[string, string]> = [
  ['packages/client/src/generated.ts', biomeFormat('packages/client/src/generated.ts', typescriptClient())],
  ['packages/cli/src/contract.ts', biomeFormat('packages/cli/src/contract.ts', cliContract())],
  ['clients/python/src/gleaner/_generated.py', pythonModels()],
];

const check = process.argv.includes('--check');
let failed = false;
for (const [file, content] of outputs) {
  const abs = join(ROOT, file);
  let current = '';
  try {
    current = readFileSync(abs, 'utf8');
  } catch {}
  if (current === content) continue;
  if (check) {
    failed = true;
    process.stderr.write(
      `${file} is out of date with docs/openapi.json: run npm run gen:clients and commit it\n`,
    );
  } else {
    writeFileSync(abs, content);
    process.stdout.write(`wrote ${file}\n`);
  }
}

const versions: Array<[string, string]> = [
  [
    'packages/client/package.json',
    JSON.parse(readFileSync(join(ROOT, 'packages/client/package.json'), 'utf8')).version,
  ],
  [
    'packages/cli/package.json',
    JSON.parse(readFileSync(join(ROOT, 'packages/cli/package.json'), 'utf8')).version,
  ],
  [
    'clients/python/pyproject.toml',
    /^version\s*=\s*"([^"]+)"/m.exec(
      readFileSync(join(ROOT, 'clients/python/pyproject.toml'), 'utf8'),
    )?.[1] ?? '',
  ],
];
for (const [file, v] of versions)
  if (!versionOk(v)) {
    failed = true;
    process.stderr.write(
      `${file}: version ${v} does not follow the API's ${API_VERSION} (major.minor must match): raise it\n`,
    );
  }
if (failed) process.exit(1);
if (check) process.stdout.write(`clients are in sync with docs/openapi.json (API ${API_VERSION})\n`);
else process.stdout.write(`clients generated from ${relative(ROOT, docPath)}\n`);
