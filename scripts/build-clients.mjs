// Builds the npm packages packages/client (@gleaner/client) and packages/cli (@gleaner/cli) into
// their dist/ folders: ESM JavaScript and .d.ts types. dist/ is committed, so that the `gleaner`
// bin of a checkout runs without a build step, even after `npm ci --omit=dev` (no TypeScript
// there); see docs/decisions/0006-cli-distribution.md.
//   node scripts/build-clients.mjs [client|cli]  regenerates the contract files (gen-clients.ts),
//                                                compiles, and updates dist/ where it differs
//                                                (each package's `prepack` runs this)
//   node scripts/build-clients.mjs --check       compiles into a temporary folder and fails when
//                                                a committed dist/ differs (npm run check:clients)
// A file whose content is unchanged is not rewritten, so a build with nothing to change leaves
// dist/ untouched while something runs from it.
// Plain JavaScript on purpose: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** in dependency order: the CLI compiles against the client's dist/ types */
const PACKAGES = ['client', 'cli'];

// progress goes to stderr: `npm pack --json` runs this as `prepack` and prints its JSON on stdout
function run(args, what) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 2, 'inherit'] });
  if (r.status !== 0) {
    process.stderr.write(`build-clients: ${what} failed\n`);
    process.exit(r.status ?? 1);
  }
}

function requireTool(path, what) {
  const abs = join(ROOT, 'node_modules', path);
  if (!existsSync(abs)) {
    process.stderr.write(`build-clients: ${what} is not installed: run \`npm ci\` in ${ROOT}\n`);
    process.exit(1);
  }
  return abs;
}

/** relative path → content of every file under dir */
function tree(dir, base = dir) {
  const out = new Map();
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) for (const [k, v] of tree(p, base)) out.set(k, v);
    else out.set(relative(base, p), readFileSync(p));
  }
  return out;
}

function compile(pkg, outDir) {
  const tsc = requireTool('typescript/bin/tsc', 'TypeScript');
  run(
    [tsc, '-p', join(ROOT, 'packages', pkg, 'tsconfig.json'), '--outDir', outDir],
    `tsc of packages/${pkg}`,
  );
}

const check = process.argv.includes('--check');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const p of only)
  if (!PACKAGES.includes(p)) {
    process.stderr.write(`build-clients: unknown package ${p} (client or cli)\n`);
    process.exit(2);
  }
const packages = only.length ? PACKAGES.filter((p) => only.includes(p)) : PACKAGES;

if (!check) run([requireTool('tsx/dist/cli.mjs', 'tsx'), 'scripts/gen-clients.ts'], 'gen-clients');

const scratch = mkdtempSync(join(tmpdir(), 'gleaner-build-'));
let drift = false;
try {
  for (const pkg of packages) {
    const fresh = join(scratch, pkg);
    compile(pkg, fresh);
    const dist = join(ROOT, 'packages', pkg, 'dist');
    const built = tree(fresh);
    const committed = tree(dist);
    const changed = [...built].filter(([f, c]) => !committed.get(f)?.equals(c)).map(([f]) => f);
    const extra = [...committed.keys()].filter((f) => !built.has(f));
    if (changed.length === 0 && extra.length === 0) continue;
    if (check) {
      drift = true;
      for (const f of [...changed, ...extra])
        process.stderr.write(`packages/${pkg}/dist/${f} differs from its sources\n`);
      continue;
    }
    for (const f of changed) {
      mkdirSync(dirname(join(dist, f)), { recursive: true });
      writeFileSync(join(dist, f), built.get(f));
    }
    for (const f of extra) rmSync(join(dist, f));
    process.stderr.write(`packages/${pkg}/dist: ${changed.length} written, ${extra.length} removed\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (drift) {
  process.stderr.write('run `npm run build:clients` and commit packages/*/dist\n');
  process.exit(1);
}
