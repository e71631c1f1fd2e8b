import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/**/*.test.ts'],
    pool: 'forks',
    // starts an embedded PostgreSQL when none is there; says when Redis is missing
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
