// The two limits the API applies, and where their counters live. Per-key limits (requests per
// window, requests running at once) are checked right after authentication, before any billing,
// so a limited call costs nothing; the failed-authentication limit counts per client address.
// Each limit is counted on a store (limits.ts) when configured, and is a no-op (noop.ts) when not;
// index.ts picks. A store only makes counters: in this process (memory.ts), or shared by every
// instance (redis.ts, postgres.ts).
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

export type LimitReason = 'requests' | 'concurrency' | 'auth_failures';

export interface Admission {
  allowed: boolean;
  /** RateLimit-Policy and RateLimit, to send with the response whatever it is */
  headers: Record<string, string>;
  reason?: LimitReason;
  retryAfterSeconds?: number;
  /** frees the concurrency slot; call once when the response is done */
  release?: () => void;
}

/** the per-key limits */
export interface KeyLimiter {
  /** Counts one request of `keyId` and takes a concurrency slot (the no-op answers at once,
   *  without a promise). */
  admit(keyId: string): Admission | Promise<Admission>;
}

/** the limit of failed authentications per client address */
export interface AuthFailureLimiter {
  /** Seconds an address must wait, when this instance knows it is blocked; else null. */
  blocked(address: string): number | null;
  /** Counts a failed authentication; returns the seconds to wait when the address is now over
   *  its limit (the caller answers 429 instead of 401), else null. */
  failed(address: string): Promise<number | null>;
}

export interface RateLimiter {
  /** where the counters live; null when every limit is off */
  readonly store: RateLimitStore | null;
  readonly keys: KeyLimiter;
  readonly authFailures: AuthFailureLimiter;
  close(): Promise<void>;
}
