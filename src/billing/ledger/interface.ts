// The credit ledger: API keys with balances, an append-only journal of grants and debits,
// holds for calls whose cost is only known after an upstream answers, and idempotency records.
// All amounts are integer millicredits. Implementations: sqlite/ (embedded default) and
// postgres/ (several instances), each writing through the group commit of batcher.ts; index.ts
// picks one from DATABASE_URL.
import type { Price } from '../pricing.js';

export interface KeyRecord {
  id: string;
  name: string;
  /** the first characters of the key, to recognise it in listings */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface KeyBalance extends KeyRecord {
  balance: number;
  held: number;
}

export interface LedgerEntry {
  seq: number;
  kind: 'grant' | 'debit';
  amount: number;
  /** the server's own id of the request that was charged */
  requestId: string | null;
  /** the caller's X-Request-Id of that request, when it sent one */
  clientRequestId: string | null;
  route: string | null;
  note: string | null;
  createdAt: Date;
  /** a debit made under an Idempotency-Key (its retries replay the reply and are not charged) */
  idempotent: boolean;
}

/** a key's journal summed over one UTC day, route and kind */
export interface UsageRow {
  /** days since 1970-01-01 (UTC) */
  day: number;
  route: string | null;
  kind: 'grant' | 'debit';
  /** millicredits */
  amount: number;
  /** entries */
  count: number;
}

/** one key's debits over a period */
export interface KeyUsage {
  keyId: string;
  /** millicredits */
  spent: number;
  calls: number;
}

/** A response stored with a charge, replayed for a retry with the same Idempotency-Key. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyRef {
  keyId: string;
  key: string;
}

/** The Idempotency-Key record a running call owns: its fencing token. A retry that takes the
 *  record over (its lease ran out) bumps the generation, so the first run's debit, stored
 *  response and abandon, which all check the lease in their own transaction, no longer apply. */
export interface IdempotencyLease extends IdempotencyRef {
  /** the record: kept when a retry takes it over, new when the key is used again after expiry */
  record: string;
  /** 1 for a new record, one more at each take-over */
  generation: number;
}

export interface ChargeOutcome {
  /** items covered by the charge (≤ the items offered) */
  items: number;
  /** millicredits debited */
  amount: number;
  /** balance after the debit */
  balance: number;
}

export interface ChargeRequest {
  keyId: string;
  requestId: string;
  route: string;
  price: Price;
  /** items the result holds; the charge covers as many as the balance affords */
  items: number;
  /** fewer items than this is not a sale: the call is refused with nothing debited */
  minItems: number;
  /** the caller's X-Request-Id, recorded beside `requestId` (the server's own) */
  clientRequestId?: string;
  /** when given, the debit applies only while this lease still owns its record, and the response
   *  is stored in the same transaction as the debit */
  idempotency?: IdempotencyLease & { render: (outcome: ChargeOutcome) => StoredResponse };
}

export type ChargeResult =
  | ({ ok: true } & ChargeOutcome & { stored?: StoredResponse })
  /** `fenced`: the call's Idempotency-Key record was taken over by a retry; nothing was debited
   *  (and a settled hold was released) */
  | { ok: false; fenced?: true };

export interface HoldRequest {
  keyId: string;
  requestId: string;
  route: string;
  price: Price;
  /** the most items the call can return */
  maxItems: number;
  minItems: number;
  ttlMs: number;
}

export type HoldResult =
  | {
      ok: true;
      holdId: string;
      /** held millicredits */
      amount: number;
      /** items the hold covers: ask the platform for at most this many */
      items: number;
    }
  | { ok: false };

export interface SettleRequest {
  holdId: string;
  keyId: string;
  requestId: string;
  route: string;
  price: Price;
  items: number;
  minItems: number;
  clientRequestId?: string;
  idempotency?: ChargeRequest['idempotency'];
}

export type IdempotencyBegin =
  | { state: 'new'; lease: IdempotencyLease }
  | { state: 'replay'; response: StoredResponse }
  | { state: 'in_progress' }
  | { state: 'mismatch' };

export interface ReconcileProblem {
  keyId: string;
  problem: string;
}

export interface ReconcileReport {
  keys: number;
  entries: number;
  openHolds: number;
  problems: ReconcileProblem[];
}

export interface Ledger {
  readonly kind: 'sqlite' | 'postgres';

  createKey(input: {
    id: string;
    name: string;
    prefix: string;
    hash: Buffer;
    credits: number;
  }): Promise<KeyRecord>;
  /** the key with this SHA-256 hash, revoked or not; null when unknown */
  findKeyByHash(hash: Buffer): Promise<KeyRecord | null>;
  listKeys(): Promise<KeyBalance[]>;
  getKey(id: string): Promise<KeyBalance | null>;
  /** false when the key does not exist */
  revokeKey(id: string): Promise<boolean>;
  /** calls `listener` with the id of each key revoked through this ledger, once the revocation
   *  is committed (in-process caches of key lookups drop the key at once) */
  onKeyRevoked(listener: (keyId: string) => void): void;
  /** adds credits; null when the key does not exist */
  grant(id: string, amount: number, note?: string): Promise<KeyBalance | null>;
  entries(id: string, opts?: { limit?: number; beforeSeq?: number }): Promise<LedgerEntry[]>;
  /** the key's journal summed per UTC day, route and kind, for the days fromDay to toDay (days
   *  since 1970-01-01, both included) */
  usage(keyId: string, fromDay: number, toDay: number): Promise<UsageRow[]>;
  /** the key's journal summed by kind, over all time */
  totals(keyId: string): Promise<{ granted: number; spent: number; debits: number }>;
  /** every key's debits over the days fromDay to toDay (both included), keys without any included */
  usageByKey(fromDay: number, toDay: number): Promise<KeyUsage[]>;
  countKeys(): Promise<number>;

  /** what a key can spend now (balance minus open holds); a read without a lock. Decorators
   *  may answer from memory (cache/balances.ts) unless `fresh` is set. */
  available(keyId: string, opts?: { fresh?: boolean }): Promise<number>;
  /** one-step debit of up to `items` items, conditional on the balance */
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** reserves what the call can cost at most, capped by the balance */
  hold(req: HoldRequest): Promise<HoldResult>;
  /** debits the actual cost of a held call and releases the rest of the hold */
  settle(req: SettleRequest): Promise<ChargeResult>;
  /** releases a hold without charging */
  release(holdId: string): Promise<void>;
  /** releases every open hold past its expiry; safe on every instance at once */
  expireHolds(now?: Date): Promise<number>;

  idempotencyBegin(
    ref: IdempotencyRef & { fingerprint: string; leaseMs: number; ttlMs: number },
  ): Promise<IdempotencyBegin>;
  /** forgets a running idempotency record after a call that failed (its retry runs again);
   *  nothing when the lease no longer owns the record */
  idempotencyAbandon(lease: IdempotencyLease): Promise<void>;
  purgeIdempotency(now?: Date): Promise<number>;

  reconcile(): Promise<ReconcileReport>;
  /** a cheap query that fails when the database is not usable */
  ping(): Promise<void>;
  close(): Promise<void>;
}
