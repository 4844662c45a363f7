import { defineConfig } from 'vitest/config';

// `npm run test:real-model` (scripts/test/test-real-model.sh): the chat through a real model server;
// real models are slow on two cores, so the timeouts are minutes.
export default defineConfig({
  test: {
    include: ['test/real-model/**/*.test.ts'],
    globalSetup: ['test/helpers/models-setup.ts'],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 120_000,
  },
});
