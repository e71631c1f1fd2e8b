// Retry timing: exponential backoff with jitter, and the server's Retry-After when it sent one.
export const DEFAULT_RETRY = {
    retries: 3,
    baseDelayMs: 500,
    maxDelayMs: 20_000,
    maxRetryAfterMs: 60_000,
};
/** HTTP statuses worth another attempt with the same Idempotency-Key: the server charged
 *  nothing for them, and a repeat can succeed. 409 is IDEMPOTENCY_IN_PROGRESS: our own earlier
 *  attempt (one that timed out on our side) is still running, and its answer will be replayed. */
export const RETRYABLE_STATUS = new Set([409, 429, 502, 503]);
/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value, now = Date.now()) {
    if (value === null || value === undefined || value.trim() === '')
        return undefined;
    const v = value.trim();
    if (/^\d+(\.\d+)?$/.test(v))
        return Math.round(Number(v) * 1000);
    const at = Date.parse(v);
    if (Number.isNaN(at))
        return undefined;
    return Math.max(0, at - now);
}
/** "Full jitter" backoff: a random wait in [0, min(max, base·2^attempt)], never below base/2 so
 *  that retries do not hammer a struggling server. attempt counts from 0. */
export function backoffMs(policy, attempt, random = Math.random) {
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
    const floor = Math.min(ceiling, policy.baseDelayMs / 2);
    return Math.round(floor + random() * (ceiling - floor));
}
/** Waits ms, or rejects with the signal's reason when it aborts first. */
export function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
        if (signal?.aborted)
            return reject(signal.reason);
        const onAbort = () => {
            clearTimeout(t);
            reject(signal?.reason);
        };
        const t = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
    });
}
