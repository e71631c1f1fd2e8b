// Builds the sandbox world file (data/sandbox-v<N>.db, or the path given as the first argument),
// replacing any existing one, and prints how long it took and what it holds.
import { join } from 'node:path';
import { DATA_DIR } from '../src/paths.js';
import { buildWorld, WORLD_VERSION } from '../src/sources/sandbox/build.js';

const path = process.argv[2] ?? join(DATA_DIR, `sandbox-v${WORLD_VERSION}.db`);
const result = buildWorld(path);
console.log(
  `sandbox world v${WORLD_VERSION} built in ${(result.milliseconds / 1000).toFixed(2)} s → ${result.path}`,
);
for (const [k, v] of Object.entries(result.counts)) console.log(`  ${k.padEnd(16)} ${v}`);
console.log(`  digest           ${result.digest}`);
