import { build } from 'esbuild';
import { expect, it } from 'vitest';

it('the SDK bundles for a browser: nothing of Node in it (the CLI is separate)', async () => {
  const result = await build({
    entryPoints: [new URL('../src/index.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  expect(result.errors).toEqual([]);
  const code = result.outputFiles[0]!.text;
  expect(code).not.toMatch(/from ["']node:|require\(["'](fs|crypto|path)["']\)/);
  expect(code).toMatch(/var Vidbot = class/);
});
