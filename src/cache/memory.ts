// A least-recently-used cache in this process, with a time to live per entry. A Map keeps
// insertion order, so re-inserting on a hit makes the first entry the least recently used.
import type { CacheStore } from './interface.js';

export class MemoryCache implements CacheStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, { value: string; expires: number }>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  async getMany(keys: readonly string[]) {
    const now = Date.now();
    return keys.map((k) => {
      const e = this.entries.get(k);
      if (!e) return undefined;
      this.entries.delete(k);
      if (e.expires <= now) return undefined;
      this.entries.set(k, e);
      return e.value;
    });
  }

  async setMany(entries: ReadonlyArray<readonly [string, string]>, ttlSeconds: number) {
    const expires = Date.now() + ttlSeconds * 1000;
    for (const [k, value] of entries) {
      this.entries.delete(k);
      this.entries.set(k, { value, expires });
      while (this.entries.size > this.maxEntries) {
        const oldest = this.entries.keys().next();
        if (oldest.done) break;
        this.entries.delete(oldest.value);
      }
    }
  }

  async close() {
    this.entries.clear();
  }
}
