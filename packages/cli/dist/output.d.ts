import type { Writable } from 'node:stream';
export type Format = 'json' | 'jsonl' | 'csv';
export declare const FORMATS: readonly Format[];
export interface ItemWriter {
    write(item: unknown): void;
    /** ends the document (closes the JSON array, writes the CSV) and flushes */
    close(): Promise<void>;
    readonly count: number;
}
type Scalar = string | number | boolean | null;
/** `{ stats: { views: 1 }, enrichment: { topics: ['a', 'b'] } }` → `{ 'stats.views': 1,
 *  'enrichment.topics': 'a|b' }`. Arrays of objects are kept as JSON text. */
export declare function flatten(item: unknown, prefix?: string, out?: Record<string, Scalar>): Record<string, Scalar>;
/** One CSV field: quoted when it holds a comma, a quote, CR or LF; quotes doubled (RFC 4180). */
export declare function csvField(v: Scalar | undefined): string;
/** Columns in order of first appearance, with the enrichment columns last in a fixed order. */
export declare function csvColumns(rows: ReadonlyArray<Record<string, Scalar>>): string[];
export declare function toCsv(items: readonly unknown[]): string;
/** A writer of `format` to `stream`; `end` closes the stream at the end (a file, not stdout). */
export declare function createWriter(format: Format, stream: Writable, end: boolean): ItemWriter;
/** The format named by a file's extension, if any. */
export declare function formatOfPath(path: string): Format | undefined;
export {};
