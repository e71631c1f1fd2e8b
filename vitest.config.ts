import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // the CLI imports the client by its package name; tests run both from their sources
    alias: { '@gleaner/client': fileURLToPath(new URL('./packages/client/src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts', 'packages/**/*.test.ts'],
    pool: 'forks',
    // starts an embedded PostgreSQL when none is there; says when Redis is missing
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
