// Generated figures inside hand-written docs: a section between
//   <!-- begin: NAME --> … <!-- end: NAME -->
// is replaced by the program that measures it; the prose around it is left alone.
import { readFileSync, writeFileSync } from 'node:fs';

export function writeDocSection(path: string, name: string, text: string): void {
  const begin = `<!-- begin: ${name} (generated, do not edit by hand) -->`;
  const end = `<!-- end: ${name} -->`;
  const doc = readFileSync(path, 'utf8');
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${path} has no section "${name}" (${begin} … ${end})`);
  writeFileSync(path, `${doc.slice(0, from + begin.length)}\n${text.trim()}\n${doc.slice(to)}`);
}
