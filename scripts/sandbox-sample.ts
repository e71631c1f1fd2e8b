// Prints real handles, ids, hashtags, channels, keywords and URLs from the sandbox world, for
// docs and quick starts. Builds the world first if it does not exist yet.
// Usage: npm run sandbox:sample [-- <world file>]
import { openSandbox, WORLD_VERSION } from '../src/sources/sandbox/index.js';
import { sampleWorld } from '../src/sources/sandbox/sample.js';

const sandbox = openSandbox(process.argv[2] ? { dbPath: process.argv[2] } : {});
try {
  console.log(`sandbox world v${WORLD_VERSION}, digest ${sandbox.digest()}\n`);
  console.log(sampleWorld(process.argv[2]));
} finally {
  sandbox.close();
}
