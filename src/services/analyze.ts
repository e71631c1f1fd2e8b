// POST /ml/analyze: every text must be paid for (no truncation); the charge is exact.
import type { AnalyzeBody } from '../contract/endpoints.js';
import { badRequest } from '../errors.js';
import { type CallContext, type CallDeps, enrichOptions, type Reply, runBilledCall } from './billed-call.js';

export function analyzeTexts(deps: CallDeps, ctx: CallContext, body: AnalyzeBody): Promise<Reply> {
  const enrich = body.enrich ?? body.analyses;
  if (!enrich || enrich.length === 0)
    throw badRequest('Invalid request: enrich is required', [{ field: 'enrich', message: 'is required' }]);
  const texts = body.texts.map((text) => ({ text }));
  return runBilledCall(deps, ctx, {
    source: null,
    enrich: enrichOptions({ ...body, enrich }),
    maxItems: texts.length,
    minItems: texts.length,
    fetch: async () => ({ items: texts, warnings: [] }),
    text: (t) => t.text,
    data: (results) => ({ results }),
  });
}
