// The playground's "copy as" snippets: the `gleaner` command line it writes for a request, read
// back by the CLI's own parser, gives the same request body, for every endpoint; and the worst
// case shown before sending is the CLI's --max-credits figure.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { worstCaseMilli } from '../../packages/cli/src/budget.js';
import { COMMON_OPTIONS, findCommand } from '../../packages/cli/src/commands.js';
import { ENDPOINTS } from '../../src/contract/endpoints.js';
import { worstCase } from '../../src/dashboard/client/cost.js';
import { cliLine, curl, pyLiteral, pythonCode, shellQuote } from '../../src/dashboard/client/snippets.js';
import { buildCatalog } from '../../src/services/catalog.js';

/** POSIX shell words of a line quoted by shellQuote */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line))
    out.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return out;
}

const catalog = buildCatalog();

describe('copy as a gleaner command line', () => {
  it.each(ENDPOINTS.map((e) => [e.id, e] as const))('%s: the CLI reads back the same body', (id, e) => {
    const entry = catalog.endpoints.find((x) => x.id === id)!;
    const body = e.example as Record<string, unknown>;
    const line = cliLine(entry.cli.command, entry.cli.fields, body);
    const argv = words(line).slice(1);
    const cmd = findCommand(argv)!;
    expect(cmd?.endpoint, line).toBe(id);
    const options = { ...COMMON_OPTIONS, ...cmd.options };
    const { values } = parseArgs({
      args: argv.slice(cmd.path.length),
      options: Object.fromEntries(
        Object.entries(options).map(([k, o]) => [
          k,
          { type: o.type, ...(o.multiple ? { multiple: true } : {}) },
        ]),
      ),
      strict: true,
      allowPositionals: false,
    });
    expect(
      cmd.build(values as never, () => ''),
      line,
    ).toEqual(body);
  });

  it('quotes what a shell would split or expand, and never writes the key', () => {
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    const c = curl('http://127.0.0.1:8080', '/api/v1/ml/analyze', { texts: ["don't"] });
    expect(c).toContain('$GLEANER_API_KEY');
    expect(words(c.replace(/\\\n/g, ' ')).at(-1)).toBe(`{"texts":["don't"]}`);
  });
});

describe('worst-case cost in the playground', () => {
  it.each(ENDPOINTS.map((e) => [e.id, e] as const))('%s: the figure the CLI computes', (id, e) => {
    const body = e.example as Record<string, unknown>;
    expect(worstCase(catalog, id, body)).toBe(worstCaseMilli(id, body) / 1000);
  });
});

describe('copy as Python', () => {
  const generated = readFileSync(
    new URL('../../clients/python/src/gleaner/_generated.py', import.meta.url),
    'utf8',
  );
  it.each(ENDPOINTS.map((e) => [e.id, e] as const))(
    '%s: calls a method the Python client has, with the body as keyword arguments',
    (id, e) => {
      const entry = catalog.endpoints.find((x) => x.id === id)!;
      const code = pythonCode(entry.sdk, e.example as Record<string, unknown>, 'http://127.0.0.1:8080');
      const call = /^result = gleaner\.(\w+)\((.*)\)$/m.exec(code);
      expect(call, code).not.toBeNull();
      expect(generated).toMatch(new RegExp(`def ${call![1]}\\(`));
      for (const k of Object.keys(e.example)) expect(call![2]).toContain(`${k}=`);
    },
  );

  it('writes Python literals', () => {
    expect(pyLiteral({ a: [true, false, null], b: 'x"y', c: 1.5 })).toBe(
      '{"a": [True, False, None], "b": "x\\"y", "c": 1.5}',
    );
  });
});
