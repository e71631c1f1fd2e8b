// API key lookups reused for KEY_CACHE_SECONDS (default 2; 0: off). Saves one database round
// trip per request on PostgreSQL (one index lookup on SQLite). Revocation: a key revoked through
// this process (admin API, or anything else calling the ledger's revokeKey) stops working here at
// once, as the ledger tells this cache; on other instances (and other processes sharing a SQLite
// file, such as the admin CLI) within KEY_CACHE_SECONDS. Unknown and revoked keys are never
// cached, so a new key works everywhere at once.
import { LRUCache } from 'lru-cache';
import { LedgerDecorator } from '../billing/ledger/index.js';
import type { KeyRecord, Ledger } from '../billing/ledger/interface.js';
import type { CacheHooks } from './sources.js';

const MAX_KEYS = 100_000;

export class KeyCacheLedger extends LedgerDecorator {
  private readonly keys: LRUCache<string, KeyRecord>;

  constructor(
    inner: Ledger,
    ttlMs: number,
    private readonly hooks: CacheHooks = {},
  ) {
    super(inner);
    this.keys = new LRUCache({ max: MAX_KEYS, ttl: ttlMs });
    inner.onKeyRevoked((id) => this.forget(id));
  }

  private forget(id: string) {
    for (const [k, record] of this.keys.entries()) if (record.id === id) this.keys.delete(k);
  }

  override async findKeyByHash(hash: Buffer) {
    const k = hash.toString('base64');
    const hit = this.keys.get(k);
    if (hit) {
      this.hooks.onHit?.(1);
      return hit;
    }
    this.hooks.onMiss?.(1);
    const record = await this.inner.findKeyByHash(hash);
    if (record && !record.revokedAt) this.keys.set(k, record);
    else this.keys.delete(k);
    return record;
  }

  override async revokeKey(id: string) {
    const r = await this.inner.revokeKey(id);
    // the inner ledger told forget() already when the key exists; an unknown id changes nothing
    this.forget(id);
    return r;
  }
}
