// The composition root of the service layer: builds the ledger, the platform sources and the
// enrichment backends from the validated configuration, and wraps the seams with what production
// needs (metrics, caches, the shared Redis, rate limits). Tests pass their own parts (test
// doubles at the seams); the product builds every part from config.
//
// Wrapping order, innermost first:
//   sources:  backend → [fault injection, tests only] → metrics → response cache
//   enricher: analyzer → metrics → result cache
//   ledger:   database → [key lookup cache → balance peek cache] → hold metrics
// so that a cache hit is neither an upstream call nor analyzer work, and injected faults count
// as upstream failures.
import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { isPostgresUrl, type Ledger, openLedger } from './billing/ledger/index.js';
import { PeekCacheLedger } from './cache/balances.js';
import { cacheEnricher, cacheSources, createCacheStore } from './cache/index.js';
import { KeyCacheLedger } from './cache/key-lookups.js';
import type { Config } from './config.js';
import type { Enricher } from './enrichment/interface.js';
import { instrumentEnricher } from './metrics/enrichment.js';
import { Metrics } from './metrics/index.js';
import { MeteredLedger } from './metrics/ledger.js';
import { instrumentSources } from './metrics/sources.js';
import { createRateLimiter, type RateLimiter } from './ratelimit/index.js';
import { injectFaults } from './sources/fault-injection.js';
import type { Sources } from './sources/interface.js';

export interface Services {
  config: Config;
  logger: Logger;
  ledger: Ledger;
  sources: Sources;
  enricher: Enricher;
  holdTtlMs: number;
  metrics: Metrics;
  rateLimiter: RateLimiter;
  close(): Promise<void>;
}

export interface ServiceParts {
  ledger?: Ledger;
  sources?: Sources;
  enricher?: Enricher;
  metrics?: Metrics;
}

async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  // no offline queue: while Redis is away, commands fail at once (a cache miss, a rate limit
  // counted in memory) instead of queueing behind a dead connection
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 3000 });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const timer = setTimeout(() => redis.emit('gleaner-timeout'), 3000);
  try {
    await Promise.race([once(redis, 'ready'), once(redis, 'gleaner-timeout')]);
  } finally {
    clearTimeout(timer);
  }
  if (redis.status !== 'ready')
    logger.warn('redis is not reachable yet: caches miss and rate limits count locally');
  return redis;
}

export async function createServices(
  config: Config,
  logger: Logger,
  parts: ServiceParts = {},
): Promise<Services> {
  const metrics = parts.metrics ?? new Metrics();
  const rawLedger =
    parts.ledger ?? (await openLedger(config.databaseUrl, { poolSize: config.DATABASE_POOL_SIZE }));
  let redis: Redis | null = null;
  let rawSources: Sources | undefined;
  let rawEnricher: Enricher | undefined;
  try {
    redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, logger) : null;
    rawSources = parts.sources ?? (await (await import('./sources/index.js')).createSources(config, logger));
    rawEnricher =
      parts.enricher ??
      (await import('./enrichment/index.js')).createEnricher(config, {
        onBusy: (provider, seconds) => metrics.enrichmentBusy.inc({ provider }, seconds),
      });
  } catch (e) {
    await rawSources?.close();
    redis?.disconnect();
    await rawLedger.close();
    throw e;
  }

  const storeError = (store: string) => (err: unknown) => {
    metrics.storeErrors.inc({ store });
    logger.warn({ err: err instanceof Error ? err.message : String(err), store }, 'shared store failed');
  };
  const cacheHooks = (cache: string) => ({
    onHit: (n: number) => metrics.cacheRequests.inc({ cache, result: 'hit' }, n),
    onMiss: (n: number) => metrics.cacheRequests.inc({ cache, result: 'miss' }, n),
  });

  let sources = injectFaults(rawSources, config.GLEANER_FAULT_INJECTION);
  if (config.GLEANER_FAULT_INJECTION > 0)
    logger.warn(
      { rate: config.GLEANER_FAULT_INJECTION },
      'GLEANER_FAULT_INJECTION is set: platform calls fail on purpose',
    );
  sources = instrumentSources(sources, metrics);
  sources = cacheSources(
    sources,
    createCacheStore('source', { redis, maxEntries: config.CACHE_MAX_ENTRIES, onError: storeError('cache') }),
    config.CACHE_TTL_SECONDS,
    cacheHooks('source'),
  );
  const enricher = cacheEnricher(
    instrumentEnricher(rawEnricher, metrics),
    createCacheStore('enrichment', {
      redis,
      maxEntries: config.CACHE_MAX_ENTRIES,
      onError: storeError('cache'),
    }),
    config.ENRICHMENT_CACHE_TTL_SECONDS,
    cacheHooks('enrichment'),
  );
  const keyed =
    config.KEY_CACHE_SECONDS > 0
      ? new PeekCacheLedger(
          new KeyCacheLedger(rawLedger, config.KEY_CACHE_SECONDS * 1000, cacheHooks('key')),
          config.KEY_CACHE_SECONDS * 1000,
        )
      : rawLedger;
  const ledger = new MeteredLedger(keyed, metrics);

  const policy = {
    requests: config.RATE_LIMIT_REQUESTS,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    concurrency: config.RATE_LIMIT_CONCURRENCY,
    // a slot held by a crashed instance frees itself after the longest a call can take
    concurrencyTtlSeconds: Math.ceil(config.REQUEST_TIMEOUT_MS / 1000) + 30,
    authFailuresPerMinute: config.AUTH_FAILURE_LIMIT,
  };
  const rateLimiter = createRateLimiter(
    { redis, postgresUrl: isPostgresUrl(config.databaseUrl) ? config.databaseUrl : null },
    policy,
    {
      onLimited: (reason) => metrics.rateLimited.inc({ reason }),
      onStoreError: storeError('ratelimit'),
    },
  );

  return {
    config,
    logger,
    ledger,
    sources,
    enricher,
    holdTtlMs: config.HOLD_TTL_SECONDS * 1000,
    metrics,
    rateLimiter,
    async close() {
      await enricher.close();
      await sources.close();
      await rateLimiter.close();
      redis?.disconnect();
      await ledger.close();
    },
  };
}
