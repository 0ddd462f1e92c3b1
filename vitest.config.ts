import { defineConfig } from 'vitest/config';

// Unit and integration suites run under plain Node: the core never needs Electron.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
