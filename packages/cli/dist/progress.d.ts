export interface ProgressStream {
    write(chunk: string): unknown;
    isTTY?: boolean;
    columns?: number;
}
export interface ProgressState {
    pages: number;
    /** pages planned, when known (batches of targets); undefined when following a cursor */
    totalPages: number | undefined;
    items: number;
    credits: number;
    note?: string;
}
export declare class Progress {
    #private;
    private readonly stream;
    private readonly enabled;
    constructor(stream: ProgressStream, enabled: boolean);
    static line(s: ProgressState, width?: number, frame?: number): string;
    update(s: ProgressState): void;
    /** clears the bar so that a message can be printed on a clean line */
    clear(): void;
}
