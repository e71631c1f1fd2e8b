// Ledger metrics: holds this instance has open, holds the sweeper expired.
import { LedgerDecorator } from '../billing/ledger/index.js';
import type { Ledger } from '../billing/ledger/interface.js';
import type { Metrics } from './index.js';

export class MeteredLedger extends LedgerDecorator {
  private readonly open = new Set<string>();

  constructor(
    inner: Ledger,
    private readonly metrics: Metrics,
  ) {
    super(inner);
  }

  private closed(holdId: string) {
    if (this.open.delete(holdId)) this.metrics.holdsOpen.set(this.open.size);
  }

  override async hold(...a: Parameters<Ledger['hold']>) {
    const r = await this.inner.hold(...a);
    if (r.ok) {
      this.open.add(r.holdId);
      this.metrics.holdsOpen.set(this.open.size);
    }
    return r;
  }

  override async settle(...a: Parameters<Ledger['settle']>) {
    try {
      return await this.inner.settle(...a);
    } finally {
      this.closed(a[0].holdId);
    }
  }

  override async release(holdId: string) {
    try {
      await this.inner.release(holdId);
    } finally {
      this.closed(holdId);
    }
  }

  override async expireHolds(now?: Date) {
    const n = await this.inner.expireHolds(now);
    if (n > 0) this.metrics.holdsExpired.inc(n);
    return n;
  }
}
