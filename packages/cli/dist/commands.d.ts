import type { EndpointId } from '@gleaner/client';
export interface OptionSpec {
    type: 'string' | 'boolean';
    multiple?: boolean;
    short?: string;
    /** placeholder shown in help */
    arg?: string;
    help: string;
}
export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;
export type Body = Record<string, unknown>;
export interface CommandDef {
    path: string[];
    endpoint: EndpointId;
    summary: string;
    cost: string;
    options: Record<string, OptionSpec>;
    /** 'cursor': follows cursor/has_more with --all; 'targets': one request per batch of targets */
    paging: 'cursor' | 'targets';
    /** the list field split into batches of batchSize (the API's per-request maximum) */
    targetField?: string;
    batchSize?: number;
    build(v: Values, stdin: () => string): Body;
    examples: string[];
}
export declare function int(v: Values, k: string, min: number, max: number): number | undefined;
/** the contract's bounds of a numeric body field */
export declare function boundsOf(id: EndpointId, field: string): {
    min: number;
    max: number;
    default?: number;
};
export declare const COMMANDS: readonly CommandDef[];
/** Options every subcommand takes. */
export declare const COMMON_OPTIONS: Record<string, OptionSpec>;
export declare function findCommand(words: string[]): CommandDef | undefined;
