/**
 * What the two container-image folders (bundle-render.ts, bundle-prepare.ts) share: the esbuild settings of a
 * Lambda handler bundle, and the command line that builds a folder for an architecture and reports its size.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

export type Arch = 'arm64' | 'x64';

/** An ESM bundle for Lambda's nodejs22.x, with source maps; `external` packages are installed beside it. */
export const lambdaBundleOptions = (external: string[]): BuildOptions => ({
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  sourcemap: true,
  minify: false,
  logLevel: 'warning',
  // CommonJS dependencies (the AWS SDK's) call require() for Node built-ins; ESM has no require of its own.
  banner: { js: "import { createRequire as __vidbotCreateRequire } from 'node:module'; const require = __vidbotCreateRequire(import.meta.url);" },
  external,
});

const option = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};

/**
 * When `moduleUrl` is the script being run: builds the folder from `--arch` (default arm64), `--entry` and `--out`,
 * and prints where it is, its size and how long it took.
 */
export async function runImageScript(
  moduleUrl: string,
  name: string,
  defaults: { entry: string; out: string },
  bundle: (options: { arch: Arch; entry: string; out: string }) => Promise<void>,
): Promise<void> {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== resolve(process.argv[1])) return;
  const arch = option('arch', 'arm64');
  if (arch !== 'arm64' && arch !== 'x64') throw new Error(`--arch must be arm64 or x64, not "${arch}"`);
  const entry = resolve(option('entry', defaults.entry));
  const out = resolve(option('out', defaults.out));
  const started = Date.now();
  await bundle({ arch, entry, out });
  const size = execFileSync('du', ['-sh', out]).toString().split('\t')[0];
  console.log(`${name} image folder: ${out} (${arch}, ${size}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
