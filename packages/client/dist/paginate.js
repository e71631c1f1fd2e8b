export class Paginator {
    plan;
    options;
    /** totals of the latest run */
    creditsUsed = 0;
    pagesFetched = 0;
    itemsReturned = 0;
    /** why the latest run ended; undefined while it runs */
    stopReason;
    /** the key's balance after the latest page */
    creditsRemaining;
    constructor(plan, options = {}) {
        this.plan = plan;
        this.options = options;
    }
    /** Every response in order, to the end. Each call starts a new run from the first page. */
    async *pages() {
        this.creditsUsed = 0;
        this.pagesFetched = 0;
        this.itemsReturned = 0;
        this.stopReason = undefined;
        const { maxPages, beforePage, signal } = this.options;
        let body = this.plan.first;
        let previous;
        const seenCursors = new Set();
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
            if (patch)
                body = { ...body, ...patch };
            const result = await this.plan.fetch(body, signal);
            this.pagesFetched++;
            this.creditsUsed = addCredits(this.creditsUsed, result.creditsUsed);
            this.creditsRemaining = result.creditsRemaining;
            this.itemsReturned += this.plan.items(result.data).length;
            previous = result;
            yield result;
            const next = this.plan.next(result, body, this.pagesFetched - 1);
            // a server that hands out the same cursor twice would loop for ever (and bill each time)
            const cursor = next?.cursor;
            if (typeof cursor === 'string') {
                if (seenCursors.has(cursor))
                    throw new Error(`the server returned cursor ${cursor} twice`);
                seenCursors.add(cursor);
            }
            body = next;
        }
        this.stopReason = 'end';
    }
    /** Every item of every page, in order. */
    async *[Symbol.asyncIterator]() {
        for await (const page of this.pages())
            yield* this.plan.items(page.data);
    }
    /** Collects every item (mind the credits: this pulls to the end). */
    async all() {
        const out = [];
        for await (const item of this)
            out.push(item);
        return out;
    }
}
/** Credits come in 0.5 (and finer, 0.001) steps; add them in thousandths to stay exact. */
export function addCredits(a, b) {
    return Math.round(a * 1000 + b * 1000) / 1000;
}
/** Splits a list into chunks of at most `size`. */
export function chunks(list, size) {
    const out = [];
    for (let i = 0; i < list.length; i += size)
        out.push(list.slice(i, i + size));
    return out;
}
