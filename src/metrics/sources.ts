// Decorating every platform call through one function (`around`): how metrics, the response
// cache and the test-only fault injection wrap the Sources seam without any service changing.
// Also the metrics decorator itself: calls, failures by kind, and durations per backend.
import { type Platform, SourceError, type SourceInfo, type Sources } from '../sources/interface.js';
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
}

export type Around = (call: SourceCall, run: () => Promise<unknown>) => Promise<unknown>;

type AnyFn = (q: unknown, ctx?: unknown) => Promise<unknown>;

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
      around({ platform, source: src, operation: op, query: q }, () => fn.call(src, q, ctx));
  }
  return out;
}

export function decorateSources(
  sources: Sources,
  around: Around,
  overrides: Partial<SourceInfo> = {},
): Sources {
  return {
    clipnet: decorate('clipnet', sources.clipnet, around, overrides),
    picnet: decorate('picnet', sources.picnet, around, overrides),
    vidnet: decorate('vidnet', sources.vidnet, around, overrides),
    close: () => sources.close(),
  };
}

export function instrumentSources(sources: Sources, metrics: Metrics): Sources {
  return decorateSources(sources, async (call, run) => {
    const labels = { platform: call.platform, backend: call.source.name, operation: call.operation };
    const end = metrics.upstreamDuration.startTimer(labels);
    try {
      const r = await run();
      metrics.upstreamCalls.inc({ ...labels, outcome: 'ok' });
      return r;
    } catch (e) {
      metrics.upstreamCalls.inc({ ...labels, outcome: e instanceof SourceError ? e.kind : 'error' });
      throw e;
    } finally {
      end();
    }
  });
}
