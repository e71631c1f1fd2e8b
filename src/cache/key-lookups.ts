// API key lookups reused for KEY_CACHE_SECONDS (default 2; 0: off). Saves one database round
// trip per request on PostgreSQL (one index lookup on SQLite). Revocation: a key revoked through
// this process (admin API, or anything else calling the ledger's revokeKey) stops working here at
// once, as the ledger tells this cache; on other instances (and other processes sharing a SQLite
// file, such as the admin CLI) within KEY_CACHE_SECONDS. Unknown and revoked keys are never
// cached, so a new key works everywhere at once.
import { LedgerDecorator } from '../billing/ledger/index.js';
import type { KeyRecord, Ledger } from '../billing/ledger/interface.js';
import type { CacheHooks } from './sources.js';

const MAX_KEYS = 100_000;

export class KeyCacheLedger extends LedgerDecorator {
  private readonly keys = new Map<string, { record: KeyRecord; expires: number }>();

  constructor(
    inner: Ledger,
    private readonly ttlMs: number,
    private readonly hooks: CacheHooks = {},
  ) {
    super(inner);
    inner.onKeyRevoked((id) => this.forget(id));
  }

  private forget(id: string) {
    for (const [k, v] of this.keys) if (v.record.id === id) this.keys.delete(k);
  }

  override async findKeyByHash(hash: Buffer) {
    const k = hash.toString('base64');
    const now = Date.now();
    const hit = this.keys.get(k);
    if (hit && hit.expires > now) {
      this.hooks.onHit?.(1);
      return hit.record;
    }
    this.hooks.onMiss?.(1);
    const record = await this.inner.findKeyByHash(hash);
    if (record && !record.revokedAt) {
      if (this.keys.size >= MAX_KEYS) this.keys.clear();
      this.keys.set(k, { record, expires: now + this.ttlMs });
    } else this.keys.delete(k);
    return record;
  }

  override async revokeKey(id: string) {
    const r = await this.inner.revokeKey(id);
    // the inner ledger told forget() already when the key exists; an unknown id changes nothing
    this.forget(id);
    return r;
  }
}
