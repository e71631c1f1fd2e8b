// `gleaner`: parses a command line, runs the requests through the client and writes the items.
// run() takes its streams and environment as arguments so that tests drive it in-process.
import { createWriteStream, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { addCredits, Gleaner, GleanerError, itemsOf, } from '@gleaner/client';
import { runAccount } from './account.js';
import { fitToBudget, fromMilli, toMilli, worstCaseMilli } from './budget.js';
import { COMMANDS, COMMON_OPTIONS, findCommand, int, } from './commands.js';
import { resolveConfig, UsageError } from './config.js';
import { ENDPOINTS } from './contract.js';
import { commandHelp, groupHelp, mainHelp } from './help.js';
import { createWriter, FORMATS, formatOfPath } from './output.js';
import { Progress } from './progress.js';
export const EXIT = { ok: 0, error: 1, usage: 2, payment: 3, auth: 4, interrupted: 130 };
/** the CLI package's version (src/ and dist/ are both one level below its package.json) */
function version() {
    try {
        const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
        return String(pkg.version);
    }
    catch {
        return 'unknown';
    }
}
/** the exit code of an API error */
export function exitCodeOf(e) {
    if (e.kind === 'payment')
        return EXIT.payment;
    if (e.kind === 'auth')
        return EXIT.auth;
    return EXIT.error;
}
/** an error's code with its HTTP status, when it got one: `NOT_FOUND (HTTP 404)` */
const codeAndStatus = (e) => `${e.code}${e.status ? ` (HTTP ${e.status})` : ''}`;
/** an API error as printed: code, status, message, details and request id (never the key) */
export function describeError(e) {
    const lines = [`gleaner: ${codeAndStatus(e)}: ${e.message}`];
    for (const d of e.details)
        lines.push(`  ${d.field}: ${d.message}`);
    if (e.requestId)
        lines.push(`  request id: ${e.requestId}`);
    if (e.attempts > 1)
        lines.push(`  after ${e.attempts} attempts`);
    if (e.kind === 'payment')
        lines.push('  top up the key, or lower the request (--max-credits, --limit)');
    if (e.kind === 'auth')
        lines.push('  check GLEANER_API_KEY (or "apiKey" in the config file)');
    return lines.join('\n');
}
const fmtCredits = (c) => String(Math.round(c * 1000) / 1000);
/** writes a line to stderr */
const errLine = (io) => (s) => io.stderr.write(s.endsWith('\n') ? s : `${s}\n`);
export async function run(argv, io) {
    const err = errLine(io);
    const words = [];
    for (const a of argv) {
        if (a.startsWith('-'))
            break;
        words.push(a);
    }
    const wantsHelp = argv.includes('--help') || argv.includes('-h');
    if (argv.length === 0) {
        err(mainHelp());
        return EXIT.usage;
    }
    if (words[0] === 'help') {
        const c = findCommand(words.slice(1));
        io.stdout.write(c ? commandHelp(c) : words[1] && isGroup(words[1]) ? groupHelp(words[1]) : mainHelp());
        return EXIT.ok;
    }
    if (words.length === 0 && (argv[0] === '--version' || argv[0] === '-V')) {
        io.stdout.write(`gleaner ${version()}\n`);
        return EXIT.ok;
    }
    if (words.length === 0 && wantsHelp) {
        io.stdout.write(mainHelp());
        return EXIT.ok;
    }
    if (words[0] === 'account') {
        try {
            return await runAccount(argv.slice(1), {
                env: io.env,
                out: (s) => io.stdout.write(s),
                err,
                fetch: io.fetch,
            });
        }
        catch (e) {
            if (e instanceof GleanerError) {
                err(describeError(e));
                return exitCodeOf(e);
            }
            err(`gleaner: ${e.message.split('\n')[0]}`);
            err('Run "gleaner account --help" for its commands and flags.');
            return EXIT.usage;
        }
    }
    const cmd = findCommand(words);
    if (!cmd || words.length > cmd.path.length) {
        const group = words[0] && isGroup(words[0]) ? words[0] : undefined;
        if (group && words.length === 1 && wantsHelp) {
            io.stdout.write(groupHelp(group));
            return EXIT.ok;
        }
        err(`gleaner: unknown command "${words.join(' ') || argv[0]}"`);
        err(group ? groupHelp(group) : 'Run "gleaner --help" for the list of commands.');
        return EXIT.usage;
    }
    let values;
    try {
        const options = { ...COMMON_OPTIONS, ...cmd.options };
        const parsed = parseArgs({
            args: argv.slice(cmd.path.length),
            options: Object.fromEntries(Object.entries(options).map(([k, o]) => [
                k,
                { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) },
            ])),
            strict: true,
            allowPositionals: false,
        });
        values = parsed.values;
    }
    catch (e) {
        err(`gleaner: ${e.message.split('\n')[0]}`);
        err(`Run "gleaner ${cmd.path.join(' ')} --help" for its flags.`);
        return EXIT.usage;
    }
    if (values.help === true) {
        io.stdout.write(commandHelp(cmd));
        return EXIT.ok;
    }
    try {
        return await execute(cmd, values, io);
    }
    catch (e) {
        if (e instanceof UsageError) {
            err(`gleaner: ${e.message}`);
            return EXIT.usage;
        }
        throw e;
    }
}
function isGroup(w) {
    return COMMANDS.some((c) => c.path.length > 1 && c.path[0] === w);
}
/** Fills in the server's defaults so that budgets are computed on what the server will use. */
function withDefaults(id, body) {
    const out = { ...body };
    for (const [k, f] of Object.entries(ENDPOINTS[id].fields))
        if (f.default !== undefined && !(k in out))
            out[k] = f.default;
    return out;
}
async function execute(cmd, v, io) {
    const err = errLine(io);
    const quiet = v.quiet === true;
    const verbose = v.verbose === true && !quiet;
    const notice = (s) => {
        if (!quiet)
            err(`gleaner: ${s}`);
    };
    // ---- the request plan ----
    const stdin = io.stdin ?? (() => readFileSync(0, 'utf8'));
    const body = withDefaults(cmd.endpoint, cmd.build(v, stdin));
    const out = typeof v.out === 'string' ? v.out : undefined;
    const formatFlag = typeof v.format === 'string' ? v.format : undefined;
    if (formatFlag !== undefined && !FORMATS.includes(formatFlag))
        throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got ${JSON.stringify(formatFlag)})`);
    const format = formatFlag ?? (out ? formatOfPath(out) : undefined) ?? 'json';
    const maxCredits = typeof v['max-credits'] === 'string' ? Number(v['max-credits']) : undefined;
    if (maxCredits !== undefined && !(Number.isFinite(maxCredits) && maxCredits >= 0))
        throw new UsageError(`--max-credits must be a number of credits >= 0 (got ${v['max-credits']})`);
    const maxItems = int(v, 'max-items', 1, Number.MAX_SAFE_INTEGER);
    const retries = int(v, 'retries', 0, 20);
    const timeout = int(v, 'timeout', 1, 3600);
    const config = resolveConfig({
        config: typeof v.config === 'string' ? v.config : undefined,
        baseUrl: typeof v['base-url'] === 'string' ? v['base-url'] : undefined,
    }, io.env);
    for (const w of config.warnings)
        notice(w);
    const targetList = cmd.targetField ? body[cmd.targetField] : [];
    const totalPages = cmd.paging === 'targets' ? Math.ceil(targetList.length / (cmd.batchSize ?? 1)) : undefined;
    if (v['dry-run'] === true) {
        const first = cmd.paging === 'targets' && cmd.targetField
            ? { ...body, [cmd.targetField]: targetList.slice(0, cmd.batchSize) }
            : body;
        io.stdout.write(`${JSON.stringify({
            method: 'POST',
            url: `${config.baseUrl.replace(/\/+$/, '')}/api/v1${ENDPOINTS[cmd.endpoint].path}`,
            body: first,
            requests: totalPages ?? (v.all === true ? 'until has_more is false' : 1),
            worst_case_credits_first_request: fromMilli(worstCaseMilli(cmd.endpoint, first)),
        }, null, 2)}\n`);
        return EXIT.ok;
    }
    if (!config.apiKey) {
        err('gleaner: no API key: set GLEANER_API_KEY, or "apiKey" in ~/.config/gleaner/config.json (or --config)');
        return EXIT.auth;
    }
    if (verbose)
        err(`gleaner: server ${config.baseUrl}; API key from ${config.apiKeySource}${config.configPath ? `; config ${config.configPath}` : ''}`);
    // ---- the client ----
    const progress = new Progress(io.stderr, !quiet && io.stderr.isTTY === true && (v.all === true || (totalPages ?? 1) > 1));
    const baseFetch = io.fetch ?? globalThis.fetch;
    const fetchLogged = async (input, init) => {
        const res = await baseFetch(input, init);
        if (verbose) {
            progress.clear();
            const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
            err(`gleaner: POST ${new URL(url).pathname} ${init?.body ?? ''} -> ${res.status}` +
                `${res.headers.get('x-credits-used') ? `, ${res.headers.get('x-credits-used')} credits` : ''}` +
                `${res.headers.get('idempotent-replayed') ? ' (replayed)' : ''}` +
                `, ${res.headers.get('x-request-id') ?? 'no request id'}`);
        }
        return res;
    };
    const client = new Gleaner({
        apiKey: config.apiKey,
        baseUrl: config.baseUrl,
        fetch: fetchLogged,
        retries: retries ?? config.retries,
        timeoutMs: (timeout ?? config.timeoutSeconds ?? 120) * 1000,
        onRetry: (r) => {
            progress.clear();
            notice(`${codeAndStatus(r.error)}: ${r.error.message}; retrying in ${(r.delayMs / 1000).toFixed(1)} s (attempt ${r.attempt + 1})`);
        },
    });
    // ---- budget and page-size control before each request ----
    let budgetStop;
    const beforePage = (s) => {
        let patch;
        if (maxItems !== undefined && cmd.paging === 'cursor') {
            const left = maxItems - s.items;
            if (left <= 0)
                return false;
            if (Number(s.body.limit) > left)
                patch = { limit: left };
        }
        if (maxCredits !== undefined) {
            const budget = toMilli(maxCredits) - toMilli(s.creditsUsed);
            const fit = fitToBudget(cmd.endpoint, { ...s.body, ...patch }, budget);
            if (!fit.ok) {
                budgetStop = `stopped by --max-credits: the next request could cost up to ${fmtCredits(fromMilli(fit.worstMilli))} credits and ${fmtCredits(fromMilli(Math.max(0, budget)))} of ${fmtCredits(maxCredits)} are left`;
                return false;
            }
            if (fit.patch) {
                patch = { ...patch, ...fit.patch };
                if (cmd.paging === 'targets') {
                    progress.clear();
                    notice(`--max-credits: ${Object.entries(fit.patch)
                        .map(([k, x]) => `${k} lowered to ${x}`)
                        .join(', ')} to fit the budget`);
                }
            }
        }
        return patch;
    };
    const paging = { beforePage: beforePage, signal: io.signal };
    const cursorOptions = { ...paging, maxPages: v.all === true ? undefined : 1 };
    const pager = (cmd.paging === 'targets'
        ? client.iterateTargets(cmd.endpoint, body, cmd.targetField, cmd.batchSize ?? 1, paging)
        : cmd.endpoint === 'clipnet.posts'
            ? client.iterateClipnetPosts(body, cursorOptions)
            : cmd.endpoint === 'blipnet.posts'
                ? client.iterateBlipnetPosts(body, cursorOptions)
                : client.iteratePicnetPosts(body, cursorOptions));
    // ---- output ----
    let stream = io.stdout;
    if (out) {
        stream = createWriteStream(out);
        await new Promise((resolve, reject) => {
            stream.once('open', () => resolve());
            stream.once('error', (e) => reject(new UsageError(`cannot write ${out}: ${e.message}`)));
        });
    }
    const writer = createWriter(format, stream, out !== undefined);
    let credits = 0;
    let remaining;
    let pages = 0;
    let last;
    let failure;
    try {
        for await (const page of pager.pages()) {
            pages++;
            last = page;
            credits = addCredits(credits, page.creditsUsed);
            remaining = page.creditsRemaining;
            for (const item of itemsOf(cmd.endpoint, page.data))
                writer.write(item);
            for (const w of page.warnings) {
                progress.clear();
                notice(`warning: ${w.target}: ${w.code}: ${w.message}`);
            }
            if (page.truncated) {
                progress.clear();
                notice('the balance covered only part of this page (metadata.truncated); stopping');
            }
            progress.update({ pages, totalPages, items: writer.count, credits });
            if (page.truncated)
                break;
        }
    }
    catch (e) {
        failure = e;
    }
    finally {
        progress.clear();
        await writer.close();
    }
    if (failure !== undefined) {
        if (failure instanceof GleanerError) {
            err(describeError(failure));
            if (writer.count > 0 && !quiet)
                err(`gleaner: ${writer.count} items from ${pages} pages were written before the error (${fmtCredits(credits)} credits)`);
            return exitCodeOf(failure);
        }
        if (io.signal?.aborted) {
            notice(`interrupted; ${writer.count} items written`);
            return EXIT.interrupted;
        }
        throw failure;
    }
    if (budgetStop)
        notice(budgetStop);
    if (cmd.paging === 'cursor' && last) {
        const d = last.data;
        if (d.has_more && d.cursor)
            notice(`more posts are available: continue with --cursor ${d.cursor}${v.all === true ? '' : ' (or --all)'}`);
    }
    if (!quiet)
        err(`gleaner: ${writer.count} items, ${pages} ${pages === 1 ? 'request' : 'requests'}, ${fmtCredits(credits)} credits used` +
            `${remaining !== undefined ? `, ${fmtCredits(remaining)} remaining` : ''}${out ? `; written to ${out}` : ''}`);
    return EXIT.ok;
}
