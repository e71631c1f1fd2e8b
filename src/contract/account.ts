// The account API of a key holder under /api/v1/account: the key's balance and totals, its usage
// over a period by day and by endpoint, and its ledger entries. Free of charge.
import { type Static, Type } from '@sinclair/typebox';

const Credits = (description: string) => Type.Number({ description });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A UTC date, YYYY-MM-DD' });

/** the longest period one usage call covers */
export const MAX_USAGE_DAYS = 366;
export const DEFAULT_USAGE_DAYS = 30;

export const UsageFigures = Type.Object({
  credits: Credits('Credits debited'),
  calls: Type.Integer({ description: 'Charged calls' }),
});

export const Account = Type.Object(
  {
    id: Type.String({ description: "The key's id (not the key)" }),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the key' }),
    credits: Credits('Balance: credits granted minus credits debited'),
    held: Credits('Credits reserved by calls running now'),
    available: Credits('What a call can spend now (balance minus held)'),
    created_at: Type.String({ format: 'date-time' }),
    totals: Type.Object({
      granted: Credits('Credits ever granted to the key'),
      spent: Credits('Credits ever debited'),
      calls: Type.Integer({ description: 'Charged calls ever' }),
    }),
  },
  { $id: 'Account' },
);
export type Account = Static<typeof Account>;

export const UsageQuery = Type.Object(
  {
    from: Type.Optional({
      ...Day,
      description: `First day (UTC) of the period; default ${DEFAULT_USAGE_DAYS - 1} days before \`to\``,
    }),
    to: Type.Optional({ ...Day, description: 'Last day (UTC) of the period, included; default today' }),
  },
  { additionalProperties: false },
);
export type UsageQuery = Static<typeof UsageQuery>;

export const Usage = Type.Object(
  {
    from: Day,
    to: Day,
    total: UsageFigures,
    days: Type.Array(
      Type.Object({
        date: Day,
        credits: Credits('Credits debited that day'),
        calls: Type.Integer(),
        endpoints: Type.Record(Type.String(), UsageFigures, {
          description: 'By endpoint id (e.g. clipnet.posts); endpoints without calls that day are left out',
        }),
      }),
      { description: 'Every day of the period, oldest first, days without calls included' },
    ),
    endpoints: Type.Array(
      Type.Object({ endpoint: Type.String(), credits: Type.Number(), calls: Type.Integer() }),
      {
        description: 'The period by endpoint, most credits first',
      },
    ),
  },
  { $id: 'Usage' },
);
export type Usage = Static<typeof Usage>;

export const MAX_ENTRIES_PAGE = 200;

export const EntriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ENTRIES_PAGE, default: 50 })),
    cursor: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,15}$', description: 'The `next_cursor` of the previous page' }),
    ),
  },
  { additionalProperties: false },
);
export type EntriesQuery = Static<typeof EntriesQuery>;

export const Entry = Type.Object(
  {
    seq: Type.Integer({ description: "The entry's place in the ledger" }),
    time: Type.String({ format: 'date-time' }),
    kind: Type.Union([Type.Literal('grant'), Type.Literal('debit')]),
    endpoint: Type.Union([Type.String(), Type.Null()], { description: 'The endpoint charged (debits)' }),
    credits: Credits('Credits granted or debited'),
    request_id: Type.Union([Type.String(), Type.Null()], { description: 'X-Request-Id of the charged call' }),
    client_request_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The X-Request-Id the caller sent with it, if any',
    }),
    idempotent: Type.Boolean({
      description:
        'The call carried an Idempotency-Key: its retries replayed this reply and were not charged (a replay adds no entry)',
    }),
    note: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'LedgerEntry' },
);

export const Entries = Type.Object(
  {
    entries: Type.Array(Entry, { description: 'Newest first' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
  },
  { $id: 'Entries' },
);
export type Entries = Static<typeof Entries>;
