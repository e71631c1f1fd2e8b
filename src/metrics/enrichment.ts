// Enrichment metrics: texts analyzed and batch durations per provider.
import type { EnrichCallOptions, Enricher, EnrichRequest } from '../enrichment/interface.js';
import type { Metrics } from './index.js';

export function instrumentEnricher(inner: Enricher, metrics: Metrics): Enricher {
  return {
    async enrich(req: EnrichRequest, opts?: EnrichCallOptions) {
      const end = metrics.enrichmentDuration.startTimer({ provider: req.provider });
      try {
        const r = await inner.enrich(req, opts);
        metrics.enrichmentTexts.inc({ provider: req.provider, outcome: 'ok' }, req.texts.length);
        return r;
      } catch (e) {
        metrics.enrichmentTexts.inc({ provider: req.provider, outcome: 'error' }, req.texts.length);
        throw e;
      } finally {
        end();
      }
    },
    isLocal: (provider) => inner.isLocal(provider),
    resultVersion: (provider) => inner.resultVersion?.(provider) ?? '',
    close: () => inner.close(),
  };
}
