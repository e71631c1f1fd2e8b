// `npm start`: builds dist/ when the sources changed since the last build (a few seconds, without
// the type check that `npm run verify` does), then runs the server in this same process, so that
// signals sent to it (SIGTERM, Ctrl-C) reach the server itself.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, isStale, ROOT } from './build.mjs';

if (isStale()) {
  process.stderr.write('gleaner: sources changed since the last build; building dist/ …\n');
  build({ typeCheck: false });
}
await import(pathToFileURL(join(ROOT, 'dist/src/main.js')).href);
