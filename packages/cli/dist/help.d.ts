import { type CommandDef } from './commands.js';
export declare const EXIT_CODES_HELP = "Exit codes:\n  0  success (also when --max-credits stopped a pull early; a notice says so)\n  1  API or network error (the code and message are printed)\n  2  usage error (unknown command or flag, bad value)\n  3  payment required: the balance does not cover the request (402)\n  4  authentication: no API key, or the key is invalid or revoked (401)\n  130 interrupted (Ctrl-C); what was fetched so far is written";
export declare function commandHelp(c: CommandDef): string;
export declare function groupHelp(group: string): string;
export declare function mainHelp(): string;
