// Picks the analyzer behind each provider name: the built-in engine by default, or the
// OpenAI-compatible LLM backend for the names listed in LLM_PROVIDERS. Without an LLM backend the
// built-in engine serves every name, and no router stands in front of it.
import type { Config } from '../config.js';
import type { LlmProvider } from '../contract/items.js';
import { type BuiltinEnricherOptions, createBuiltinEnricher } from './engine/pool.js';
import type { EnrichCallOptions, Enricher, EnrichRequest } from './interface.js';
import { createLlmEnricher } from './llm/index.js';

export class ProviderRouter implements Enricher {
  constructor(
    private readonly builtin: Enricher,
    private readonly llm: Enricher,
    private readonly llmProviders: ReadonlySet<string>,
  ) {}

  private pick(provider: LlmProvider): Enricher {
    return this.llmProviders.has(provider) ? this.llm : this.builtin;
  }

  enrich(req: EnrichRequest, opts?: EnrichCallOptions) {
    return this.pick(req.provider).enrich(req, opts);
  }

  isLocal(provider: LlmProvider): boolean {
    return this.pick(provider).isLocal(provider);
  }

  resultVersion(provider: LlmProvider): string {
    return this.pick(provider).resultVersion?.(provider) ?? '';
  }

  async close() {
    await Promise.all([this.builtin.close(), this.llm.close()]);
  }
}

/** `onBusy`: told the seconds the built-in analyzer spends on each batch (see BuiltinEnricherOptions) */
export function createEnricher(config: Config, hooks: Pick<BuiltinEnricherOptions, 'onBusy'> = {}): Enricher {
  const builtin = createBuiltinEnricher({ threads: config.ENRICH_THREADS, ...hooks });
  if (config.llmProviders.length === 0 || !config.LLM_BASE_URL || !config.LLM_MODEL) return builtin;
  const llm = createLlmEnricher({
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
  });
  return new ProviderRouter(builtin, llm, new Set(config.llmProviders));
}
