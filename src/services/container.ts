// The composition root of the service layer: builds the ledger, the platform sources and the
// enrichment backends from the validated configuration. Tests pass their own parts (test doubles
// at the seams); the product builds every part from config.
import type { Logger } from 'pino';
import { type Ledger, openLedger } from '../billing/ledger/index.js';
import type { Config } from '../config.js';
import type { Enricher } from '../enrichment/interface.js';
import type { Sources } from '../sources/interface.js';

export interface Services {
  config: Config;
  logger: Logger;
  ledger: Ledger;
  sources: Sources;
  enricher: Enricher;
  holdTtlMs: number;
  close(): Promise<void>;
}

export interface ServiceParts {
  ledger?: Ledger;
  sources?: Sources;
  enricher?: Enricher;
}

export async function createServices(
  config: Config,
  logger: Logger,
  parts: ServiceParts = {},
): Promise<Services> {
  const ledger = parts.ledger ?? (await openLedger(config.databaseUrl));
  let sources: Sources | undefined;
  let s: { sources: Sources; enricher: Enricher };
  try {
    sources = parts.sources ?? (await (await import('../sources/index.js')).createSources(config, logger));
    const enricher = parts.enricher ?? (await import('../enrichment/index.js')).createEnricher(config);
    s = { sources, enricher };
  } catch (e) {
    await sources?.close();
    await ledger.close();
    throw e;
  }
  return {
    config,
    logger,
    ledger,
    sources: s.sources,
    enricher: s.enricher,
    holdTtlMs: config.HOLD_TTL_SECONDS * 1000,
    async close() {
      await s.enricher.close();
      await s.sources.close();
      await ledger.close();
    },
  };
}
