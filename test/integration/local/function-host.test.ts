/**
 * An execution environment's life in the local runtime: a timed-out one is out of service at once but its worker is
 * ended only when its handler returns (ending a worker while a native addon works for it aborts the whole runtime),
 * and an idle one beyond the kept (prewarmed) one is ended; tsx's compiler process ends once its modules are loaded,
 * and what it compiled is kept for the next environment.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FunctionHost, InvocationError } from '#infra/local/function-host.ts';
import { createLog } from '#infra/local/log.ts';
import { REPO_ROOT } from '#infra/local/runtime.ts';

const dir = mkdtempSync(join(tmpdir(), 'vidbot-function-host-'));
const hosts: FunctionHost[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((host) => host.stop()));
  await rm(dir, { recursive: true, force: true });
});

function sleeper(options: { idleMs?: number } = {}) {
  const host = new FunctionHost(
    'sleeper',
    { entry: 'test/fixtures/local/sleeper.ts', trigger: 'schedule', everyMinutes: 5, memoryMb: 128, timeoutSeconds: 30 },
    { TMPDIR: dir },
    { root: REPO_ROOT, concurrency: 2, log: createLog('silent'), functionPrefix: 'vidbot', ...options },
  );
  hosts.push(host);
  return host;
}

/** This process's running child processes that are esbuild (tsx's compiler runs as one per hooks thread). */
function compilerProcesses(): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
      const [state, ppid] = rest?.split(' ') ?? [];
      // An ended worker's compiler can stay a zombie (nothing of it left but its process entry).
      if (comm === 'esbuild' && state !== 'Z' && Number(ppid) === process.pid) count++;
    } catch {
      // the process ended meanwhile
    }
  }
  return count;
}

describe('execution environments', () => {
  it('lets a timed-out handler return before its worker is ended, and serves the next call from a fresh one', async () => {
    const host = sleeper();
    const marker = join(dir, 'late');
    const timedOut = await host.invoke({ ms: 1500, marker }, { timeoutMs: 300 }).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(InvocationError);
    expect((timedOut as InvocationError).kind).toBe('timeout');
    expect(host.environments).toBe(0);
    await vi.waitFor(() => expect(existsSync(marker), 'the abandoned handler ran to its end').toBe(true), { timeout: 30_000, interval: 100 });
    expect(await host.invoke({ ms: 0 })).toEqual({ slept: 0 });
  }, 60_000);

  it('ends idle environments beyond the prewarmed one', async () => {
    const host = sleeper({ idleMs: 500 });
    await host.prewarm();
    const calls = Promise.all([host.invoke({ ms: 200 }), host.invoke({ ms: 200 })]);
    await vi.waitFor(() => expect(host.environments).toBe(2), { timeout: 5_000, interval: 10 });
    await calls;
    await vi.waitFor(() => expect(host.environments).toBe(1), { timeout: 20_000, interval: 100 });
    expect(await host.invoke({ ms: 0 })).toEqual({ slept: 0 });
    const cold = sleeper({ idleMs: 500 });
    await cold.invoke({ ms: 0 });
    await vi.waitFor(() => expect(cold.environments).toBe(0), { timeout: 20_000, interval: 100 });
  }, 60_000);

  it("ends tsx's compiler process once the function's modules are loaded, and compiles again when asked", async () => {
    // A module no cache has seen, so that loading it needs the compiler.
    const entry = `fn-${randomUUID()}.mts`;
    writeFileSync(join(dir, entry), `export const handler = async (event: { n: number }): Promise<{ n: number }> => ({ n: event.n + 1 });\n`);
    const host = new FunctionHost(
      'compiled',
      { entry, trigger: 'schedule', everyMinutes: 5, memoryMb: 128, timeoutSeconds: 30 },
      { TMPDIR: dir },
      { root: dir, concurrency: 1, log: createLog('silent'), functionPrefix: 'vidbot' },
    );
    hosts.push(host);
    await host.prewarm();
    expect(compilerProcesses(), 'tsx compiled the new module with esbuild').toBeGreaterThan(0);
    await vi.waitFor(() => expect(compilerProcesses()).toBe(0), { timeout: 30_000, interval: 200 });
    expect(await host.invoke({ n: 1 })).toEqual({ n: 2 });
  }, 60_000);

  it("compiles a function's TypeScript once: a later cold start, in a fresh /tmp, finds it compiled", async () => {
    const entry = `fn-${randomUUID()}.mts`;
    writeFileSync(join(dir, entry), `export const handler = async (event: { n: number }): Promise<{ n: number }> => ({ n: event.n * 2 });\n`);
    const environment = () => {
      const host = new FunctionHost(
        'cached',
        { entry, trigger: 'schedule', everyMinutes: 5, memoryMb: 128, timeoutSeconds: 30 },
        { TMPDIR: dir },
        { root: dir, concurrency: 1, log: createLog('silent'), functionPrefix: 'vidbot' },
      );
      hosts.push(host);
      return host;
    };
    const first = environment();
    await first.prewarm();
    expect(compilerProcesses(), 'the first cold start compiled the module').toBeGreaterThan(0);
    await first.stop();
    await vi.waitFor(() => expect(compilerProcesses()).toBe(0), { timeout: 30_000, interval: 200 });
    await vi.waitFor(
      () =>
        expect(
          readdirSync(dir).filter((name) => name.startsWith('vidbot-cached-env-')),
          "the ended environment's /tmp is gone",
        ).toEqual([]),
      { timeout: 10_000, interval: 100 },
    );

    const second = environment();
    await second.prewarm();
    // A compiler started for this load would still run (it ends 5 s after the last load): none means none compiled.
    expect(compilerProcesses(), 'the second cold start compiled nothing').toBe(0);
    expect(await second.invoke({ n: 3 })).toEqual({ n: 6 });
  }, 60_000);
});
