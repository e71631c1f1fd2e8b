import type { ApiResult } from './types.js';
export interface PageState<B> {
    /** the body the next request will send */
    body: B;
    /** 0-based index of the next page */
    page: number;
    /** credits charged by the pages fetched so far */
    creditsUsed: number;
    /** items returned so far */
    items: number;
    /** the previous page's result, if any */
    previous: ApiResult<unknown> | undefined;
}
export interface PaginateOptions<B> {
    /** stop after this many pages */
    maxPages?: number;
    /** called before every request: return false to stop, or fields to change in the body
     *  (for example a smaller `limit` to stay within a budget) */
    beforePage?: (state: PageState<B>) => Partial<B> | false | undefined;
    signal?: AbortSignal;
}
export interface PagePlan<B, D, I> {
    first: B;
    /** the body of the request after `result`, or undefined at the end */
    next: (result: ApiResult<D>, body: B, page: number) => B | undefined;
    items: (data: D) => I[];
    fetch: (body: B, signal?: AbortSignal) => Promise<ApiResult<D>>;
}
export type StopReason = 'end' | 'maxPages' | 'beforePage';
export declare class Paginator<B, D, I> implements AsyncIterable<I> {
    private readonly plan;
    private readonly options;
    /** totals of the latest run */
    creditsUsed: number;
    pagesFetched: number;
    itemsReturned: number;
    /** why the latest run ended; undefined while it runs */
    stopReason: StopReason | undefined;
    /** the key's balance after the latest page */
    creditsRemaining: number | undefined;
    constructor(plan: PagePlan<B, D, I>, options?: PaginateOptions<B>);
    /** Every response in order, to the end. Each call starts a new run from the first page. */
    pages(): AsyncGenerator<ApiResult<D>, void, undefined>;
    /** Every item of every page, in order. */
    [Symbol.asyncIterator](): AsyncGenerator<I, void, undefined>;
    /** Collects every item (mind the credits: this pulls to the end). */
    all(): Promise<I[]>;
}
/** Credits come in 0.5 (and finer, 0.001) steps; add them in thousandths to stay exact. */
export declare function addCredits(a: number, b: number): number;
/** Splits a list into chunks of at most `size`. */
export declare function chunks<T>(list: readonly T[], size: number): T[][];
