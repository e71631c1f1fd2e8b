import type { SpawnSyncReturns } from 'node:child_process';

/** the JSON line a wrk Lua `done` hook printed last, parsed; throws with wrk's output when absent */
export function wrkSummary(r: SpawnSyncReturns<string>): Record<string, number> {
  const line = r.stdout
    ?.split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (r.status !== 0 || !line) throw new Error(`wrk failed: ${r.stderr || r.stdout}`);
  return JSON.parse(line) as Record<string, number>;
}
