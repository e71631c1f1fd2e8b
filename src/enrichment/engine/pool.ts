// The built-in Enricher. Small batches run inline (a worker round trip costs more than the
// work); larger ones are split into contiguous slices across a piscina worker pool, so a
// 100-text request never holds the event loop for its whole duration.
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Enrichment, LlmProvider } from '../../contract/items.js';
import type { EnrichCallOptions, Enricher, EnrichRequest } from '../interface.js';
import { analyze } from './analyze.js';
import { modelsDigest } from './models-digest.js';
import type { WorkerResult } from './worker.js';

export interface BuiltinEnricherOptions {
  /** worker threads (default: CPU count − 1, at least 1) */
  threads?: number;
  /** batches with at most this many characters in total run inline (default 2,000, or
   *  SINGLE_CORE_INLINE_CHARS when the process may use one core only) */
  inlineMaxChars?: number;
  /** told the seconds each batch spent being analyzed (inline, or summed over its worker slices),
   *  without the waits of an async call: what the analysis itself costs */
  onBusy?: (provider: LlmProvider, seconds: number) => void;
}

/** On one core a worker cannot run beside the main thread: handing it a batch only adds the copy
 *  of the texts and results and thread switches (docs/enrichment.md, Speed), so batches up to this
 *  size (about 20 ms of analysis) run inline; larger ones still go to the worker, so that a huge
 *  request does not hold the event loop for its whole duration. */
export const SINGLE_CORE_INLINE_CHARS = 20_000;

// the worker runs from source under tsx/vitest and from dist/ after a build
function workerFile(): { filename: string; execArgv: string[] } {
  const self = fileURLToPath(import.meta.url);
  const fromSource = self.endsWith('.ts');
  const filename = fileURLToPath(new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url));
  return { filename, execArgv: fromSource ? ['--import', 'tsx'] : [] };
}

export interface BuiltinEnricher extends Enricher {
  /** slices the worker pool has completed since start (0 while every batch ran inline) */
  workerTasksCompleted(): number;
}

export function createBuiltinEnricher(opts: BuiltinEnricherOptions = {}): BuiltinEnricher {
  const threads = Math.max(1, opts.threads ?? cpus().length - 1);
  const onBusy = opts.onBusy;
  // availableParallelism() counts the cores this process may run on (its CPU affinity)
  const inlineMaxChars =
    opts.inlineMaxChars ?? (availableParallelism() > 1 ? 2_000 : SINGLE_CORE_INLINE_CHARS);
  let pool: Piscina | undefined;
  let completedBefore = 0;
  const getPool = (): Piscina => {
    if (!pool) {
      const { filename, execArgv } = workerFile();
      pool = new Piscina({ filename, execArgv, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
    }
    return pool;
  };

  return {
    async enrich(req: EnrichRequest, o: EnrichCallOptions = {}): Promise<Enrichment[]> {
      // past the deadline the signal is aborted; before it, inline analysis never reads it
      if (!o.expired || o.expired()) o.signal?.throwIfAborted();
      let chars = 0;
      for (const t of req.texts) chars += t.length;
      if (chars <= inlineMaxChars || req.texts.length === 0) {
        const t0 = performance.now();
        const results = analyze(req);
        onBusy?.(req.provider, (performance.now() - t0) / 1000);
        return results;
      }
      const parts = Math.min(threads, req.texts.length);
      const size = Math.ceil(req.texts.length / parts);
      const p = getPool();
      const jobs: Promise<WorkerResult>[] = [];
      for (let i = 0; i < req.texts.length; i += size) {
        const slice: EnrichRequest = { ...req, texts: req.texts.slice(i, i + size) };
        jobs.push(p.run(slice, o.signal ? { signal: o.signal } : {}) as Promise<WorkerResult>);
      }
      const done = await Promise.all(jobs);
      const seconds = done.reduce((s, d) => s + d.seconds, 0);
      onBusy?.(req.provider, seconds);
      return done.flatMap((d) => d.results);
    },
    isLocal(_provider: LlmProvider): boolean {
      return true;
    },
    resultVersion: () => modelsDigest(),
    workerTasksCompleted(): number {
      return completedBefore + (pool?.completed ?? 0);
    },
    async close(): Promise<void> {
      const p = pool;
      completedBefore += p?.completed ?? 0;
      pool = undefined;
      await p?.destroy();
    },
  };
}
