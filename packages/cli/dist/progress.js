// Progress of multi-page work on stderr: a redrawn bar on a terminal; on anything else (a pipe,
// a log file) nothing but the final summary, so logs stay readable.
export class Progress {
    stream;
    enabled;
    #last = '';
    #active = false;
    #frame = 0;
    constructor(stream, enabled) {
        this.stream = stream;
        this.enabled = enabled;
    }
    static line(s, width = 24, frame = 0) {
        let bar;
        if (s.totalPages && s.totalPages > 0) {
            const filled = Math.min(width, Math.round((s.pages / s.totalPages) * width));
            bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${s.pages}/${s.totalPages} pages`;
        }
        else {
            const pos = frame % width;
            bar = `[${'.'.repeat(pos)}#${'.'.repeat(width - pos - 1)}] ${s.pages} pages`;
        }
        const credits = Number.isInteger(s.credits) ? String(s.credits) : s.credits.toFixed(1);
        return `${bar} · ${s.items} items · ${credits} credits${s.note ? ` · ${s.note}` : ''}`;
    }
    update(s) {
        if (!this.enabled)
            return;
        const cols = this.stream.columns ?? 100;
        const line = Progress.line(s, 24, this.#frame++).slice(0, Math.max(20, cols - 1));
        this.stream.write(`\r${line}${' '.repeat(Math.max(0, this.#last.length - line.length))}`);
        this.#last = line;
        this.#active = true;
    }
    /** clears the bar so that a message can be printed on a clean line */
    clear() {
        if (!this.#active)
            return;
        this.stream.write(`\r${' '.repeat(this.#last.length)}\r`);
        this.#last = '';
        this.#active = false;
    }
}
