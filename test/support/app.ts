// Boots the real app in-process on its own SQLite file, with test doubles at the seams unless a
// test passes real parts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pino, { type Logger } from 'pino';
import { type App, buildApp } from '../../src/app.js';
import type { Ledger } from '../../src/billing/ledger/interface.js';
import { SqliteLedger } from '../../src/billing/ledger/sqlite/ledger.js';
import { createServices, type Services } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import type { Enricher } from '../../src/enrichment/interface.js';
import { createKey } from '../../src/services/accounts.js';
import type { Sources } from '../../src/sources/interface.js';
import { fakeEnricher, fakeSources } from './fakes.js';

export interface TestApp {
  app: App;
  services: Services;
  ledger: Ledger;
  dir: string;
  /** a key with the credits asked for */
  key: string;
  keyId: string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  newKey(credits: number): Promise<{ key: string; id: string }>;
  balance(keyId?: string): Promise<number>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  credits?: number;
  env?: Record<string, string>;
  sources?: Sources;
  /** 'built-in': the analyzer the service creates itself from its configuration (with its metrics) */
  enricher?: Enricher | 'built-in';
  ledger?: Ledger;
  /** the app's logger (default: silent) */
  logger?: Logger;
}

export async function startApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-test-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'ledger.db')}`,
    LOG_LEVEL: 'silent',
    ...opts.env,
  });
  const logger = opts.logger ?? pino({ level: 'silent' });
  const ledger = opts.ledger ?? new SqliteLedger(join(dir, 'ledger.db'));
  const services = await createServices(config, logger, {
    ledger,
    sources: opts.sources ?? fakeSources(),
    ...(opts.enricher === 'built-in' ? {} : { enricher: opts.enricher ?? fakeEnricher() }),
  });
  const app = await buildApp({ services, logger });
  await app.ready();
  const k = await createKey({ ledger }, 'test', opts.credits ?? 1000);
  const t: TestApp = {
    app,
    services,
    ledger,
    dir,
    key: k.key,
    keyId: k.id,
    post: (path, body, headers = {}) =>
      app.inject({
        method: 'POST',
        url: path.startsWith('/') && !path.startsWith('/api') ? `/api/v1${path}` : path,
        headers: { 'content-type': 'application/json', 'x-api-key': k.key, ...headers },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    inject: (o) => app.inject(o),
    newKey: async (credits) => {
      const n = await createKey({ ledger }, 'extra', credits);
      return { key: n.key, id: n.id };
    },
    balance: async (keyId = k.id) => ((await ledger.getKey(keyId))?.balance ?? Number.NaN) / 1000,
    close: async () => {
      await app.close();
      await services.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}
