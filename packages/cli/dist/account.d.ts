export declare const ACCOUNT_HELP = "Usage: gleaner account [usage|entries] [options]\n\nThe key's own figures, from the ledger; free (nothing is charged). Prints JSON.\n\n  gleaner account                          balance, held and available credits, totals\n  gleaner account usage                    credits and calls by UTC day and by endpoint\n      --from YYYY-MM-DD  --to YYYY-MM-DD   the period (default: the last 30 days)\n  gleaner account entries                  ledger entries, newest first, one page\n      --limit N (1-200, default 50)  --cursor C (the next_cursor of the previous page)\n\n  --base-url URL, --config FILE as for every command.\n";
export interface AccountIo {
    env: Record<string, string | undefined>;
    out: (s: string) => void;
    err: (s: string) => void;
    fetch?: typeof globalThis.fetch;
}
/** returns the exit code; GleanerErrors are thrown to the caller, which prints them */
export declare function runAccount(args: string[], io: AccountIo): Promise<number>;
