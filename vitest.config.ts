import { defineConfig } from 'vitest/config';

/**
 * Three projects by folder, each runnable alone (`npm run test:unit`, `test:integration`, `test:e2e`); `npm test` runs all.
 * - test/unit: pure code and handlers with mocked clients; no emulator, no ffmpeg render, no runtime.
 * - test/integration: one part against real collaborators: jobs on dynalite, the render engine and media pipeline
 *   with ffmpeg, the CDK stack synthesised, the local runtime's pieces.
 * - test/e2e: the whole local service through HTTP (reliability and attack suites included).
 * Helpers are in test/support, fixtures in test/fixtures/<area>.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Integration suites start emulators, workers and ffmpeg: files run one at a time on a 2-core machine.
    fileParallelism: false,
    // Metrics of in-process handlers would only be noise here; the local runtime turns them on for its functions.
    env: { POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_DEV: 'false', POWERTOOLS_METRICS_DISABLED: 'true' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      // A whole runtime renders behind each e2e test: two minutes unless a test says otherwise, so that a busy machine
      // slows them without failing them; each measured bound is its own assertion.
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 120_000 } },
      // The SDK and CLI (sdk/typescript): fake services only; their runs against the local runtime are in test/e2e.
      { extends: true, test: { name: 'sdk', include: ['sdk/typescript/test/**/*.test.ts'] } },
    ],
  },
});
