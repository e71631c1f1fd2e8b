// TESTING ONLY (GLEANER_FAULT_INJECTION=0.3): makes that share of platform calls fail the ways
// real backends fail — an error answer, a timeout, a reset connection, throttling — so that the
// reliability suite can prove that only the decided statuses come out and that a failed call
// costs nothing. Off (0) by default; never set it in production. A source that can fail is not
// local any more, so the wrapped sources report kind 'live': calls then take the hold → settle
// path that remote backends take.

import { decorateSources } from './decorate.js';
import { SourceError, type SourceErrorKind, type Sources } from './interface.js';

const FAULTS: ReadonlyArray<{ kind: SourceErrorKind; message: string; delayMs: number }> = [
  { kind: 'upstream', message: 'injected fault: the platform answered 500', delayMs: 0 },
  { kind: 'timeout', message: 'injected fault: the platform did not answer in time', delayMs: 30 },
  { kind: 'upstream', message: 'injected fault: connection reset by peer', delayMs: 5 },
  { kind: 'throttled', message: 'injected fault: the platform is rate-limiting', delayMs: 0 },
  { kind: 'unavailable', message: 'injected fault: circuit open', delayMs: 0 },
];

export function injectFaults(sources: Sources, rate: number, random: () => number = Math.random): Sources {
  if (rate <= 0) return sources;
  return decorateSources(
    sources,
    async (_call, run) => {
      if (random() >= rate) return run();
      const f = FAULTS[Math.floor(random() * FAULTS.length)] ?? FAULTS[0]!;
      if (f.delayMs > 0) await new Promise((r) => setTimeout(r, f.delayMs));
      // half the faults happen after the platform did the work (the answer is lost on the way)
      if (random() < 0.5) await run().catch(() => {});
      throw new SourceError(f.kind, f.message, {
        retryAfterSeconds: f.kind === 'throttled' || f.kind === 'unavailable' ? 1 : undefined,
      });
    },
    { kind: 'live' },
  );
}
