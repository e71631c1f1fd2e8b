// The cache in Redis, shared by every instance (MGET, SET … EX in one pipeline). Errors and a
// Redis that is down are misses: the call goes to the platform or the analyzer as if uncached.
import type { Redis } from 'ioredis';
import type { CacheStore } from './interface.js';

export class RedisCache implements CacheStore {
  readonly kind = 'redis' as const;

  constructor(
    private readonly client: Redis,
    private readonly prefix = 'gleaner:cache:',
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  async getMany(keys: readonly string[]) {
    if (keys.length === 0) return [];
    try {
      const values = await this.client.mget(...keys.map((k) => this.prefix + k));
      return values.map((v) => v ?? undefined);
    } catch (err) {
      this.onError(err);
      return keys.map(() => undefined);
    }
  }

  async setMany(entries: ReadonlyArray<readonly [string, string]>, ttlSeconds: number) {
    if (entries.length === 0) return;
    try {
      const p = this.client.pipeline();
      for (const [k, v] of entries) p.set(this.prefix + k, v, 'EX', ttlSeconds);
      await p.exec();
    } catch (err) {
      this.onError(err);
    }
  }

  // the client belongs to the container, which closes it
  async close() {}
}
