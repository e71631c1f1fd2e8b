// Builds the rate limits from the policy: each limit that is on is counted on the store config
// picks (Redis when REDIS_URL is set, else the ledger's PostgreSQL, else memory); a limit that is
// off is a no-op, and with every limit off no store is opened.
import type { Redis } from 'ioredis';
import type { RateLimiter, RateLimitStore } from './interface.js';
import {
  type KeyLimitsPolicy,
  type RateLimiterHooks,
  StoreAuthFailureLimiter,
  StoreKeyLimiter,
} from './limits.js';
import { memoryStore } from './memory.js';
import { noAuthFailureLimit, noKeyLimits } from './noop.js';
import { postgresStore } from './postgres.js';
import { redisStore } from './redis.js';

export type { Admission, LimitReason, RateLimiter, RateLimitStore } from './interface.js';
export type { RateLimiterHooks } from './limits.js';

export interface RateLimitPolicy extends KeyLimitsPolicy {
  /** failed authentications per address per minute; 0: no limit */
  authFailuresPerMinute: number;
}

export interface RateLimitStoreChoice {
  redis?: Redis | null;
  /** the ledger's PostgreSQL URL, when it is PostgreSQL */
  postgresUrl?: string | null;
}

function createRateLimitStore(choice: RateLimitStoreChoice): RateLimitStore {
  if (choice.redis) return redisStore(choice.redis);
  if (choice.postgresUrl) return postgresStore(choice.postgresUrl);
  return memoryStore();
}

export function createRateLimiter(
  choice: RateLimitStoreChoice,
  policy: RateLimitPolicy,
  hooks: RateLimiterHooks = {},
): RateLimiter {
  const perKey = policy.requests > 0 || policy.concurrency > 0;
  const authFailures = policy.authFailuresPerMinute > 0;
  if (!perKey && !authFailures)
    return { store: null, keys: noKeyLimits, authFailures: noAuthFailureLimit, close: async () => {} };
  const store = createRateLimitStore(choice);
  return {
    store,
    keys: perKey ? new StoreKeyLimiter(store, policy, hooks) : noKeyLimits,
    authFailures: authFailures
      ? new StoreAuthFailureLimiter(store, policy.authFailuresPerMinute, hooks)
      : noAuthFailureLimit,
    close: () => store.close(),
  };
}
