#!/usr/bin/env node
// Runs the compiled admin CLI (npm run build first), or use `npm run admin -- …` from a checkout.
import('../dist/src/cli/admin.js');
