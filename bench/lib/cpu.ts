// CPU time of a process from /proc, for benchmarks that share a machine: user + system seconds
// (all its threads) tell how much of a core a server really had, whatever else ran beside it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** user + system CPU seconds of a process (all its threads) */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name (which may hold spaces) start at ") "
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
}
