/**
 * The local runtime names each function's worker thread after its function (`fn-<name>`), so a profile or the bench
 * (infra/scripts/bench/threads.ts) can tell a function's CPU from the runtime's.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FunctionHost } from '#infra/local/function-host.ts';
import { createLog } from '#infra/local/log.ts';
import { REPO_ROOT } from '#infra/local/runtime.ts';

const dir = mkdtempSync(join(tmpdir(), 'vidbot-thread-names-'));
const host = new FunctionHost(
  'sleeper',
  { entry: 'test/fixtures/local/sleeper.ts', trigger: 'schedule', everyMinutes: 5, memoryMb: 128, timeoutSeconds: 30 },
  { TMPDIR: dir },
  { root: REPO_ROOT, concurrency: 1, log: createLog('silent'), functionPrefix: 'vidbot' },
);
afterAll(async () => {
  await host.stop();
  await rm(dir, { recursive: true, force: true });
});

const threadNames = () =>
  readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      return [readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()];
    } catch {
      return [];
    }
  });

describe("a function's worker thread", () => {
  it("is named after its function; the runtime's main thread keeps its name", async () => {
    expect(threadNames()).not.toContain('fn-sleeper');
    expect(await host.invoke({ ms: 0 })).toEqual({ slept: 0 });
    const names = threadNames();
    expect(names).toContain('fn-sleeper');
    expect(readFileSync('/proc/self/comm', 'utf8').trim()).not.toBe('fn-sleeper');
  });
});
