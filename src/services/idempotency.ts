// The verbs behind the Idempotency-Key header: a call that carries one either runs under a lease
// on the key's record (its debit and stored reply are fenced by that lease, billed-call.ts), or is
// answered with the reply stored by the run that already completed. A call that fails gives its
// lease back, so that its retry runs again.
import { createHash } from 'node:crypto';
import type { IdempotencyLease, Ledger, StoredResponse } from '../billing/ledger/interface.js';
import { canonicalJson } from '../canonical-json.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyDeps {
  ledger: Ledger;
  config: Pick<Config, 'IDEMPOTENCY_LOCK_SECONDS' | 'IDEMPOTENCY_TTL_HOURS'>;
}

export type IdempotentStart =
  | { state: 'run'; lease: IdempotencyLease }
  | { state: 'replay'; response: StoredResponse };

/** Begins a call with an Idempotency-Key: the same key with the same route and body is one call. */
export async function beginIdempotentCall(
  deps: IdempotencyDeps,
  call: { keyId: string; header: string | string[]; route: string; body: unknown },
): Promise<IdempotentStart> {
  const key = Array.isArray(call.header) ? call.header[0] : call.header;
  if (!key || !IDEMPOTENCY_KEY.test(key))
    throw new AppError('BAD_REQUEST', 'Idempotency-Key must be 1-255 visible ASCII characters', {
      details: [{ field: 'Idempotency-Key', message: 'must be 1-255 visible ASCII characters' }],
    });
  const fingerprint = createHash('sha256')
    .update(`${call.route}\n${canonicalJson(call.body)}`)
    .digest('hex');
  const r = await deps.ledger.idempotencyBegin({
    keyId: call.keyId,
    key,
    fingerprint,
    leaseMs: deps.config.IDEMPOTENCY_LOCK_SECONDS * 1000,
    ttlMs: deps.config.IDEMPOTENCY_TTL_HOURS * 3600_000,
  });
  if (r.state === 'mismatch')
    throw new AppError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used with a different request',
    );
  if (r.state === 'in_progress')
    throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still running', {
      retryAfterSeconds: 1,
    });
  if (r.state === 'replay') return { state: 'replay', response: r.response };
  return { state: 'run', lease: r.lease };
}

/** Gives back the lease of a call that failed; its retry runs again. Never fails the reply. */
export async function abandonIdempotentCall(deps: IdempotencyDeps, lease: IdempotencyLease): Promise<void> {
  await deps.ledger.idempotencyAbandon(lease).catch(() => {});
}
