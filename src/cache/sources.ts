// Platform answers cached per request shape: the backend, the operation and its normalized
// query (canonical JSON, hashed). Only live backends are cached (the sandbox is local and as fast
// as the cache). A hit does not call the platform, yet the call is billed as usual: the cache
// sits below the billing, which only sees the items it gets. Failures are never cached.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';
import { decorateSources } from '../sources/decorate.js';
import type { Sources } from '../sources/interface.js';
import type { CacheStore } from './interface.js';

export interface CacheHooks {
  onHit?(n: number): void;
  onMiss?(n: number): void;
}

export function cacheSources(
  sources: Sources,
  store: CacheStore,
  ttlSeconds: number,
  hooks: CacheHooks = {},
) {
  if (ttlSeconds <= 0) return sources;
  // local sources (the sandbox) are not wrapped at all: no cache, no cost on their calls
  return decorateSources(
    sources,
    async (call, run) => {
      const key = `src:${call.platform}:${call.source.name}:${call.operation}:${createHash('sha256')
        .update(canonicalJson(call.query))
        .digest('base64url')}`;
      const [hit] = await store.getMany([key]);
      if (hit !== undefined) {
        hooks.onHit?.(1);
        return JSON.parse(hit) as unknown;
      }
      hooks.onMiss?.(1);
      const result = await run();
      await store.setMany([[key, JSON.stringify(result)]], ttlSeconds);
      return result;
    },
    {},
    (source) => source.kind === 'live',
  );
}
