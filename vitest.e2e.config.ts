import { defineConfig } from 'vitest/config';

// End-to-end suites: headless Chromium against the UI. One file at a time (two cores, one
// browser each); `npm run test:e2e` installs chromium and builds dist/ first.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    // The server under test loads the generated embedding models (test-output/models).
    globalSetup: ['test/helpers/models-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
