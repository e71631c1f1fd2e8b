// String formats used by the contract schemas, registered for TypeBox's Value checks (tests,
// sources validating upstream data). Timestamps are ISO 8601 in UTC.
import { FormatRegistry } from '@sinclair/typebox';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

if (!FormatRegistry.Has('date-time'))
  FormatRegistry.Set('date-time', (v) => ISO_UTC.test(v) && !Number.isNaN(Date.parse(v)));
