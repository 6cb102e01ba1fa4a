import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Sandbox tests are CPU-heavy and some measure limits: two files at a time on a 2-core machine.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
