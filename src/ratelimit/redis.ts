// Counters in Redis, shared by every instance. When Redis does not answer, each counter falls
// back to one in this process (the insurance limiter), so an outage of Redis degrades the limits
// to per-instance ones instead of failing the API.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { CounterSpec, RateLimitStore } from './interface.js';

export function redisStore(client: Redis): RateLimitStore {
  return {
    kind: 'redis',
    counter: (spec: CounterSpec) =>
      new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `gleaner:rl:${spec.keyPrefix}`,
        points: spec.points,
        duration: spec.durationSeconds,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({
          keyPrefix: spec.keyPrefix,
          points: spec.points,
          duration: spec.durationSeconds,
        }),
      }),
    // the client belongs to the container, which closes it
    async close() {},
  };
}
