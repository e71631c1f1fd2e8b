// Where a process's CPU went, from a V8 .cpuprofile (`node --cpu-prof`; for the HTTP benchmark's
// servers: BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>" npm run bench -- enrichment-http).
//   npx tsx scripts/cpu-profile.ts <file.cpuprofile>              the busiest files per second of the
//                                                                 run, to find the measured window
//   npx tsx scripts/cpu-profile.ts <file.cpuprofile> <from> <to>  over seconds [from, to): the share
//                                                                 of samples per file and per function
//                                                                 (self time), and per function
//                                                                 (inclusive: time in it or in what it
//                                                                 called)
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, fromArg, toArg] = process.argv.slice(2);
if (!file)
  throw new Error('usage: npx tsx scripts/cpu-profile.ts <file.cpuprofile> [from-seconds to-seconds]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** a frame's file, shortened to the project's path or the package's name */
const fileOf = (n: ProfileNode): string => {
  const url = n.callFrame.url.replace(/^file:\/\//, '');
  if (!url) return `(${n.callFrame.functionName || 'native'})`;
  const pkg = /node_modules\/(.*)$/.exec(url);
  if (pkg) return `node_modules/${pkg[1]}`;
  const own = /\/(dist\/)?(src|scripts|bench)\/(.*)$/.exec(url);
  return own ? `${own[2]}/${own[3]}` : url;
};
const frameOf = (n: ProfileNode): string =>
  `${n.callFrame.functionName || '(anonymous)'} ${fileOf(n)}:${n.callFrame.lineNumber + 1}`;

const pct = (v: number, total: number) => ((100 * v) / total).toFixed(1).padStart(5);
const top = (m: Map<string, number>, total: number, k: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, v]) => `${pct(v, total)}  ${name.slice(0, 140)}`)
    .join('\n');

let t = 0;
if (fromArg === undefined) {
  const perSecond = new Map<number, Map<string, number>>();
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const second = Math.floor(t / 1e6);
    const m = perSecond.get(second) ?? new Map<string, number>();
    const f = fileOf(byId.get(id)!).split('/').slice(0, 2).join('/');
    m.set(f, (m.get(f) ?? 0) + (profile.timeDeltas[i] ?? 0));
    perSecond.set(second, m);
  });
  for (const [second, m] of perSecond) {
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    const busiest = [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([f, v]) => `${f.slice(0, 60)} ${pct(v, total).trim()}%`);
    console.log(`${String(second).padStart(4)} s  ${busiest.join(', ')}`);
  }
} else {
  const from = Number(fromArg) * 1e6;
  const to = Number(toArg ?? Number.POSITIVE_INFINITY) * 1e6;
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const d = profile.timeDeltas[i] ?? 0;
    t += d;
    if (t < from || t >= to) return;
    self.set(id, (self.get(id) ?? 0) + d);
    total += d;
  });
  const byFile = new Map<string, number>();
  const selfByFrame = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, v] of self) {
    const f = fileOf(byId.get(id)!);
    byFile.set(f, (byFile.get(f) ?? 0) + v);
    const own = frameOf(byId.get(id)!);
    selfByFrame.set(own, (selfByFrame.get(own) ?? 0) + v);
    // each sample counts once for every distinct frame on its stack (its own frame first)
    const seen = new Set<string>([own]);
    inclusive.set(own, (inclusive.get(own) ?? 0) + v);
    for (let cur = parent.get(id); cur !== undefined; cur = parent.get(cur)) {
      const frame = frameOf(byId.get(cur)!);
      if (seen.has(frame)) continue;
      seen.add(frame);
      inclusive.set(frame, (inclusive.get(frame) ?? 0) + v);
    }
  }
  console.log(`${(total / 1e6).toFixed(2)} s of samples in [${fromArg}, ${toArg ?? 'end'}) s; % of them`);
  console.log(`\nself time by file\n${top(byFile, total, 25)}`);
  console.log(`\nself time by function\n${top(selfByFrame, total, 30)}`);
  console.log(`\ninclusive time by function\n${top(inclusive, total, 60)}`);
}
