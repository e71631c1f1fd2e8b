export interface RetryPolicy {
    /** retries after the first attempt (0 disables retrying) */
    retries: number;
    /** first backoff step */
    baseDelayMs: number;
    /** backoff never waits longer than this */
    maxDelayMs: number;
    /** a Retry-After longer than this is not waited for: the error is thrown instead */
    maxRetryAfterMs: number;
}
export declare const DEFAULT_RETRY: RetryPolicy;
/** HTTP statuses worth another attempt with the same Idempotency-Key: the server charged
 *  nothing for them, and a repeat can succeed. 409 is IDEMPOTENCY_IN_PROGRESS: our own earlier
 *  attempt (one that timed out on our side) is still running, and its answer will be replayed. */
export declare const RETRYABLE_STATUS: ReadonlySet<number>;
/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export declare function parseRetryAfter(value: string | null | undefined, now?: number): number | undefined;
/** "Full jitter" backoff: a random wait in [0, min(max, base·2^attempt)], never below base/2 so
 *  that retries do not hammer a struggling server. attempt counts from 0. */
export declare function backoffMs(policy: RetryPolicy, attempt: number, random?: () => number): number;
/** Waits ms, or rejects with the signal's reason when it aborts first. */
export declare function sleep(ms: number, signal?: AbortSignal): Promise<void>;
