import type { EndpointId } from '@gleaner/client';
type Body = Record<string, unknown>;
/** The most a request can cost, in millicredits. */
export declare function worstCaseMilli(id: EndpointId, body: Body): number;
export type Fit = {
    ok: true;
    patch: Body | undefined;
    worstMilli: number;
} | {
    ok: false;
    worstMilli: number;
};
/**
 * Makes a request fit in `budgetMilli`: unchanged when its worst case fits; else with its cap
 * field lowered as far as needed (a smaller page, fewer comments per post, a lower depth);
 * not at all when even a cap of 1 could cost more.
 */
export declare function fitToBudget(id: EndpointId, body: Body, budgetMilli: number): Fit;
export declare const toMilli: (credits: number) => number;
export declare const fromMilli: (milli: number) => number;
export {};
