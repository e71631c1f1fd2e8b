// Counters in the ledger's PostgreSQL database (table rate_limits, created by the ledger
// migrations), shared by every instance without Redis. One upsert per counted request; when the
// database does not answer, a counter in this process stands in.
import pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import type { CounterSpec, RateLimitStore } from './interface.js';

export function postgresStore(url: string, poolSize = 4): RateLimitStore {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => {});
  return {
    kind: 'postgres',
    counter: (spec: CounterSpec) =>
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: true,
        keyPrefix: spec.keyPrefix,
        points: spec.points,
        duration: spec.durationSeconds,
        insuranceLimiter: new RateLimiterMemory({
          keyPrefix: spec.keyPrefix,
          points: spec.points,
          duration: spec.durationSeconds,
        }),
      }),
    close: () => pool.end(),
  };
}
