// Builds the server into dist/ (TypeScript → JavaScript) and records a hash of what it was built
// from, so that `npm start` rebuilds only when the sources changed.
//   node scripts/build.mjs            type-checks and builds (npm run build)
//   node scripts/build.mjs --if-stale builds without the type check, only when the sources changed
//                                     since the last build (what `npm start` runs first)
// Plain JavaScript on purpose: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(ROOT, 'dist/.build-hash');
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function files(path) {
  const abs = join(ROOT, path);
  if (!existsSync(abs)) return [];
  if (!abs.endsWith('.json') && !abs.endsWith('.ts')) {
    return readdirSync(abs, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() || e.name.endsWith('.ts') ? files(join(path, e.name)) : []))
      .sort();
  }
  return [path];
}

/** sha-256 over the path and content of every file the build reads */
export function sourceHash() {
  const h = createHash('sha256');
  for (const f of INPUTS.flatMap(files))
    h.update(`${f}\0`)
      .update(readFileSync(join(ROOT, f)))
      .update('\0');
  return h.digest('hex');
}

export function isStale() {
  if (!existsSync(join(ROOT, 'dist/src/main.js')) || !existsSync(STAMP)) return true;
  return readFileSync(STAMP, 'utf8').trim() !== sourceHash();
}

export function build({ typeCheck }) {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  if (!existsSync(tsc)) {
    process.stderr.write(
      'gleaner: dist/ is missing or older than src/, and TypeScript is not installed to build it: run `npm ci`\n',
    );
    process.exit(1);
  }
  const hash = sourceHash();
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const args = [tsc, '-p', 'tsconfig.build.json', ...(typeCheck ? [] : ['--noCheck'])];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  writeFileSync(STAMP, `${hash}\n`);
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  if (!process.argv.includes('--if-stale')) build({ typeCheck: true });
  else if (isStale()) {
    process.stderr.write('gleaner: sources changed since the last build; building dist/ …\n');
    build({ typeCheck: false });
  }
}
