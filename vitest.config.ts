import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'suites', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**'], sequence: { groupOrder: 0 } } },
      // The built service as users run it (`npm start`): after every other suite, one file at a time, so their
      // latency and deadline assertions never share the machine with another suite's browser.
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
