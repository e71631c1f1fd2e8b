// The balance peek of local calls (billed-call.ts reads `available` before doing the work, to
// refuse a call the key cannot pay for and to enrich only what it can pay for) answered from
// memory for KEY_CACHE_SECONDS, kept current with this instance's own charges and holds. A peek
// decides nothing: the charge that follows is conditional on the balance in the database, so a
// peek that is too high (another instance spent meanwhile) only means that the work is done
// before the charge refuses it. A cached peek that limits the call in any way is never used:
// billed-call.ts asks for a fresh one then, so a grant is never missed.
import { LRUCache } from 'lru-cache';
import { LedgerDecorator } from '../billing/ledger/index.js';
import type { Ledger } from '../billing/ledger/interface.js';

const MAX_KEYS = 100_000;

export class PeekCacheLedger extends LedgerDecorator {
  private readonly peeks: LRUCache<string, { available: number }>;

  constructor(inner: Ledger, ttlMs: number) {
    super(inner);
    this.peeks = new LRUCache({ max: MAX_KEYS, ttl: ttlMs });
  }

  override async available(keyId: string, opts?: { fresh?: boolean }) {
    if (!opts?.fresh) {
      const hit = this.peeks.get(keyId);
      if (hit) return hit.available;
    }
    const available = await this.inner.available(keyId, opts);
    this.peeks.set(keyId, { available });
    return available;
  }

  private spent(keyId: string, amount: number | null) {
    const hit = this.peeks.get(keyId);
    if (!hit) return;
    if (amount === null) this.peeks.delete(keyId);
    else hit.available -= amount;
  }

  override async charge(req: Parameters<Ledger['charge']>[0]) {
    const r = await this.inner.charge(req);
    this.spent(req.keyId, r.ok ? r.amount : null);
    return r;
  }

  override async hold(...a: Parameters<Ledger['hold']>) {
    const r = await this.inner.hold(...a);
    this.spent(a[0].keyId, r.ok ? r.amount : null);
    return r;
  }

  override async settle(...a: Parameters<Ledger['settle']>) {
    try {
      return await this.inner.settle(...a);
    } finally {
      // the hold given back and the debit taken: read it again next time
      this.peeks.delete(a[0].keyId);
    }
  }

  override async grant(...a: Parameters<Ledger['grant']>) {
    try {
      return await this.inner.grant(...a);
    } finally {
      this.peeks.delete(a[0]);
    }
  }
}
