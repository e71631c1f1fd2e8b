// The seam between services and the analyzers. services/ hands texts over and gets one
// Enrichment object per text back, in input order. Implementations: the built-in engine
// (local, deterministic) and an OpenAI-compatible LLM backend.
import type { Enrichment, EnrichmentType, LlmProvider } from '../contract/items.js';

export interface EnrichRequest {
  texts: string[];
  /** distinct, validated types; each result holds exactly the keys of these types */
  types: EnrichmentType[];
  /** custom topic labels: when given, topics are chosen only from these (possibly none) */
  categories?: { topic?: string[] };
  provider: LlmProvider;
}

export type EnrichmentErrorKind = 'upstream' | 'timeout' | 'throttled' | 'unavailable';

export class EnrichmentError extends Error {
  override readonly name = 'EnrichmentError';
  constructor(
    readonly kind: EnrichmentErrorKind,
    message: string,
    readonly options: { retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }
}

/** What an enrichment call gets of its request's deadline. `signal` may be a getter that creates the
 *  deadline's timer when first read: an analyzer that never waits reads `expired` instead. */
export interface EnrichCallOptions {
  signal?: AbortSignal;
  /** whether the deadline has passed, without reading `signal` */
  expired?: () => boolean;
}

export interface Enricher {
  /** one result per text, in input order; identical input gives identical output */
  enrich(req: EnrichRequest, opts?: EnrichCallOptions): Promise<Enrichment[]>;
  /** true when this provider is served locally and cannot fail upstream, so that the service may
   *  charge in one step instead of hold → settle */
  isLocal(provider: LlmProvider): boolean;
  /** what determines this provider's results besides the request (a digest of the model files the
   *  built-in analyzer reads, an LLM's name): part of the enrichment cache's key, so that a cache
   *  kept across an upgrade (Redis) never answers with another model's readings */
  resultVersion?(provider: LlmProvider): string;
  close(): Promise<void>;
}
