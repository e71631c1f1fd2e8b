// Counters in this process: exact for one instance; with several instances each counts alone.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { CounterSpec, RateLimitStore } from './interface.js';

export function memoryStore(): RateLimitStore {
  return {
    kind: 'memory',
    counter: (spec: CounterSpec) =>
      new RateLimiterMemory({
        keyPrefix: spec.keyPrefix,
        points: spec.points,
        duration: spec.durationSeconds,
      }),
    async close() {},
  };
}
