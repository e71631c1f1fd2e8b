// Per-key rate limits (requests per window, requests running at once) and the per-address limit
// of failed authentications, on the store that config picks: Redis when REDIS_URL is set, else
// the ledger's PostgreSQL, else memory. Limits are checked right after authentication, before
// any billing, so a limited call costs nothing. A store that fails lets calls through (and the
// failure is counted): limits protect capacity, they never take the API down.
//
// Headers follow the IETF draft "RateLimit header fields for HTTP" (structured fields):
//   RateLimit-Policy: "requests";q=100;w=60, "concurrency";q=5;qu="concurrent-requests"
//   RateLimit: "requests";r=42;t=17
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { CounterSpec, RateLimitStore } from './interface.js';
import { memoryStore } from './memory.js';
import { postgresStore } from './postgres.js';
import { redisStore } from './redis.js';

export type { RateLimitStore } from './interface.js';

export interface RateLimitPolicy {
  /** requests per window per key; 0: no limit */
  requests: number;
  windowSeconds: number;
  /** requests running at once per key; 0: no limit */
  concurrency: number;
  /** after this long a slot of a crashed instance frees itself */
  concurrencyTtlSeconds: number;
  /** failed authentications per address per minute; 0: no limit */
  authFailuresPerMinute: number;
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

export interface RateLimiterHooks {
  onLimited?(reason: LimitReason): void;
  onStoreError?(err: unknown): void;
}

const isRes = (v: unknown): v is RateLimiterRes => v instanceof RateLimiterRes;
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class RateLimiter {
  private readonly requests: RateLimiterAbstract | null;
  private readonly concurrency: RateLimiterAbstract | null;
  private readonly authFailures: RateLimiterAbstract | null;
  /** addresses this instance saw blocked, until when (ms): no store round trip on the hot path */
  private readonly blocked = new Map<string, number>();
  private readonly policyHeader: string;

  constructor(
    readonly store: RateLimitStore,
    readonly policy: RateLimitPolicy,
    private readonly hooks: RateLimiterHooks = {},
  ) {
    const counter = (spec: CounterSpec) => store.counter(spec);
    this.requests =
      policy.requests > 0
        ? counter({ keyPrefix: 'req', points: policy.requests, durationSeconds: policy.windowSeconds })
        : null;
    this.concurrency =
      policy.concurrency > 0
        ? counter({
            keyPrefix: 'conc',
            points: policy.concurrency,
            durationSeconds: policy.concurrencyTtlSeconds,
          })
        : null;
    this.authFailures =
      policy.authFailuresPerMinute > 0
        ? counter({ keyPrefix: 'authfail', points: policy.authFailuresPerMinute, durationSeconds: 60 })
        : null;
    const parts: string[] = [];
    if (this.requests) parts.push(`"requests";q=${policy.requests};w=${policy.windowSeconds}`);
    if (this.concurrency) parts.push(`"concurrency";q=${policy.concurrency};qu="concurrent-requests"`);
    this.policyHeader = parts.join(', ');
  }

  /** whether any per-key limit is on (the headers are sent only then) */
  get perKey(): boolean {
    return this.requests !== null || this.concurrency !== null;
  }

  private storeError(err: unknown): void {
    this.hooks.onStoreError?.(err);
  }

  /** Counts one request of `keyId` and takes a concurrency slot. */
  async admit(keyId: string): Promise<Admission> {
    if (!this.perKey) return { allowed: true, headers: {} };
    const headers: Record<string, string> = { 'ratelimit-policy': this.policyHeader };
    const fields: string[] = [];
    if (this.requests) {
      try {
        const r = await this.requests.consume(keyId);
        fields.push(`"requests";r=${r.remainingPoints};t=${seconds(r.msBeforeNext)}`);
      } catch (e) {
        if (!isRes(e)) this.storeError(e);
        else {
          const retry = seconds(e.msBeforeNext);
          headers.ratelimit = `"requests";r=0;t=${retry}`;
          this.hooks.onLimited?.('requests');
          return { allowed: false, headers, reason: 'requests', retryAfterSeconds: retry };
        }
      }
    }
    let release: (() => void) | undefined;
    if (this.concurrency) {
      const conc = this.concurrency;
      try {
        const r = await conc.consume(keyId);
        fields.push(`"concurrency";r=${r.remainingPoints}`);
        let done = false;
        release = () => {
          if (done) return;
          done = true;
          conc.reward(keyId, 1).catch((err: unknown) => this.storeError(err));
        };
      } catch (e) {
        if (!isRes(e)) this.storeError(e);
        else {
          // a refused request holds no slot
          await conc.reward(keyId, 1).catch((err: unknown) => this.storeError(err));
          fields.push('"concurrency";r=0');
          headers.ratelimit = fields.join(', ');
          this.hooks.onLimited?.('concurrency');
          return { allowed: false, headers, reason: 'concurrency', retryAfterSeconds: 1 };
        }
      }
    }
    if (fields.length > 0) headers.ratelimit = fields.join(', ');
    return { allowed: true, headers, release };
  }

  /** Seconds an address must wait, when this instance knows it is blocked; else null. */
  addressBlocked(address: string): number | null {
    const until = this.blocked.get(address);
    if (until === undefined) return null;
    const left = until - Date.now();
    if (left <= 0) {
      this.blocked.delete(address);
      return null;
    }
    return seconds(left);
  }

  /** Counts a failed authentication; returns the seconds to wait when the address is now over
   *  its limit (the caller answers 429 instead of 401), else null. */
  async authFailed(address: string): Promise<number | null> {
    if (!this.authFailures) return null;
    try {
      await this.authFailures.consume(address);
      return null;
    } catch (e) {
      if (!isRes(e)) {
        this.storeError(e);
        return null;
      }
      if (this.blocked.size > 100_000) this.blocked.clear();
      this.blocked.set(address, Date.now() + e.msBeforeNext);
      this.hooks.onLimited?.('auth_failures');
      return seconds(e.msBeforeNext);
    }
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

export interface RateLimitStoreChoice {
  redis?: Redis | null;
  /** the ledger's PostgreSQL URL, when it is PostgreSQL */
  postgresUrl?: string | null;
}

export function createRateLimitStore(choice: RateLimitStoreChoice): RateLimitStore {
  if (choice.redis) return redisStore(choice.redis);
  if (choice.postgresUrl) return postgresStore(choice.postgresUrl);
  return memoryStore();
}
