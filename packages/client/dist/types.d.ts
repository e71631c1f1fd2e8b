import type { EndpointId, EndpointTypes, EnrichmentType, Metadata, Warning } from './generated.js';
export type * from './generated.js';
export type ParamsOf<Id extends EndpointId> = EndpointTypes[Id]['params'];
export type DataOf<Id extends EndpointId> = EndpointTypes[Id]['data'];
export interface CallOptions {
    /** your own Idempotency-Key for this call (default: a new random UUID per call) */
    idempotencyKey?: string;
    signal?: AbortSignal;
}
/** What every endpoint method resolves to. */
export interface ApiResult<D> {
    data: D;
    /** the response's metadata, with `enrichments` and `enrichments_applied` both filled in */
    metadata: Metadata;
    /** credits charged for this logical call, once, whatever the number of attempts (a replayed
     *  answer reports what the original attempt was charged) */
    creditsUsed: number;
    /** the key's balance after this call, when the server reported it */
    creditsRemaining: number | undefined;
    /** the server's request id (X-Request-Id) */
    requestId: string | undefined;
    /** the enrichment types applied, whichever of the two metadata names the server used */
    enrichments: EnrichmentType[];
    /** targets that produced nothing (`metadata.warnings`), or [] */
    warnings: Warning[];
    /** true when the balance covered only part of the result (`metadata.truncated`) */
    truncated: boolean;
    /** true when the server answered from its idempotency store (a retry of a call it had served) */
    replayed: boolean;
    /** the Idempotency-Key sent with every attempt of this call */
    idempotencyKey: string;
    /** attempts made (1 when the first one succeeded) */
    attempts: number;
}
