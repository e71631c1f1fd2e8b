// BENCH_BASELINE=<git revision>[,<revision>…]: a checkout of each revision beside this one (a
// temporary git worktree sharing this checkout's node_modules), so that a benchmark can run the code
// before a change (or before several) and after it in the same rounds of one run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../src/paths.js';

/** the revisions to run beside this checkout, in the order given */
export const BASELINES: readonly string[] = (process.env.BENCH_BASELINE ?? '')
  .split(',')
  .map((r) => r.trim())
  .filter((r) => r !== '');

export interface Checkout {
  rev: string;
  root: string;
  remove(): void;
}

export function baselineCheckout(rev: string): Checkout {
  const root = mkdtempSync(join(tmpdir(), 'gleaner-baseline-'));
  rmSync(root, { recursive: true });
  execFileSync('git', ['worktree', 'add', '--detach', root, rev], { cwd: ROOT, stdio: 'pipe' });
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  return {
    rev,
    root,
    remove: () => execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT, stdio: 'pipe' }),
  };
}
