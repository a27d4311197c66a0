/**
 * The test runtimes' functions from bundles: a function's handler and its own modules in one file, built on its first
 * cold start, reused while its files are unchanged, built again when one changed; an environment imports it without
 * tsx, and a module that does not build is an initialisation error that names it.
 */
import { mkdtempSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { functionBundle, functionBundleDir } from '#infra/local/function-bundles.ts';
import { FunctionHost, InvocationError } from '#infra/local/function-host.ts';
import { createLog } from '#infra/local/log.ts';

const root = mkdtempSync(join(tmpdir(), 'vidbot-function-bundles-'));
const hosts: FunctionHost[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((host) => host.stop()));
  await rm(root, { recursive: true, force: true });
});

const write = (file: string, text: string) => writeFileSync(join(root, file), text);
const load = async (bundle: string) =>
  (await import(`${pathToFileURL(bundle).href}?${statSync(bundle).mtimeMs}`)) as { handler: () => Promise<string> };

describe('function bundles', () => {
  it('bundles a handler with its own modules, reuses the bundle while they are unchanged and builds it again when one changed', async () => {
    write('greet.ts', `export const greeting = (name: string): string => \`hello \${name}\`;\n`);
    write('fn.ts', `import { greeting } from './greet.ts';\nexport const handler = async (): Promise<string> => greeting('ava');\n`);
    const dir = functionBundleDir(root, 'fn');
    const bundle = await functionBundle(root, 'fn.ts', dir);
    expect(await (await load(bundle)).handler()).toBe('hello ava');
    const built = statSync(bundle).mtimeMs;

    expect(await functionBundle(root, 'fn.ts', dir)).toBe(bundle);
    expect(statSync(bundle).mtimeMs, 'unchanged sources: the bundle is not written again').toBe(built);

    write('greet.ts', `export const greeting = (name: string): string => \`good morning \${name}\`;\n`);
    await functionBundle(root, 'fn.ts', dir);
    expect(await (await load(bundle)).handler(), 'a changed module is in the bundle built again').toBe('good morning ava');
  });

  it('builds again at the next cold start when a source was saved after its build began (its bundle may hold it as it was)', async () => {
    write('late.ts', `export const handler = async (): Promise<string> => 'first';\n`);
    // Saved "during" the build: its time is after the build's start.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'late.ts'), later, later);
    const dir = functionBundleDir(root, 'late');
    const bundle = await functionBundle(root, 'late.ts', dir);
    const built = statSync(bundle).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await functionBundle(root, 'late.ts', dir);
    expect(statSync(bundle).mtimeMs, 'the source was not trusted: the bundle is built again').toBeGreaterThan(built);
    // Built from a source saved before its build began, it is trusted again.
    const rebuilt = statSync(bundle).mtimeMs;
    utimesSync(join(root, 'late.ts'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await functionBundle(root, 'late.ts', dir);
    const trusted = statSync(bundle).mtimeMs;
    expect(trusted).toBeGreaterThan(rebuilt);
    await functionBundle(root, 'late.ts', dir);
    expect(statSync(bundle).mtimeMs).toBe(trusted);
  });

  it('runs an environment from the bundle, and reports a module that does not build as an initialisation error', async () => {
    write('double.ts', `export const handler = async (event: { n: number }): Promise<{ n: number }> => ({ n: event.n * 2 });\n`);
    write('broken.ts', `export const handler = async ( => 1;\n`);
    const host = (name: string) => {
      const made = new FunctionHost(
        name,
        { entry: `${name}.ts`, trigger: 'schedule', everyMinutes: 5, memoryMb: 128, timeoutSeconds: 30 },
        { TMPDIR: root },
        { root, concurrency: 1, log: createLog('silent'), functionPrefix: 'vidbot', bundled: true },
      );
      hosts.push(made);
      return made;
    };
    expect(await host('double').invoke({ n: 4 })).toEqual({ n: 8 });
    expect(statSync(join(functionBundleDir(root, 'double'), 'index.mjs')).isFile()).toBe(true);

    const failed = await host('broken')
      .invoke({})
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(InvocationError);
    expect((failed as InvocationError).kind).toBe('init');
    expect((failed as InvocationError).errorMessage).toContain('broken.ts did not bundle');
  });
});
