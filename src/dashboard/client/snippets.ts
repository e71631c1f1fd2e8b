// The playground's request as a curl command, a `gleaner` command line and SDK code. Pure: the
// browser module and the tests use the same functions.

export interface CliField {
  flag: string;
  list?: 'repeat' | 'comma' | 'topics';
  bool?: true;
}

export type Body = Record<string, unknown>;

/** single-quoted for a POSIX shell */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** the API key is never written out: the snippets read it from GLEANER_API_KEY */
export function curl(origin: string, path: string, body: Body): string {
  return [
    `curl -sS -X POST ${shellQuote(origin + path)}`,
    `  -H "X-API-Key: $GLEANER_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n');
}

export function cliLine(command: string, fields: Record<string, CliField>, body: Body): string {
  const words = ['gleaner', ...command.split(' ')];
  for (const [name, value] of Object.entries(body)) {
    const f = fields[name] ?? { flag: name.replace(/_/g, '-') };
    if (value === undefined || value === null) continue;
    if (f.bool) {
      if (value === true) words.push(`--${f.flag}`);
      continue;
    }
    if (f.list === 'topics') {
      const topic = (value as { topic?: string[] }).topic;
      if (topic?.length) words.push(`--${f.flag}`, shellQuote(topic.join(',')));
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      if (f.list === 'comma') words.push(`--${f.flag}`, shellQuote(value.join(',')));
      else for (const v of value) words.push(`--${f.flag}`, shellQuote(String(v)));
      continue;
    }
    words.push(`--${f.flag}`, shellQuote(String(value)));
  }
  return words.join(' ');
}

export function sdkCode(method: string, body: Body, origin: string): string {
  return [
    "import { Gleaner } from '@gleaner/client';",
    '',
    `const gleaner = new Gleaner({ apiKey: process.env.GLEANER_API_KEY, baseUrl: ${JSON.stringify(origin)} });`,
    `const result = await gleaner.${method}(${JSON.stringify(body, null, 2)});`,
    'console.log(result.data, result.creditsUsed, result.creditsRemaining);',
  ].join('\n');
}

/** a JSON value as a Python literal (true/false/null become True/False/None) */
export function pyLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number' || typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pyLiteral).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${JSON.stringify(k)}: ${pyLiteral(x)}`)
    .join(', ')}}`;
}

/** the same call with the Python client (clients/python): its methods are the SDK's in
 *  snake_case, the body's fields keyword arguments */
export function pythonCode(method: string, body: Body, origin: string): string {
  const name = method.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const args = Object.entries(body)
    .map(([k, v]) => `${k}=${pyLiteral(v)}`)
    .join(', ');
  return [
    'from gleaner import Gleaner',
    '',
    `gleaner = Gleaner(base_url=${JSON.stringify(origin)})  # the key from GLEANER_API_KEY`,
    `result = gleaner.${name}(${args})`,
    'print(result["data"], result["credits_used"], result["credits_remaining"])',
  ].join('\n');
}
