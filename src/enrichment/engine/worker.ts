// Worker-thread entry of the built-in enricher's pool: the same pure analyze(), off the main thread,
// and the seconds it took (the pool reports them as the analyzer's busy time).
import type { Enrichment } from '../../contract/items.js';
import type { EnrichRequest } from '../interface.js';
import { analyze } from './analyze.js';

export interface WorkerResult {
  results: Enrichment[];
  seconds: number;
}

export default function enrichInWorker(req: EnrichRequest): WorkerResult {
  const t0 = performance.now();
  const results = analyze(req);
  return { results, seconds: (performance.now() - t0) / 1000 };
}
