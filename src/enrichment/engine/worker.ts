// Worker-thread entry of the built-in enricher's pool: the same pure analyze(), off the main thread.
import type { Enrichment } from '../../contract/items.js';
import type { EnrichRequest } from '../interface.js';
import { analyze } from './analyze.js';

export default function enrichInWorker(req: EnrichRequest): Enrichment[] {
  return analyze(req);
}
