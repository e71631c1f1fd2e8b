// The limits counted on a store (memory, Redis or PostgreSQL). A store that fails lets calls
// through (and the failure is counted): limits protect capacity, they never take the API down.
//
// Headers follow the IETF draft "RateLimit header fields for HTTP" (structured fields):
//   RateLimit-Policy: "requests";q=100;w=60, "concurrency";q=5;qu="concurrent-requests"
//   RateLimit: "requests";r=42;t=17
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { Admission, AuthFailureLimiter, KeyLimiter, LimitReason, RateLimitStore } from './interface.js';

export interface RateLimiterHooks {
  onLimited?(reason: LimitReason): void;
  onStoreError?(err: unknown): void;
}

const isRes = (v: unknown): v is RateLimiterRes => v instanceof RateLimiterRes;
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export interface KeyLimitsPolicy {
  /** requests per window per key; 0: no limit */
  requests: number;
  windowSeconds: number;
  /** requests running at once per key; 0: no limit */
  concurrency: number;
  /** after this long a slot of a crashed instance frees itself */
  concurrencyTtlSeconds: number;
}

/** Requests per window and requests running at once, per API key; at least one of them is on. */
export class StoreKeyLimiter implements KeyLimiter {
  private readonly requests: RateLimiterAbstract | null;
  private readonly concurrency: RateLimiterAbstract | null;
  private readonly policyHeader: string;

  constructor(
    store: RateLimitStore,
    policy: KeyLimitsPolicy,
    private readonly hooks: RateLimiterHooks = {},
  ) {
    this.requests =
      policy.requests > 0
        ? store.counter({ keyPrefix: 'req', points: policy.requests, durationSeconds: policy.windowSeconds })
        : null;
    this.concurrency =
      policy.concurrency > 0
        ? store.counter({
            keyPrefix: 'conc',
            points: policy.concurrency,
            durationSeconds: policy.concurrencyTtlSeconds,
          })
        : null;
    const parts: string[] = [];
    if (this.requests) parts.push(`"requests";q=${policy.requests};w=${policy.windowSeconds}`);
    if (this.concurrency) parts.push(`"concurrency";q=${policy.concurrency};qu="concurrent-requests"`);
    this.policyHeader = parts.join(', ');
  }

  private storeError(err: unknown): void {
    this.hooks.onStoreError?.(err);
  }

  async admit(keyId: string): Promise<Admission> {
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
}

/** Failed authentications per client address per minute. */
export class StoreAuthFailureLimiter implements AuthFailureLimiter {
  private readonly counter: RateLimiterAbstract;
  /** addresses this instance saw blocked, until when (ms): no store round trip on the hot path */
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    store: RateLimitStore,
    perMinute: number,
    private readonly hooks: RateLimiterHooks = {},
  ) {
    this.counter = store.counter({ keyPrefix: 'authfail', points: perMinute, durationSeconds: 60 });
  }

  blocked(address: string): number | null {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return null;
    const left = until - Date.now();
    if (left <= 0) {
      this.blockedUntil.delete(address);
      return null;
    }
    return seconds(left);
  }

  async failed(address: string): Promise<number | null> {
    try {
      await this.counter.consume(address);
      return null;
    } catch (e) {
      if (!isRes(e)) {
        this.hooks.onStoreError?.(e);
        return null;
      }
      if (this.blockedUntil.size > 100_000) this.blockedUntil.clear();
      this.blockedUntil.set(address, Date.now() + e.msBeforeNext);
      this.hooks.onLimited?.('auth_failures');
      return seconds(e.msBeforeNext);
    }
  }
}
