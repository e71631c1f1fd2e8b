#!/usr/bin/env node
// The `gleaner` command: runs the compiled CLI (dist/, built by `npm run build:clients` and
// committed, so that a checkout runs it without TypeScript, even after `npm ci --omit=dev`).
await import('../dist/main.js');
