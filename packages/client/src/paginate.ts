// Multi-request pulls. A Paginator runs a plan of requests (follow `cursor` while `has_more`, or
// one request per batch of targets) and is an async iterable of items; `.pages()` gives the
// responses themselves, with their credits.
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

export class Paginator<B, D, I> implements AsyncIterable<I> {
  /** totals of the latest run */
  creditsUsed = 0;
  pagesFetched = 0;
  itemsReturned = 0;
  /** why the latest run ended; undefined while it runs */
  stopReason: StopReason | undefined;
  /** the key's balance after the latest page */
  creditsRemaining: number | undefined;

  constructor(
    private readonly plan: PagePlan<B, D, I>,
    private readonly options: PaginateOptions<B> = {},
  ) {}

  /** Every response in order, to the end. Each call starts a new run from the first page. */
  async *pages(): AsyncGenerator<ApiResult<D>, void, undefined> {
    this.creditsUsed = 0;
    this.pagesFetched = 0;
    this.itemsReturned = 0;
    this.stopReason = undefined;
    const { maxPages, beforePage, signal } = this.options;
    let body: B | undefined = this.plan.first;
    let previous: ApiResult<D> | undefined;
    const seenCursors = new Set<string>();
    while (body !== undefined) {
      if (maxPages !== undefined && this.pagesFetched >= maxPages) {
        this.stopReason = 'maxPages';
        return;
      }
      const patch = beforePage?.({
        body,
        page: this.pagesFetched,
        creditsUsed: this.creditsUsed,
        items: this.itemsReturned,
        previous,
      });
      if (patch === false) {
        this.stopReason = 'beforePage';
        return;
      }
      if (patch) body = { ...body, ...patch };
      const result: ApiResult<D> = await this.plan.fetch(body, signal);
      this.pagesFetched++;
      this.creditsUsed = addCredits(this.creditsUsed, result.creditsUsed);
      this.creditsRemaining = result.creditsRemaining;
      this.itemsReturned += this.plan.items(result.data).length;
      previous = result;
      yield result;
      const next = this.plan.next(result, body, this.pagesFetched - 1);
      // a server that hands out the same cursor twice would loop for ever (and bill each time)
      const cursor = (next as { cursor?: unknown } | undefined)?.cursor;
      if (typeof cursor === 'string') {
        if (seenCursors.has(cursor)) throw new Error(`the server returned cursor ${cursor} twice`);
        seenCursors.add(cursor);
      }
      body = next;
    }
    this.stopReason = 'end';
  }

  /** Every item of every page, in order. */
  async *[Symbol.asyncIterator](): AsyncGenerator<I, void, undefined> {
    for await (const page of this.pages()) yield* this.plan.items(page.data);
  }

  /** Collects every item (mind the credits: this pulls to the end). */
  async all(): Promise<I[]> {
    const out: I[] = [];
    for await (const item of this) out.push(item);
    return out;
  }
}

/** Credits come in 0.5 (and finer, 0.001) steps; add them in thousandths to stay exact. */
export function addCredits(a: number, b: number): number {
  return Math.round(a * 1000 + b * 1000) / 1000;
}

/** Splits a list into chunks of at most `size`. */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
