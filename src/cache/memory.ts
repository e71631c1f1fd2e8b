// A least-recently-used cache in this process, with a time to live per entry (lru-cache).
import { LRUCache } from 'lru-cache';
import type { CacheStore } from './interface.js';

export class MemoryCache implements CacheStore {
  readonly kind = 'memory' as const;
  private readonly entries: LRUCache<string, string>;

  constructor(maxEntries: number) {
    this.entries = new LRUCache({ max: maxEntries, ttlAutopurge: false });
  }

  get size(): number {
    return this.entries.size;
  }

  async getMany(keys: readonly string[]) {
    return keys.map((k) => this.entries.get(k));
  }

  async setMany(entries: ReadonlyArray<readonly [string, string]>, ttlSeconds: number) {
    const ttl = ttlSeconds * 1000;
    for (const [k, value] of entries) this.entries.set(k, value, { ttl });
  }

  async close() {
    this.entries.clear();
  }
}
