// What the wrk-driven benchmarks share: the summary line of their Lua `done` hook, and the tools
// they need on the machine.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';

/** the JSON line a wrk Lua `done` hook printed last, parsed; throws with wrk's output when absent */
export function wrkSummary(r: SpawnSyncReturns<string>): Record<string, number> {
  const line = r.stdout
    ?.split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (r.status !== 0 || !line) throw new Error(`wrk failed: ${r.stderr || r.stdout}`);
  return JSON.parse(line) as Record<string, number>;
}

/** fails with the Debian package to install when wrk or taskset is missing */
export function requireLoadTools(): void {
  for (const [tool, pkg] of [
    ['wrk', 'wrk'],
    ['taskset', 'util-linux'],
  ] as const)
    if (spawnSync(tool, ['--version']).error)
      throw new Error(`${tool} is missing: apt-get install -y ${pkg}`);
}
