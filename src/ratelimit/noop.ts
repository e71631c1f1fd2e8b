// The limits when they are off: every request admitted, with no RateLimit headers, and no
// failed authentication counted.
import type { Admission, AuthFailureLimiter, KeyLimiter } from './interface.js';

const ADMITTED: Admission = Object.freeze({ allowed: true, headers: Object.freeze({}) }) as Admission;

export const noKeyLimits: KeyLimiter = {
  // synchronous: a request waits for no promise when there is no limit
  admit: () => ADMITTED,
};

export const noAuthFailureLimit: AuthFailureLimiter = {
  blocked: () => null,
  failed: async () => null,
};
