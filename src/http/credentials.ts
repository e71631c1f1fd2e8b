// Credentials shared by the API (API keys), the operator API and /metrics (bearer tokens): a
// constant-time token check, and the failed-attempt limit per client address.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { RateLimiter } from '../ratelimit/index.js';

/** SHA-256 of a configured token, what `bearerMatches` compares with */
export const tokenDigest = (token: string): Buffer => createHash('sha256').update(token).digest();

/** whether an `Authorization: Bearer …` header carries the token whose SHA-256 is `expected`
 *  (compared in constant time) */
export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const token = header?.startsWith('Bearer ') ? header.slice(7) : '';
  return token !== '' && timingSafeEqual(createHash('sha256').update(token).digest(), expected);
}

const tooManyAuthFailures = (retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', 'Too many failed authentications from this address; retry later', {
    retryAfterSeconds,
  });

/** Refuses a request whose credentials (API key, admin or metrics token) failed. Failures are
 *  counted per client address, and past the limit the answer is 429 instead of 401. Requests
 *  with valid credentials never come here: a blocked address still serves its valid keys, so
 *  one bad client behind a shared address (a NAT) locks out nobody else. */
export function credentialRefuser(rateLimiter: RateLimiter) {
  return async (req: FastifyRequest, failure: AppError): Promise<never> => {
    const blocked = rateLimiter.authFailures.blocked(req.ip);
    if (blocked !== null) throw tooManyAuthFailures(blocked);
    const wait = await rateLimiter.authFailures.failed(req.ip);
    if (wait !== null) throw tooManyAuthFailures(wait);
    throw failure;
  };
}
