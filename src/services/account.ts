// Verbs of the account API: what a key holder may read about their own key (balance, totals,
// usage by day and endpoint, ledger entries), and every key's usage for the operator. Every
// figure is summed from the ledger's journal, the same rows `reconcile` checks balances against.
import type { KeyUsage, Ledger, UsageRow } from '../billing/ledger/interface.js';
import { toCredits } from '../billing/pricing.js';
import {
  type Account,
  DEFAULT_USAGE_DAYS,
  type Entries,
  MAX_USAGE_DAYS,
  type Usage,
} from '../contract/account.js';
import { AppError, badRequest } from '../errors.js';
import { keyView } from './accounts.js';

export interface AccountDeps {
  ledger: Ledger;
}

const DAY_MS = 86_400_000;

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

function dayOf(field: string, value: string): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    throw badRequest(`${field} is not a date`, [{ field, message: 'must be a date, YYYY-MM-DD' }]);
  return ms / DAY_MS;
}

async function keyOf(ledger: Ledger, keyId: string) {
  const k = await ledger.getKey(keyId);
  if (!k) throw new AppError('UNAUTHORIZED', 'Invalid API key');
  return k;
}

export async function account({ ledger }: AccountDeps, keyId: string): Promise<Account> {
  const k = await keyOf(ledger, keyId);
  const t = await ledger.totals(keyId);
  // a revoked key never gets here (it does not authenticate)
  const { revoked_at: _, ...view } = keyView(k);
  return {
    ...view,
    totals: { granted: toCredits(t.granted), spent: toCredits(t.spent), calls: t.debits },
  };
}

/** the period of a usage query, in days since the epoch, both included */
export function usagePeriod(
  q: { from?: string; to?: string },
  now = new Date(),
): { from: number; to: number } {
  const to = q.to !== undefined ? dayOf('to', q.to) : Math.floor(now.getTime() / DAY_MS);
  const from = q.from !== undefined ? dayOf('from', q.from) : to - (DEFAULT_USAGE_DAYS - 1);
  if (from > to) throw badRequest('from is after to', [{ field: 'from', message: 'must not be after to' }]);
  if (to - from + 1 > MAX_USAGE_DAYS)
    throw badRequest(`The period is longer than ${MAX_USAGE_DAYS} days`, [
      { field: 'from', message: `must be at most ${MAX_USAGE_DAYS} days before to` },
    ]);
  return { from, to };
}

/** the debits of the rows, day by day over the period (days without any included) */
export function usageView(rows: UsageRow[], from: number, to: number): Usage {
  const days = new Map<
    number,
    { credits: number; calls: number; endpoints: Map<string, [number, number]> }
  >();
  for (let d = from; d <= to; d++) days.set(d, { credits: 0, calls: 0, endpoints: new Map() });
  const byEndpoint = new Map<string, [number, number]>();
  let credits = 0;
  let calls = 0;
  for (const r of rows) {
    if (r.kind !== 'debit') continue;
    const day = days.get(r.day);
    if (!day) continue;
    const ep = r.route ?? 'unknown';
    day.credits += r.amount;
    day.calls += r.count;
    const e = day.endpoints.get(ep) ?? [0, 0];
    day.endpoints.set(ep, [e[0] + r.amount, e[1] + r.count]);
    const t = byEndpoint.get(ep) ?? [0, 0];
    byEndpoint.set(ep, [t[0] + r.amount, t[1] + r.count]);
    credits += r.amount;
    calls += r.count;
  }
  return {
    from: isoDay(from),
    to: isoDay(to),
    total: { credits: toCredits(credits), calls },
    days: [...days].map(([d, v]) => ({
      date: isoDay(d),
      credits: toCredits(v.credits),
      calls: v.calls,
      endpoints: Object.fromEntries(
        [...v.endpoints].map(([ep, [c, n]]) => [ep, { credits: toCredits(c), calls: n }]),
      ),
    })),
    endpoints: [...byEndpoint]
      .sort((a, b) => b[1][0] - a[1][0] || a[0].localeCompare(b[0]))
      .map(([endpoint, [c, n]]) => ({ endpoint, credits: toCredits(c), calls: n })),
  };
}

export async function usage(
  { ledger }: AccountDeps,
  keyId: string,
  q: { from?: string; to?: string },
): Promise<Usage> {
  const { from, to } = usagePeriod(q);
  const rows = await ledger.usage(keyId, from, to);
  return usageView(rows, from, to);
}

export async function entries(
  { ledger }: AccountDeps,
  keyId: string,
  q: { limit?: number; cursor?: string },
): Promise<Entries> {
  const limit = q.limit ?? 50;
  // one more than asked: whether another page follows
  const rows = await ledger.entries(keyId, {
    limit: limit + 1,
    beforeSeq: q.cursor === undefined ? undefined : Number(q.cursor),
  });
  const page = rows.slice(0, limit);
  return {
    entries: page.map((e) => ({
      seq: e.seq,
      time: e.createdAt.toISOString(),
      kind: e.kind,
      endpoint: e.route,
      credits: toCredits(e.amount),
      request_id: e.requestId,
      client_request_id: e.clientRequestId,
      idempotent: e.idempotent,
      note: e.note,
    })),
    next_cursor: rows.length > limit ? String(page[page.length - 1]!.seq) : null,
  };
}

/** the operator's view: every key's debits over the period */
export async function usageOfAllKeys(
  { ledger }: AccountDeps,
  q: { from?: string; to?: string },
): Promise<{ from: string; to: string; keys: Array<{ id: string; credits: number; calls: number }> }> {
  const { from, to } = usagePeriod(q);
  const rows: KeyUsage[] = await ledger.usageByKey(from, to);
  return {
    from: isoDay(from),
    to: isoDay(to),
    keys: rows.map((r) => ({ id: r.keyId, credits: toCredits(r.spent), calls: r.calls })),
  };
}
