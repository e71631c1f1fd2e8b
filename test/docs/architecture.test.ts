// docs/architecture.md lists src/ two levels down; this holds the list to the tree, so the
// document a newcomer reads first never describes files that moved or misses new ones.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../../src/paths.js';

const SRC = join(ROOT, 'src');

/** entries of a folder as the document writes them: a folder with a trailing / */
const entries = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();

/** the listed tree: each top-level entry of src/, and for a folder the entries it contains */
function documented(): Map<string, string[] | null> {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const block = /```text\nsrc\/\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/architecture.md has no ```text block starting with src/');
  const listed = new Map<string, string[] | null>();
  for (const line of block.split('\n').filter((l) => l.trim() !== '')) {
    const m = /^ {2}(\S+)\s+(.*)$/.exec(line);
    if (!m) throw new Error(`not a line of the tree: ${JSON.stringify(line)}`);
    const [, name, rest] = m as unknown as [string, string, string];
    listed.set(name, name.endsWith('/') ? rest.split(',').map((s) => s.trim()) : null);
  }
  return listed;
}

test('docs/architecture.md lists every top-level entry of src/, and nothing else', () => {
  expect([...documented().keys()].sort()).toEqual(entries(SRC));
});

test('docs/architecture.md lists what each folder of src/ contains', () => {
  for (const [name, children] of documented()) {
    if (children === null) continue;
    expect({ folder: name, children: [...children].sort() }).toEqual({
      folder: name,
      children: entries(join(SRC, name)),
    });
  }
});
