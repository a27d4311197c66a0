/**
 * `npm run bundle:prepare [-- --entry <file>] [--out <dir>]`: the prepare Lambda's container image folder:
 *
 *   dist/prepare-image/
 *     index.mjs (+ .map)   esbuild bundle of functions/prepare/handler.ts, exporting `handler`
 *     Dockerfile           from functions/prepare/Dockerfile
 *
 * The bundle holds all of today's code (pure JS). The look builders' native runtimes and models (onnxruntime-node,
 * sharp, the matting and landmark weights) cannot be bundled: when they land they are listed in EXTERNAL here and
 * installed next to index.mjs for linux-arm64.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

export async function bundlePrepare(options: { entry: string; out: string }): Promise<void> {
  const { entry, out } = options;
  if (!existsSync(entry)) throw new Error(`entry ${entry} does not exist`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [entry],
    outfile: join(out, 'index.mjs'),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    sourcemap: true,
    minify: false,
    logLevel: 'warning',
    // CommonJS dependencies (the AWS SDK's) call require() for Node built-ins; ESM has no require of its own.
    banner: { js: "import { createRequire as __vidbotCreateRequire } from 'node:module'; const require = __vidbotCreateRequire(import.meta.url);" },
  });
  copyFileSync(join(root, 'functions', 'prepare', 'Dockerfile'), join(out, 'Dockerfile'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const entry = resolve(option('entry', join(root, 'functions', 'prepare', 'handler.ts')));
  const out = resolve(option('out', join(root, 'dist', 'prepare-image')));
  const started = Date.now();
  await bundlePrepare({ entry, out });
  const size = execFileSync('du', ['-sh', out]).toString().split('\t')[0];
  console.log(`prepare image folder: ${out} (${size}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
