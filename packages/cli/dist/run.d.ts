import type { Writable } from 'node:stream';
import { GleanerError } from '@gleaner/client';
export declare const EXIT: {
    readonly ok: 0;
    readonly error: 1;
    readonly usage: 2;
    readonly payment: 3;
    readonly auth: 4;
    readonly interrupted: 130;
};
export interface Io {
    env: Record<string, string | undefined>;
    stdout: Writable & {
        isTTY?: boolean;
    };
    stderr: Writable & {
        isTTY?: boolean;
        columns?: number;
    };
    /** standard input as text, for '-' file arguments */
    stdin?: () => string;
    /** for tests: a fetch in front of the server */
    fetch?: typeof globalThis.fetch;
    signal?: AbortSignal;
}
/** the exit code of an API error */
export declare function exitCodeOf(e: GleanerError): number;
/** an API error as printed: code, status, message, details and request id (never the key) */
export declare function describeError(e: GleanerError): string;
export declare function run(argv: string[], io: Io): Promise<number>;
