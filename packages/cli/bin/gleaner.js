#!/usr/bin/env node
// Launcher of the `gleaner` CLI from a checkout (`npx gleaner …` after `npm ci`): registers tsx,
// a dependency of the checkout, and runs the TypeScript entry. No build step needed.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
