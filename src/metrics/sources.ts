// The metrics decorator of the sources seam: calls, failures by kind, skipped items and
// durations per backend and operation (wrapping through ../sources/decorate.ts).
import { decorateSources, type SourceCall } from '../sources/decorate.js';
import {
  type SkippedItem,
  type SourceCallContext,
  SourceError,
  type SourceInfo,
  type Sources,
} from '../sources/interface.js';
import type { Metrics } from './index.js';

/** the caller's context, counting the items the backend leaves out (drift.ts) before telling the
 *  caller's own onSkip; a class, so that every call's context has one fast shape */
class CountingContext implements SourceCallContext {
  readonly expired?: () => boolean;
  readonly requestId?: string;
  constructor(
    private readonly inner: SourceCallContext | undefined,
    private readonly skipped: { inc(): void },
  ) {
    if (inner?.expired) this.expired = inner.expired;
    if (inner?.requestId !== undefined) this.requestId = inner.requestId;
  }
  get signal(): AbortSignal | undefined {
    return this.inner?.signal;
  }
  onSkip(skip: SkippedItem): void {
    this.skipped.inc();
    this.inner?.onSkip?.(skip);
  }
}

export function instrumentSources(sources: Sources, metrics: Metrics): Sources {
  // the series of each source and operation, bound once (found by object, not by a joined string)
  type Series = {
    labels: { platform: string; backend: string; operation: string };
    ok: { inc(): void };
    skipped: { inc(): void };
    duration: { observe(seconds: number): void };
  };
  const series = new Map<SourceInfo, Map<string, Series>>();
  const seriesOf = (call: SourceCall): Series => {
    let bySource = series.get(call.source);
    if (!bySource) {
      bySource = new Map();
      series.set(call.source, bySource);
    }
    let s = bySource.get(call.operation);
    if (!s) {
      const labels = { platform: call.platform, backend: call.source.name, operation: call.operation };
      s = {
        labels,
        ok: metrics.upstreamCalls.labels({ ...labels, outcome: 'ok' }),
        skipped: metrics.upstreamItemsSkipped.labels(labels),
        duration: metrics.upstreamDuration.labels(labels),
      };
      bySource.set(call.operation, s);
    }
    return s;
  };
  return decorateSources(sources, async (call, run) => {
    const s = seriesOf(call);
    const started = performance.now();
    try {
      const r = await run(new CountingContext(call.ctx, s.skipped));
      s.ok.inc();
      return r;
    } catch (e) {
      metrics.upstreamCalls.inc({ ...s.labels, outcome: e instanceof SourceError ? e.kind : 'error' });
      throw e;
    } finally {
      s.duration.observe((performance.now() - started) / 1000);
    }
  });
}
