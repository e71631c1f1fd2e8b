// The one way a paid call runs: price it, reserve or check credits, do the work, charge exactly
// what is returned, and render the envelope. Two paths:
//  - local work (the sandbox, the built-in analyzer): the exact cost is known before anything
//    can fail, so the call is charged in one conditional step, without a hold;
//  - remote work (a live platform, an LLM backend): hold what the call can cost at most (capping
//    the items asked for at what the balance affords), then settle for what came back, or
//    release the hold when the work failed.
// The stored Idempotency-Key response is written in the same transaction as the debit, and both
// apply only while the call's lease owns its Idempotency-Key record: a run that a retry took
// over (it outlived IDEMPOTENCY_LOCK_SECONDS) is refused there, so one key is debited once.
// When items exist but the balance covers none of them, the call is a 402: a reply of zero
// items is never charged for lack of credits.

import type {
  ChargeOutcome,
  ChargeResult,
  IdempotencyLease,
  Ledger,
  StoredResponse,
} from '../billing/ledger/interface.js';
import { affordableItems, costOf, type Price, priceOf, toCredits } from '../billing/pricing.js';
import type { Metadata, Warning } from '../contract/common.js';
import type { EndpointId } from '../contract/endpoints.js';
import type { Enrichment, EnrichmentType, LlmProvider } from '../contract/items.js';
import type { EnrichCallOptions, Enricher } from '../enrichment/interface.js';
import { AppError, insufficientCredits } from '../errors.js';
import { JsonBytes } from '../reusable-json.js';
import type { SkippedItem, SourceCallContext } from '../sources/interface.js';

export interface CallContext {
  keyId: string;
  /** the server's own id of the request */
  requestId: string;
  /** the caller's X-Request-Id, when it sent one (recorded beside requestId) */
  clientRequestId?: string;
  route: EndpointId;
  /** performance.now() at the start of the request */
  startedAt: number;
  /** aborted at the request deadline (may be created on first read: see requestContext) */
  signal: AbortSignal;
  /** whether the deadline has passed, without creating the signal */
  expired?: () => boolean;
  /** set when the caller sent an Idempotency-Key: the lease on its record this call owns */
  idempotency?: IdempotencyLease;
}

/** A call context whose deadline signal (a timer) is created only when something reads it: a
 *  local call (the sandbox, no enrichment) never does. Read after the deadline, it is aborted. */
class RequestContext implements CallContext {
  readonly keyId: string;
  readonly requestId: string;
  readonly clientRequestId?: string;
  readonly route: EndpointId;
  readonly startedAt: number;
  readonly idempotency?: IdempotencyLease;
  private readonly deadline: number;
  private timer: AbortSignal | undefined;

  constructor(fields: Omit<CallContext, 'signal' | 'expired'>, timeoutMs: number) {
    this.keyId = fields.keyId;
    this.requestId = fields.requestId;
    this.route = fields.route;
    this.startedAt = fields.startedAt;
    if (fields.clientRequestId !== undefined) this.clientRequestId = fields.clientRequestId;
    if (fields.idempotency !== undefined) this.idempotency = fields.idempotency;
    this.deadline = performance.now() + timeoutMs;
  }

  get signal(): AbortSignal {
    if (!this.timer) {
      const left = Math.ceil(this.deadline - performance.now());
      this.timer =
        left > 0
          ? AbortSignal.timeout(left)
          : AbortSignal.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }
    return this.timer;
  }

  readonly expired = () => (this.timer ? this.timer.aborted : performance.now() >= this.deadline);
}

export function requestContext(
  fields: Omit<CallContext, 'signal' | 'expired'>,
  timeoutMs: number,
): CallContext {
  return new RequestContext(fields, timeoutMs);
}

/** The call's deadline as a source or an enricher gets it: the signal (a timer) is created only if
 *  it is read, and `expired` asks the deadline without creating it. */
class CallDeadline implements EnrichCallOptions {
  readonly expired?: () => boolean;
  constructor(private readonly ctx: CallContext) {
    if (ctx.expired) this.expired = ctx.expired;
  }
  get signal(): AbortSignal {
    return this.ctx.signal;
  }
}

/** what a platform source gets of the call context, without reading the signal early */
class SourceContext extends CallDeadline implements SourceCallContext {
  readonly requestId?: string;
  readonly onSkip?: (skip: SkippedItem) => void;
  constructor(ctx: CallContext, requestId: boolean, onSkip?: (skip: SkippedItem) => void) {
    super(ctx);
    if (requestId) this.requestId = ctx.requestId;
    if (onSkip) this.onSkip = onSkip;
  }
}

export function sourceContext(
  ctx: CallContext,
  requestId = false,
  onSkip?: (skip: SkippedItem) => void,
): SourceCallContext {
  return new SourceContext(ctx, requestId, onSkip);
}

/** Counts the upstream items a backend left out for one target, and words the warning. */
export class SkipTally {
  private count = 0;
  private what = 'item';
  readonly onSkip = (skip: SkippedItem): void => {
    this.count++;
    this.what = skip.what;
  };
  warning(target: string): Warning | undefined {
    if (this.count === 0) return undefined;
    const items = this.count === 1 ? this.what : `${this.what}s`;
    return {
      target,
      code: 'ITEMS_SKIPPED',
      message: `${this.count} ${items} in the platform's reply could not be read (its layout changed) and were left out`,
    };
  }
}

export interface CallDeps {
  ledger: Ledger;
  enricher: Enricher;
  holdTtlMs: number;
}

export interface EnrichOptions {
  types: EnrichmentType[];
  categories?: { topic?: string[] };
  provider: LlmProvider;
}

export interface Fetched<T> {
  items: T[];
  warnings: Warning[];
  meta?: Partial<Metadata>;
}

export interface BilledCall<T, D> {
  /** 'sandbox' or 'live': local sources allow the one-step charge */
  source: 'sandbox' | 'live' | null;
  enrich: EnrichOptions;
  /** the most items the request can return */
  maxItems: number;
  /** fewer affordable items than this is a 402 (analyze: every text must be paid) */
  minItems: number;
  /** fetch at most `cap` items, but one when `cap` is 0 and any exists (a call whose balance
   *  covers no item learns whether there was an item to sell) */
  fetch(cap: number): Promise<Fetched<T>>;
  /** the text that enrichment analyzes */
  text(item: T): string;
  /** response data holding the first `count` (enriched) items */
  data(items: Array<T & { enrichment?: Enrichment }>, fetched: Fetched<T>, count: number): D;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** JSON text, or its UTF-8 bytes */
  body: string | Buffer;
}

function uniqueTypes(types: EnrichmentType[] | undefined): EnrichmentType[] {
  return [...new Set(types ?? [])];
}

export function enrichOptions(body: {
  enrich?: EnrichmentType[];
  categories?: { topic?: string[] };
  llm_provider?: LlmProvider;
}): EnrichOptions {
  return {
    types: uniqueTypes(body.enrich),
    categories: body.categories,
    provider: body.llm_provider ?? 'model-2.0-flash',
  };
}

/** a 402 naming what the call needs at least and what the key has (read fresh when not given) */
async function shortOfCredits(
  deps: CallDeps,
  ctx: CallContext,
  needMilli: number,
  availableMilli?: number,
): Promise<AppError> {
  const available =
    availableMilli ?? (await deps.ledger.available(ctx.keyId, { fresh: true }).catch(() => undefined));
  return insufficientCredits(needMilli, available);
}

/** what the caller gets when a charge or settle of `needMilli` was refused */
async function refused(
  deps: CallDeps,
  ctx: CallContext,
  result: ChargeResult & { ok: false },
  needMilli: number,
): Promise<AppError> {
  if (!result.fenced) return shortOfCredits(deps, ctx, needMilli);
  return new AppError(
    'IDEMPOTENCY_IN_PROGRESS',
    'A retry with this Idempotency-Key took this call over (it ran longer than the idempotency lease); this run was discarded and charged nothing',
    { retryAfterSeconds: 1 },
  );
}

/** the fewest items a charge of `items` may cover: when there are items, at least one */
const leastItems = (minItems: number, items: number) =>
  Math.max(Math.min(minItems, items), Math.min(1, items));

async function enrichItems<T>(
  deps: CallDeps,
  call: BilledCall<T, unknown>,
  items: T[],
  ctx: CallContext,
): Promise<Array<T & { enrichment?: Enrichment }>> {
  const { types, categories, provider } = call.enrich;
  if (types.length === 0 || items.length === 0) return items as Array<T & { enrichment?: Enrichment }>;
  const results = await deps.enricher.enrich(
    { texts: items.map((i) => call.text(i)), types, categories, provider },
    // inline local analysis never reads the signal, so it creates no timer
    new CallDeadline(ctx),
  );
  return items.map((item, i) => ({ ...item, enrichment: results[i]! }));
}

export async function runBilledCall<T, D>(
  deps: CallDeps,
  ctx: CallContext,
  call: BilledCall<T, D>,
): Promise<Reply> {
  const { types, provider } = call.enrich;
  const price: Price = priceOf(ctx.route, types, provider);
  const local = call.source !== 'live' && (types.length === 0 || deps.enricher.isLocal(provider));

  const finish = (
    fetched: Fetched<T>,
    enriched: Array<T & { enrichment?: Enrichment }>,
    truncatedAt?: number,
  ) => {
    /** the reply; `bytes`: its body as UTF-8 bytes (sent as is), else as text (to be stored) */
    function render(outcome: ChargeOutcome): StoredResponse;
    function render(outcome: ChargeOutcome, bytes: true): Reply;
    function render(outcome: ChargeOutcome, bytes = false): StoredResponse | Reply {
      const count = Math.min(outcome.items, enriched.length);
      const truncated = truncatedAt !== undefined ? count < truncatedAt : false;
      // written member by member (the order is the reply's): cheaper than spreading literals
      const metadata: Metadata = {
        credits_used: toCredits(outcome.amount),
        credits_remaining: toCredits(outcome.balance),
        processing_time: Number(((performance.now() - ctx.startedAt) / 1000).toFixed(4)),
      };
      if (call.source) metadata.source = call.source;
      if (types.length > 0) {
        metadata.enrichments = types;
        metadata.enrichments_applied = types;
        metadata.llm_provider = provider;
      }
      if (fetched.meta) Object.assign(metadata, fetched.meta);
      if (truncated) metadata.truncated = true;
      if (fetched.warnings.length > 0) metadata.warnings = fetched.warnings;
      // sandbox items are reusable: their JSON text is spliced in, not rendered again
      const data = call.data(enriched.slice(0, count), fetched, count);
      const json = new JsonBytes()
        .raw('{"success":true,"data":')
        .value(data, 3)
        .raw(`,"metadata":${JSON.stringify(metadata)}}`)
        .bytes();
      const body = bytes ? json : json.toString('utf8');
      return {
        status: 200,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'x-credits-used': String(metadata.credits_used),
          'x-credits-remaining': String(metadata.credits_remaining),
        },
        body,
      };
    }
    return render;
  };
  const idem = (render: (o: ChargeOutcome) => StoredResponse) =>
    ctx.idempotency ? { ...ctx.idempotency, render } : undefined;

  if (local) {
    let available = await deps.ledger.available(ctx.keyId);
    // a peek answered from memory is used only when it limits nothing (see cache/balances.ts)
    if (affordableItems(price, available, call.maxItems) !== call.maxItems)
      available = await deps.ledger.available(ctx.keyId, { fresh: true });
    if (affordableItems(price, available, call.minItems) === null)
      throw await shortOfCredits(deps, ctx, costOf(price, call.minItems), available);
    const fetched = await call.fetch(call.maxItems);
    const n = fetched.items.length;
    // enrich only what the balance covers now; the charge below decides for good
    const peek = affordableItems(price, available, n) ?? 0;
    if (peek < leastItems(call.minItems, n))
      throw await shortOfCredits(deps, ctx, costOf(price, leastItems(call.minItems, n)), available);
    const enriched = await enrichItems(deps, call, fetched.items.slice(0, peek), ctx);
    const render = finish(fetched, enriched, n);
    const result = await deps.ledger.charge({
      keyId: ctx.keyId,
      requestId: ctx.requestId,
      clientRequestId: ctx.clientRequestId,
      route: ctx.route,
      price,
      items: enriched.length,
      minItems: leastItems(call.minItems, enriched.length),
      idempotency: idem(render),
    });
    if (!result.ok)
      throw await refused(deps, ctx, result, costOf(price, leastItems(call.minItems, enriched.length)));
    return result.stored ?? render(result, true);
  }

  const hold = await deps.ledger.hold({
    keyId: ctx.keyId,
    requestId: ctx.requestId,
    route: ctx.route,
    price,
    maxItems: call.maxItems,
    minItems: call.minItems,
    ttlMs: deps.holdTtlMs,
  });
  if (!hold.ok) throw await shortOfCredits(deps, ctx, costOf(price, call.minItems));
  let settled = false;
  try {
    const fetched = await call.fetch(hold.items);
    // the balance covers the base charge and no item, and there are items: nothing to sell
    if (hold.items === 0 && fetched.items.length > 0) {
      // given back first, so that the figure of the 402 is the key's without this call's hold
      settled = true;
      await deps.ledger.release(hold.holdId);
      throw await shortOfCredits(deps, ctx, costOf(price, 1));
    }
    const items = fetched.items.slice(0, hold.items);
    const enriched = await enrichItems(deps, call, items, ctx);
    // the balance may have cut the items asked for: say so when it could have mattered
    const cut = hold.items < call.maxItems && fetched.items.length >= hold.items;
    const render = finish(fetched, enriched, cut ? enriched.length + 1 : undefined);
    settled = true;
    const result = await deps.ledger.settle({
      holdId: hold.holdId,
      keyId: ctx.keyId,
      requestId: ctx.requestId,
      clientRequestId: ctx.clientRequestId,
      route: ctx.route,
      price,
      items: enriched.length,
      minItems: leastItems(call.minItems, enriched.length),
      idempotency: idem(render),
    });
    if (!result.ok)
      throw await refused(deps, ctx, result, costOf(price, leastItems(call.minItems, enriched.length)));
    return result.stored ?? render(result, true);
  } catch (e) {
    if (!settled) await deps.ledger.release(hold.holdId);
    throw e;
  }
}
