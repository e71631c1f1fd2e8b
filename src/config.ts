// The service's configuration: environment variables (and a .env file in the working folder),
// validated once at boot. A bad setting stops the start with a message naming it.
// Nothing else reads process.env.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const int = (dflt: number, min: number, max: number, description: string) =>
  Type.Integer({ default: dflt, minimum: min, maximum: max, description });

export const ConfigEnv = Type.Object({
  PORT: int(8080, 0, 65535, 'TCP port to listen on'),
  HOST: Type.String({
    default: '127.0.0.1',
    description: 'Address to bind; 0.0.0.0 to accept connections from other machines',
  }),
  DATABASE_URL: Type.String({
    default: 'sqlite:./data/gleaner.db',
    pattern: '^(sqlite:.+|postgres(ql)?://.+)$',
    description:
      'Ledger database: sqlite:PATH (relative paths from the working folder) or postgres://user@host:port/db',
  }),
  ADMIN_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description: 'Bearer token of the admin API under /admin/v1; the admin API is off when unset',
    }),
  ),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'Log level of the JSON logs on stdout' },
  ),
  CLIPNET_SOURCE: Type.String({
    default: 'sandbox',
    pattern: '^[a-z0-9-]+(,[a-z0-9-]+)*$',
    description: 'Backend(s) serving clipnet, comma-separated for failover: sandbox or a live backend name',
  }),
  PICNET_SOURCE: Type.String({
    default: 'sandbox',
    pattern: '^[a-z0-9-]+(,[a-z0-9-]+)*$',
    description: 'Backend(s) serving picnet, comma-separated for failover',
  }),
  VIDNET_SOURCE: Type.String({
    default: 'sandbox',
    pattern: '^[a-z0-9-]+(,[a-z0-9-]+)*$',
    description: 'Backend(s) serving vidnet, comma-separated for failover',
  }),
  BLIPNET_SOURCE: Type.String({
    default: 'sandbox',
    pattern: '^[a-z0-9-]+(,[a-z0-9-]+)*$',
    description: 'Backend(s) serving blipnet, comma-separated for failover: sandbox or atproto',
  }),
  SANDBOX_DB: Type.Optional(
    Type.String({ description: 'File of the generated sandbox world (default: data/sandbox-vN.db)' }),
  ),
  DEMO_KEY_CREDITS: int(
    1000,
    0,
    1_000_000_000,
    'Credits of the demo key created on first start (0: no demo key)',
  ),
  HOLD_TTL_SECONDS: int(
    300,
    10,
    86_400,
    'A hold not settled within this time (a crashed call) expires and charges nothing',
  ),
  IDEMPOTENCY_TTL_HOURS: int(24, 24, 24 * 30, 'How long a stored Idempotency-Key response is replayed'),
  IDEMPOTENCY_LOCK_SECONDS: int(
    30,
    1,
    3600,
    'How long a retry waits (409) for a first attempt before it takes the key over (the first attempt, if still running, is then refused and charges nothing)',
  ),
  REQUEST_TIMEOUT_MS: int(60_000, 1000, 600_000, 'Deadline of one API call, upstream calls included'),
  SWEEP_INTERVAL_SECONDS: int(30, 1, 3600, 'How often expired holds and idempotency records are swept'),
  ENRICH_THREADS: int(
    0,
    0,
    64,
    'Worker threads of the built-in analyzer; 0: cores − 1 (1 to 4). Batches under 2,000 characters run on the main thread, under 20,000 when the process may use only one core (a worker could not run beside it)',
  ),
  LLM_PROVIDERS: Type.String({
    default: '',
    pattern: '^((model-2\\.0-flash|model-1\\.5-pro)(,(model-2\\.0-flash|model-1\\.5-pro))*)?$',
    description:
      'Provider names served by the LLM backend instead of the built-in analyzer, comma-separated (needs LLM_BASE_URL and LLM_MODEL)',
  }),
  LLM_BASE_URL: Type.Optional(
    Type.String({ pattern: '^https?://', description: 'OpenAI-compatible API base, e.g. https://host/v1' }),
  ),
  LLM_API_KEY: Type.Optional(Type.String({ description: 'Bearer key of the LLM backend' })),
  LLM_MODEL: Type.Optional(Type.String({ description: 'Model name sent to the LLM backend' })),
  LLM_TIMEOUT_MS: int(30_000, 1000, 600_000, 'Per-attempt timeout of LLM calls'),
  DATABASE_POOL_SIZE: int(10, 1, 200, 'PostgreSQL connections of each instance (ledger)'),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://',
      description:
        'Redis shared by every instance for rate limits and caches (redis://host:6379/0); unset: rate limits in PostgreSQL when DATABASE_URL is PostgreSQL, else in memory, and caches in memory',
    }),
  ),
  RATE_LIMIT_REQUESTS: int(
    0,
    0,
    1_000_000,
    'Requests each API key may make per window, across instances (0: no limit); more get 429 RATE_LIMITED',
  ),
  RATE_LIMIT_WINDOW_SECONDS: int(60, 1, 86_400, 'The window of RATE_LIMIT_REQUESTS'),
  RATE_LIMIT_CONCURRENCY: int(
    0,
    0,
    10_000,
    'Requests each API key may have running at once, across instances (0: no limit)',
  ),
  AUTH_FAILURE_LIMIT: int(
    30,
    0,
    100_000,
    'Failed authentications (API key, admin token, metrics token) a client address may make per minute; past it, its failing requests get 429 instead of 401, while requests with valid credentials are always served (0: no limit)',
  ),
  TRUST_PROXY: Type.String({
    default: '',
    pattern: '^(|true|false|\\d+|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$',
    description:
      'Behind a load balancer: true, a hop count, or the proxy addresses/CIDRs (comma-separated) whose X-Forwarded-For is trusted for the client address',
  }),
  CACHE_TTL_SECONDS: int(
    60,
    0,
    86_400,
    'How long a live platform answer is reused for the same request shape (0: off; the local sandbox is never cached)',
  ),
  ENRICHMENT_CACHE_TTL_SECONDS: int(
    86_400,
    0,
    30 * 86_400,
    "How long an enrichment result is reused for the same text, types, categories, provider and models (a digest of the model files, or the LLM backend's model name, is part of the key; 0: off)",
  ),
  CACHE_MAX_ENTRIES: int(10_000, 100, 10_000_000, 'Entries of each in-memory cache (without REDIS_URL)'),
  KEY_CACHE_SECONDS: int(
    2,
    0,
    60,
    'How long an instance reuses an API key lookup (0: off); a revocation is at once in the instance that made it, in other instances within this time',
  ),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description:
        'When set, GET /metrics needs Authorization: Bearer METRICS_TOKEN; unset: /metrics is open',
    }),
  ),
  GLEANER_FAULT_INJECTION: Type.Number({
    default: 0,
    minimum: 0,
    maximum: 1,
    description:
      'Testing only: the share of platform calls that fail on purpose (errors, timeouts, resets); never set it in production',
  }),
});
export type ConfigEnv = Static<typeof ConfigEnv>;

export interface Config extends ConfigEnv {
  /** DATABASE_URL with a relative sqlite path made absolute */
  databaseUrl: string;
  sources: { clipnet: string[]; picnet: string[]; vidnet: string[]; blipnet: string[] };
  llmProviders: string[];
  /** TRUST_PROXY as Fastify's trustProxy option */
  trustProxy: boolean | number | string[];
  /** every variable as read, for backends that declare their own (live sources) */
  env: Record<string, string | undefined>;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads a `.env` file from the working folder into `env` without overriding what is set. */
export function loadDotEnv(env: NodeJS.ProcessEnv, cwd = process.cwd()): void {
  const file = join(cwd, '.env');
  if (!existsSync(file)) return;
  const before = { ...env };
  process.loadEnvFile(file);
  // process.loadEnvFile writes into process.env; keep explicit settings winning
  for (const [k, v] of Object.entries(before)) env[k] = v;
}

export function loadConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigEnv.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const withDefaults = Value.Default(ConfigEnv, raw);
  const converted = Value.Convert(ConfigEnv, withDefaults);
  const errors = [...Value.Errors(ConfigEnv, converted)];
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const name = e.path.replace(/^\//, '');
      const shown = name.includes('TOKEN') || name.includes('KEY') ? '(hidden)' : JSON.stringify(env[name]);
      return `  ${name}=${shown}: ${e.message}`;
    });
    throw new ConfigError(`invalid configuration:\n${[...new Set(lines)].join('\n')}`);
  }
  const c = converted as ConfigEnv;
  const list = (s: string) => s.split(',').filter(Boolean);
  let databaseUrl = c.DATABASE_URL;
  if (databaseUrl.startsWith('sqlite:')) {
    const p = databaseUrl.slice('sqlite:'.length);
    databaseUrl = `sqlite:${p === ':memory:' || isAbsolute(p) ? p : resolve(cwd, p)}`;
  }
  if (list(c.LLM_PROVIDERS).length > 0 && (!c.LLM_BASE_URL || !c.LLM_MODEL))
    throw new ConfigError(
      'invalid configuration:\n  LLM_PROVIDERS is set but LLM_BASE_URL or LLM_MODEL is missing',
    );
  return {
    ...c,
    ENRICH_THREADS: c.ENRICH_THREADS || Math.max(1, Math.min(4, availableParallelism() - 1)),
    databaseUrl,
    sources: {
      clipnet: list(c.CLIPNET_SOURCE),
      picnet: list(c.PICNET_SOURCE),
      vidnet: list(c.VIDNET_SOURCE),
      blipnet: list(c.BLIPNET_SOURCE),
    },
    llmProviders: list(c.LLM_PROVIDERS),
    trustProxy:
      c.TRUST_PROXY === '' || c.TRUST_PROXY === 'false'
        ? false
        : c.TRUST_PROXY === 'true'
          ? true
          : /^\d+$/.test(c.TRUST_PROXY)
            ? Number(c.TRUST_PROXY)
            : list(c.TRUST_PROXY),
    env: { ...env },
  };
}
