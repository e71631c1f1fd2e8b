// The Redis the tests use (see global-setup.ts): its URL, and why Redis-backed tests are skipped
// when none is reachable (undefined when one is).
export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
export const REDIS_MISSING = process.env.REDIS_TEST_MISSING;
if (REDIS_MISSING) console.warn(`skipped: Redis-backed tests (${REDIS_MISSING})`);
