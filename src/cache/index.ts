// Picks the cache store: Redis (shared by every instance) when REDIS_URL is set, else an LRU in
// this process. Two stores, so that large platform answers cannot evict enrichment results.
import type { Redis } from 'ioredis';
import type { CacheStore } from './interface.js';
import { MemoryCache } from './memory.js';
import { RedisCache } from './redis.js';

export { cacheEnricher } from './enrichment.js';
export type { CacheStore } from './interface.js';
export { cacheSources } from './sources.js';

export function createCacheStore(
  name: 'source' | 'enrichment',
  opts: { redis?: Redis | null; maxEntries: number; onError?: (err: unknown) => void },
): CacheStore {
  if (opts.redis) return new RedisCache(opts.redis, `gleaner:cache:${name}:`, opts.onError);
  return new MemoryCache(opts.maxEntries);
}
