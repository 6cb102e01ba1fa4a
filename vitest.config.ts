import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The report page's script is bundled by esbuild (tests/global-setup.ts): fresh for every run.
    globalSetup: ['tests/global-setup.ts'],
    // Bounds for a hung test, not speed targets: a test that runs the real CLI three times needs minutes on a
    // 2-core machine at load 15+, and no verdict in the suite depends on how fast it gets there.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Sandbox tests are CPU-heavy and some measure limits: two files at a time on a 2-core machine.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
