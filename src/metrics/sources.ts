// Decorating every platform call through one function (`around`): how metrics, the response
// cache and the test-only fault injection wrap the Sources seam without any service changing.
// Also the metrics decorator itself: calls, failures by kind, and durations per backend.
import {
  type Platform,
  type SkippedItem,
  type SourceCallContext,
  SourceError,
  type SourceInfo,
  type Sources,
} from '../sources/interface.js';
import type { Metrics } from './index.js';

export const SOURCE_OPERATIONS = {
  clipnet: ['userPosts', 'comments', 'hashtagPosts'],
  picnet: ['userPosts', 'comments', 'hashtagPosts'],
  vidnet: ['search', 'hashtag', 'comments', 'channelVideos', 'channelShorts'],
} as const satisfies Record<Platform, readonly string[]>;

export interface SourceCall {
  platform: Platform;
  /** the source as configured (its name and kind) */
  source: SourceInfo;
  operation: string;
  query: unknown;
  ctx?: SourceCallContext;
}

/** `run` calls the operation, with another call context when one is given */
export type Around = (
  call: SourceCall,
  run: (ctx?: SourceCallContext) => Promise<unknown>,
) => Promise<unknown>;

type AnyFn = (q: unknown, ctx?: SourceCallContext) => Promise<unknown>;

function decorate<T extends SourceInfo>(
  platform: Platform,
  src: T,
  around: Around,
  overrides: Partial<SourceInfo>,
): T {
  // inherits everything (name, kind, other members) and overrides the operations
  const out = Object.create(src) as T;
  for (const [k, v] of Object.entries(overrides)) Object.defineProperty(out, k, { value: v });
  const ops = out as unknown as Record<string, AnyFn>;
  const raw = src as unknown as Record<string, AnyFn>;
  for (const op of SOURCE_OPERATIONS[platform]) {
    const fn = raw[op];
    if (typeof fn !== 'function') continue;
    ops[op] = (q, ctx) =>
      around({ platform, source: src, operation: op, query: q, ctx }, (c = ctx) => fn.call(src, q, c));
  }
  return out;
}

export function decorateSources(
  sources: Sources,
  around: Around,
  overrides: Partial<SourceInfo> = {},
  /** decorates only the platform sources this accepts; the others are passed through as is */
  only: (source: SourceInfo) => boolean = () => true,
): Sources {
  const wrap = <T extends SourceInfo>(platform: Platform, src: T): T =>
    only(src) ? decorate(platform, src, around, overrides) : src;
  return {
    clipnet: wrap('clipnet', sources.clipnet),
    picnet: wrap('picnet', sources.picnet),
    vidnet: wrap('vidnet', sources.vidnet),
    close: () => sources.close(),
  };
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
    // counts the items the backend leaves out (drift.ts), and still tells the caller's context
    const ctx = call.ctx;
    const counting: SourceCallContext = Object.create(ctx ?? null, {
      onSkip: {
        value: (skip: SkippedItem) => {
          s.skipped.inc();
          ctx?.onSkip?.(skip);
        },
      },
    });
    try {
      const r = await run(counting);
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
