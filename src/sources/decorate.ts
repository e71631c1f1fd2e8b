// Decorating every platform call through one function (`around`): how metrics, the response
// cache and the fault injection wrap the Sources seam without any service changing. The one
// decoration mechanism of the sources seam.
import type { Platform, SourceCallContext, SourceInfo, Sources } from './interface.js';

export const SOURCE_OPERATIONS = {
  clipnet: ['userPosts', 'comments', 'hashtagPosts'],
  picnet: ['userPosts', 'comments', 'hashtagPosts'],
  vidnet: ['search', 'hashtag', 'comments', 'channelVideos', 'channelShorts'],
  blipnet: ['userPosts', 'replies', 'search', 'hashtagPosts'],
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
    blipnet: wrap('blipnet', sources.blipnet),
    close: () => sources.close(),
  };
}
