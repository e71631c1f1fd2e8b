// Where rate-limit counters live. The policy (what is counted, the headers, the 429) is in
// index.ts and is the same for every store; a store only makes counters: in this process
// (memory.ts), or shared by every instance (redis.ts, postgres.ts).
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

export interface CounterSpec {
  /** namespace of the counter ('req', 'conc', 'authfail') */
  keyPrefix: string;
  /** points a key may consume per window */
  points: number;
  durationSeconds: number;
}

export interface RateLimitStore {
  readonly kind: 'memory' | 'redis' | 'postgres';
  counter(spec: CounterSpec): RateLimiterAbstract;
  close(): Promise<void>;
}
