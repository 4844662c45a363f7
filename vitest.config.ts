import { defineConfig } from 'vitest/config';

// Integration suites share one Neo4j and one Redis; files run one at a time so they do not
// compete for the two cores, and each test uses its own key prefix.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    // Generates the small embedding models tests load (test-output/models).
    globalSetup: ['test/helpers/models-setup.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
