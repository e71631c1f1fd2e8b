// Help texts, generated from the command table so that every flag and example is listed.
import { COMMANDS, COMMON_OPTIONS } from './commands.js';
export const EXIT_CODES_HELP = `Exit codes:
  0  success (also when --max-credits stopped a pull early; a notice says so)
  1  API or network error (the code and message are printed)
  2  usage error (unknown command or flag, bad value)
  3  payment required: the balance does not cover the request (402)
  4  authentication: no API key, or the key is invalid or revoked (401)
  130 interrupted (Ctrl-C); what was fetched so far is written`;
const ENV_HELP = `Environment:
  GLEANER_API_KEY   the API key (or "apiKey" in the config file); never printed
  GLEANER_BASE_URL  the server (or "baseUrl" in the config file; default http://127.0.0.1:8080)`;
function optionLines(options) {
    const rows = Object.entries(options).map(([name, o]) => {
        const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.arg ? ` ${o.arg}` : ''}`;
        return [flag, `${o.help}${o.multiple ? '' : ''}`];
    });
    const w = Math.min(30, Math.max(...rows.map(([f]) => f.length)));
    return rows.map(([f, h]) => `  ${f.padEnd(w)}  ${h}`);
}
export function commandHelp(c) {
    return [
        `Usage: gleaner ${c.path.join(' ')} [options]`,
        '',
        `${c.summary[0].toUpperCase()}${c.summary.slice(1)}.`,
        `Credits: ${c.cost}.`,
        '',
        'Options:',
        ...optionLines(c.options),
        '',
        'Output and connection:',
        ...optionLines(COMMON_OPTIONS),
        '',
        'Examples:',
        ...c.examples.map((e) => `  ${e}`),
        '',
    ].join('\n');
}
export function groupHelp(group) {
    const cmds = COMMANDS.filter((c) => c.path[0] === group);
    return [
        `Usage: gleaner ${group} <command> [options]`,
        '',
        'Commands:',
        ...cmds.map((c) => `  ${c.path.join(' ').padEnd(28)} ${c.summary}`),
        '',
        `Run "gleaner ${group} <command> --help" for its flags and examples.`,
        '',
    ].join('\n');
}
export function mainHelp() {
    return [
        'Usage: gleaner <command> [options]',
        '',
        'Fetch public content from clipnet, picnet, vidnet and blipnet, with optional enrichment, into JSON,',
        'JSON Lines or CSV; every call is billed in credits.',
        '',
        'Commands:',
        ...COMMANDS.map((c) => `  ${c.path.join(' ').padEnd(28)} ${c.summary}`),
        `  ${'account [usage|entries]'.padEnd(28)} your balance, usage by day and endpoint, ledger (free)`,
        '',
        'Examples:',
        '  gleaner clipnet posts --username rafatech --limit 50 --all --enrich sentiment,topics --format csv --out posts.csv',
        '  gleaner picnet comments --url https://www.picnet.com/p/CxD9PthspC3/ --url D0YhD-vOg2k',
        '  gleaner vidnet search --keyword "budget travel" --period week --sorting viewCount',
        '  gleaner blipnet search --keyword coffee --period week --sorting top',
        '  gleaner analyze --file texts.txt --enrich sentiment,intent --format jsonl',
        '',
        'Run "gleaner <command> --help" for its flags and examples (every command takes --format,',
        '--out, --max-credits, --dry-run, --base-url, --config, --retries, --timeout, -q, -v).',
        '',
        ENV_HELP,
        '',
        EXIT_CODES_HELP,
        '',
    ].join('\n');
}
