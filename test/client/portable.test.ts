// The client runs in browsers and Node alike: it imports nothing from Node and carries no
// schema library at run time (the contract's types are imported as types only).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../src/paths.js';

const dir = join(ROOT, 'packages/client/src');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

describe('client portability', () => {
  it.each(files)('%s imports only type-only outside modules and no Node built-ins', (file) => {
    const src = readFileSync(join(dir, file), 'utf8');
    const imports = [...src.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)];
    for (const [, , typeOnly, from] of imports) {
      expect(from, file).not.toMatch(/^node:|^(fs|path|os|crypto|http|https|stream|util)$/);
      if (!from!.startsWith('./')) expect(typeOnly, `${file} imports ${from} at run time`).toBeTruthy();
    }
    expect(src).not.toMatch(/\brequire\(|process\.|Buffer\./);
  });
});
