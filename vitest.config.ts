import { defineConfig } from 'vitest/config';

/**
 * Three projects, each runnable alone (`npm run test:unit`, `test:integration`, `test:e2e`); `npm test` runs all.
 * - unit: pure code and handlers with mocked clients; no emulator, no ffmpeg render, no runtime.
 * - integration: one part against real collaborators: jobs on dynalite, the render engine and media pipeline
 *   with ffmpeg, the CDK stack synthesised, the local runtime's pieces.
 * - e2e: the whole local service through HTTP (reliability suites included).
 */
const UNIT = [
  'test/api/**/*.test.ts',
  'test/net/**/*.test.ts',
  'test/webhooks/**/*.test.ts',
  'test/jobs/pending-work.test.ts',
  'test/jobs/queue-consumer.test.ts',
  'test/jobs/workdirs.test.ts',
  'test/local/units.test.ts',
  'test/local/fair-buffer.test.ts',
  'test/local/sigv4.test.ts',
  'test/render/speech.test.ts',
  'test/render/layout.test.ts',
  'test/render/look-cache.test.ts',
  'test/render/compositor.test.ts',
];
const E2E = ['test/e2e/**/*.test.ts', 'test/reliability/**/*.test.ts', 'test/attacks/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Integration suites start emulators, workers and ffmpeg: files run one at a time on a 2-core machine.
    fileParallelism: false,
    // Metrics of in-process handlers would only be noise here; the local runtime turns them on for its functions.
    env: { POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_DEV: 'false', POWERTOOLS_METRICS_DISABLED: 'true' },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...UNIT, ...E2E] } },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
