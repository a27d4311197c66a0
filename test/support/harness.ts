/**
 * Test harness: the whole local runtime (emulators, functions in workers, gateway, pollers) on random ports in a
 * temporary data dir; clients of its emulators sign with `app.runtime.credentials`. For end-to-end tests against
 * the real handlers or against fixtures:
 *
 *   const app = await startTestRuntime();
 *   const res = await fetch(`${app.baseUrl}/v1/bot/`, { method: 'POST', headers: app.authHeaders });
 *   await app.stop();
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalRuntime, type LocalRuntimeOptions, startLocalRuntime } from '#infra/local/runtime.ts';

export interface TestRuntime {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  baseUrl: string;
  /** The seeded dev tenant's API key. */
  apiKey: string;
  /** Its webhook signing secret (whsec_...). */
  webhookSecret: string;
  tenantId: string;
  /** `{ Authorization: 'Bearer <apiKey>' }` */
  authHeaders: Record<string, string>;
  dataDir: string;
  runtime: LocalRuntime;
  /** Stops everything; removes the data dir if the harness created it (unless keepDataDir). */
  stop(): Promise<void>;
}

/**
 * Unlike `npm start`, test runtimes do not throttle keys unless a test asks (`requestRate`): suites that poll
 * several videos at once would otherwise fail on the usage plan rather than on what they test. Authorised routes
 * still require the authorizer's usage-plan key.
 */
export interface TestRuntimeOptions extends LocalRuntimeOptions {
  /** Keep a harness-created data dir after stop (to restart on it). @default false */
  keepDataDir?: boolean;
}

export async function startTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const { keepDataDir = false, ...runtimeOptions } = options;
  const ownDir = !runtimeOptions.dataDir;
  const dataDir = runtimeOptions.dataDir ?? (await mkdtemp(join(tmpdir(), 'vidbot-test-')));
  const verbose = !!process.env.VIDBOT_TEST_LOGS;
  const runtime = await startLocalRuntime({
    // Emulator ports: free ones, remembered in the fresh data dir (a restart on it reuses them).
    port: 0,
    pollWaitSeconds: 1,
    logLevel: verbose ? 'debug' : 'error',
    functionLogLevel: verbose ? 'DEBUG' : 'ERROR',
    requestRate: false,
    // One file per function to import: no TypeScript compiled and resolved module by module on each cold start.
    bundledFunctions: true,
    ...runtimeOptions,
    dataDir,
  });
  const tenant = runtime.devTenant;
  return {
    baseUrl: runtime.url,
    apiKey: tenant?.apiKey ?? '',
    webhookSecret: tenant?.webhookSecret ?? '',
    tenantId: tenant?.tenantId ?? '',
    authHeaders: tenant ? { Authorization: `Bearer ${tenant.apiKey}` } : {},
    dataDir,
    runtime,
    async stop() {
      await runtime.stop();
      if (ownDir && !keepDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
