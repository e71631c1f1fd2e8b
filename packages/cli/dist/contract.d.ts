import type { EndpointId, EnrichmentType, LlmProvider } from '@gleaner/client';
export declare const API_VERSION = "1.0.0";
/** A body field: its JSON type and the bounds and default the server applies. */
export interface FieldInfo {
    type: string;
    required?: true;
    minimum?: number;
    maximum?: number;
    minItems?: number;
    maxItems?: number;
    default?: unknown;
    enum?: readonly unknown[];
}
export interface EndpointInfo {
    /** under /api/v1 */
    path: string;
    fields: Readonly<Record<string, FieldInfo>>;
}
export declare const ENDPOINTS: Readonly<Record<EndpointId, EndpointInfo>>;
export declare const ENRICHMENT_TYPES: readonly EnrichmentType[];
export declare const LLM_PROVIDERS: readonly LlmProvider[];
/** The server's price table, in millicredits (MILLI per credit). */
export declare const MILLI = 1000;
/** base charge and per-item charge of each endpoint, before enrichment */
export declare const RATES: Readonly<Record<EndpointId, {
    base: number;
    perItem: number;
}>>;
/** per returned item (per text on analyze), per enrichment type */
export declare const ENRICHMENT_RATES: Readonly<Record<EnrichmentType, number>>;
/** factor on the enrichment part of a charge */
export declare const PROVIDER_MULTIPLIER: Readonly<Record<LlmProvider, number>>;
/** How a request's item count is bounded, as the server caps it: `targets × unit × body[cap]`, or
 *  a fixed count per target. */
export interface Bound {
    /** the body field that caps items per target, and that --max-credits may lower */
    cap?: string;
    /** list field whose length multiplies the bound */
    targets?: string;
    unit: number;
    /** a fixed per-target bound when there is no cap field */
    fixed?: number;
}
export declare const BOUNDS: Readonly<Record<EndpointId, Bound>>;
