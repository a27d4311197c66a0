import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Integration suites start emulators, workers and ffmpeg: files run one at a time on a 2-core machine.
    fileParallelism: false,
    env: { POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_DEV: 'false' },
  },
});
