// Where cached answers live: this process (memory.ts, an LRU) or Redis (redis.ts, shared by
// every instance). Values are strings (JSON): a hit is always a fresh copy, never an object some
// caller could have changed. A cache never fails a call: a store error is a miss.
export interface CacheStore {
  readonly kind: 'memory' | 'redis';
  /** one value (or undefined) per key, in order */
  getMany(keys: readonly string[]): Promise<Array<string | undefined>>;
  setMany(entries: ReadonlyArray<readonly [string, string]>, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
}
