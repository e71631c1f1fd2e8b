// Request bodies of the operator API under /admin/v1.
import { type Static, Type } from '@sinclair/typebox';

const Credits = Type.Number({
  minimum: 0,
  maximum: 1_000_000_000,
  multipleOf: 0.001,
  description: 'Credits (0.001 steps)',
});

export const CreateKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  credits: Credits,
});
export type CreateKeyBody = Static<typeof CreateKeyBody>;

export const GrantBody = Type.Object({
  credits: Type.Number({ ...Credits, exclusiveMinimum: 0 }),
  note: Type.Optional(Type.String({ maxLength: 500 })),
});
export type GrantBody = Static<typeof GrantBody>;

export const KeyIdParams = Type.Object({ id: Type.String({ pattern: '^key_[0-9a-f]{20}$' }) });

export const LedgerQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  before: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Entries with a sequence number below this' }),
  ),
});
