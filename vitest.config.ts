import { defineConfig } from 'vitest/config';

// Two projects, laid out like src/ (docs/testing.md): `unit` (test/unit/, pure logic, no
// service; files run in parallel) and `integration` (test/integration/, the app against the real
// Neo4j and Redis; fixtures in test/integration/helpers/). Integration suites share one Neo4j and
// one Redis, so their files run one at a time, after the unit files (they would compete for the
// two cores); each test uses its own key prefix.
export default defineConfig({
  test: {
    // Generates the small embedding models tests load (test-output/models); needs no service.
    globalSetup: ['test/helpers/models-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
