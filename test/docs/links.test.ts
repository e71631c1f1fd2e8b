// Every link between the project's Markdown files points at a file that exists, relative to the
// file it is in, so that links work on a code host and in a checkout (an absolute /docs/… link
// would not).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../src/paths.js';

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.') || e.name === 'dist' || e.name === 'data')
      return [];
    const p = join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(p);
    return e.name.endsWith('.md') ? [p] : [];
  });
}

const files = markdownFiles(ROOT);

describe('Markdown links', () => {
  it('finds the README and the docs', () => {
    expect(files).toContain(join(ROOT, 'README.md'));
    expect(files.some((f) => f.includes(`${join(ROOT, 'docs')}/`))).toBe(true);
  });

  it.each(files.map((f) => [relative(ROOT, f), f]))('%s links only to files that exist', (_name, file) => {
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      if (target.startsWith('/')) {
        broken.push(`${target} (absolute: make it relative to the file)`);
        continue;
      }
      const path = join(dirname(file), decodeURIComponent(target.split('#')[0]!));
      if (!existsSync(path) || (target.endsWith('/') && !statSync(path).isDirectory())) broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});
