export const FORMATS = ['json', 'jsonl', 'csv'];
/** `{ stats: { views: 1 }, enrichment: { topics: ['a', 'b'] } }` → `{ 'stats.views': 1,
 *  'enrichment.topics': 'a|b' }`. Arrays of objects are kept as JSON text. */
export function flatten(item, prefix = '', out = {}) {
    if (item === null || typeof item !== 'object') {
        out[prefix || 'value'] = (item ?? null);
        return out;
    }
    for (const [k, v] of Object.entries(item)) {
        const key = prefix ? `${prefix}.${k}` : k;
        if (Array.isArray(v)) {
            out[key] = v.every((x) => x === null || typeof x !== 'object')
                ? v.map((x) => (x === null ? '' : String(x))).join('|')
                : JSON.stringify(v);
        }
        else if (v !== null && typeof v === 'object') {
            flatten(v, key, out);
        }
        else if (v !== undefined) {
            out[key] = v;
        }
    }
    return out;
}
/** One CSV field: quoted when it holds a comma, a quote, CR or LF; quotes doubled (RFC 4180). */
export function csvField(v) {
    if (v === null || v === undefined)
        return '';
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
const ENRICHMENT_ORDER = ['sentiment', 'sentiment_score', 'topics', 'intent', 'keywords'];
/** Columns in order of first appearance, with the enrichment columns last in a fixed order. */
export function csvColumns(rows) {
    const seen = new Set();
    for (const r of rows)
        for (const k of Object.keys(r))
            seen.add(k);
    const all = [...seen];
    const rank = (c) => {
        const i = ENRICHMENT_ORDER.indexOf(c.slice('enrichment.'.length));
        return i === -1 ? ENRICHMENT_ORDER.length : i;
    };
    const plain = all.filter((c) => !c.startsWith('enrichment.'));
    const enrich = all.filter((c) => c.startsWith('enrichment.')).sort((a, b) => rank(a) - rank(b));
    return [...plain, ...enrich];
}
export function toCsv(items) {
    const rows = items.map((i) => flatten(i));
    const cols = csvColumns(rows);
    if (cols.length === 0)
        return '';
    const lines = [cols.map(csvField).join(',')];
    for (const r of rows)
        lines.push(cols.map((c) => csvField(r[c])).join(','));
    return `${lines.join('\r\n')}\r\n`;
}
function writeTo(stream, chunk) {
    stream.write(chunk);
}
async function finish(stream, end) {
    if (end) {
        await new Promise((resolve, reject) => {
            stream.once('error', reject);
            stream.end(resolve);
        });
        return;
    }
    // stdout: wait until what was written has drained
    if (stream.writableNeedDrain)
        await new Promise((resolve) => stream.once('drain', () => resolve()));
}
/** A writer of `format` to `stream`; `end` closes the stream at the end (a file, not stdout). */
export function createWriter(format, stream, end) {
    let count = 0;
    if (format === 'csv') {
        // columns depend on every item (enrichment and optional fields), so rows are kept until close
        const items = [];
        return {
            write(item) {
                items.push(item);
                count++;
            },
            async close() {
                writeTo(stream, toCsv(items));
                await finish(stream, end);
            },
            get count() {
                return count;
            },
        };
    }
    if (format === 'jsonl') {
        return {
            write(item) {
                writeTo(stream, `${JSON.stringify(item)}\n`);
                count++;
            },
            async close() {
                await finish(stream, end);
            },
            get count() {
                return count;
            },
        };
    }
    return {
        write(item) {
            writeTo(stream, `${count === 0 ? '[\n  ' : ',\n  '}${JSON.stringify(item)}`);
            count++;
        },
        async close() {
            writeTo(stream, count === 0 ? '[]\n' : '\n]\n');
            await finish(stream, end);
        },
        get count() {
            return count;
        },
    };
}
/** The format named by a file's extension, if any. */
export function formatOfPath(path) {
    const p = path.toLowerCase();
    if (p.endsWith('.csv'))
        return 'csv';
    if (p.endsWith('.jsonl') || p.endsWith('.ndjson'))
        return 'jsonl';
    if (p.endsWith('.json'))
        return 'json';
    return undefined;
}
