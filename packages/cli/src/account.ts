// `gleaner account`: the key's own balance, usage and ledger, through the free account API.
//   gleaner account                                  balance, held, available and totals
//   gleaner account usage [--from DAY] [--to DAY]    credits and calls by UTC day and endpoint
//   gleaner account entries [--limit N] [--cursor C] one page of ledger entries, newest first
// Prints the reply's data as JSON.
import { parseArgs } from 'node:util';
import { Gleaner } from '@gleaner/client';
import { resolveConfig, UsageError } from './config.js';

export const ACCOUNT_HELP = `Usage: gleaner account [usage|entries] [options]

The key's own figures, from the ledger; free (nothing is charged). Prints JSON.

  gleaner account                          balance, held and available credits, totals
  gleaner account usage                    credits and calls by UTC day and by endpoint
      --from YYYY-MM-DD  --to YYYY-MM-DD   the period (default: the last 30 days)
  gleaner account entries                  ledger entries, newest first, one page
      --limit N (1-200, default 50)  --cursor C (the next_cursor of the previous page)

  --base-url URL, --config FILE as for every command.
`;

export interface AccountIo {
  env: Record<string, string | undefined>;
  out: (s: string) => void;
  err: (s: string) => void;
  fetch?: typeof globalThis.fetch;
}

/** returns the exit code; GleanerErrors are thrown to the caller, which prints them */
export async function runAccount(args: string[], io: AccountIo): Promise<number> {
  const sub = args[0] && !args[0].startsWith('-') ? args[0] : 'show';
  if (!['show', 'usage', 'entries'].includes(sub)) throw new UsageError(`unknown account command "${sub}"`);
  const { values: v } = parseArgs({
    args: sub === 'show' ? args : args.slice(1),
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
      'base-url': { type: 'string' },
      config: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (v.help) {
    io.out(ACCOUNT_HELP);
    return 0;
  }
  const config = resolveConfig({ config: v.config, baseUrl: v['base-url'] }, io.env);
  for (const w of config.warnings) io.err(`gleaner: ${w}`);
  if (!config.apiKey) {
    io.err(
      'gleaner: no API key: set GLEANER_API_KEY, or "apiKey" in ~/.config/gleaner/config.json (or --config)',
    );
    return 4;
  }
  const client = new Gleaner({ apiKey: config.apiKey, baseUrl: config.baseUrl, fetch: io.fetch });
  let limit: number | undefined;
  if (v.limit !== undefined) {
    if (!/^\d+$/.test(v.limit) || Number(v.limit) < 1 || Number(v.limit) > 200)
      throw new UsageError(`--limit must be a whole number from 1 to 200 (got ${JSON.stringify(v.limit)})`);
    limit = Number(v.limit);
  }
  const r =
    sub === 'usage'
      ? await client.usage({ from: v.from, to: v.to })
      : sub === 'entries'
        ? await client.entries({ limit, cursor: v.cursor })
        : await client.account();
  io.out(`${JSON.stringify(r.data, null, 2)}\n`);
  return 0;
}
