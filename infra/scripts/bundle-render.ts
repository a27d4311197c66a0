/**
 * `npm run bundle:render [-- --arch arm64|x64] [--entry <file>] [--out <dir>]`: the render Lambda's container
 * image folder, self-contained (no node_modules):
 *
 *   dist/render-image/
 *     index.mjs (+ .map)   esbuild bundle of functions/render/handler.ts, exporting `handler`
 *     espeak-ng.wasm       the speech synthesizer (its JS is in the bundle)
 *     bots/<look>/…        the bot artwork (PNG sprites + manifest.json)
 *     fonts/…              the burned captions' font (Inter SemiBold TTF, from @expo-google-fonts/inter)
 *     bin/ffmpeg           static build for --arch (arm64 by default, the Lambda's architecture); the one media
 *                          binary (functions/render/engine/media.ts)
 *     Dockerfile           from functions/render/Dockerfile
 *
 * How the code finds its assets at run time: esbuild makes `import.meta.url` the URL of index.mjs for all
 * bundled modules, so every lookup is relative to the bundle's own directory (= LAMBDA_TASK_ROOT):
 * binaries.ts tries `<dir>/bin/ffmpeg`, sprites.ts `<dir>/bots`, speech/espeak.ts `<dir>/espeak-ng.wasm`,
 * engine/burned-captions.ts `<dir>/fonts`,
 * each falling back to the source-tree location (or an env override) when run from the repository.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CAPTION_FONT } from '../../functions/render/engine/burned-captions.ts';
import { buildLayer } from './build-layers.ts';
import { ELF_MACHINE, elfMachine } from './elf.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

type Arch = 'arm64' | 'x64';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

/**
 * ffmpeg for an architecture. arm64 (the Lambda's): the media layer's build, the one place the arm64 binary
 * comes from (layers/media's own lockfile, see build-layers.ts). x64 (tests on this machine): the installed
 * package.
 */
function mediaBinaries(arch: Arch): { ffmpeg: string } {
  if (arch === 'arm64') return { ffmpeg: join(buildLayer('media'), 'bin', 'ffmpeg') };
  const ffmpeg = join(root, 'node_modules', '@ffmpeg-installer', `linux-${arch}`, 'ffmpeg');
  if (!existsSync(ffmpeg)) throw new Error(`${ffmpeg} is missing: npm ci installs it on linux-${arch}`);
  return { ffmpeg };
}

export async function bundleRender(options: { arch: Arch; entry: string; out: string }): Promise<void> {
  const { arch, entry, out } = options;
  if (!existsSync(entry)) throw new Error(`entry ${entry} does not exist`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'bin'), { recursive: true });

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
    // Only loaded lazily as the last resort of binaries.ts; the image uses bin/.
    external: ['@ffmpeg-installer/ffmpeg'],
  });

  const binaries = mediaBinaries(arch);
  for (const name of ['ffmpeg'] as const) {
    const target = join(out, 'bin', name);
    copyFileSync(binaries[name], target);
    chmodSync(target, 0o755);
    if (elfMachine(target) !== ELF_MACHINE[arch]) throw new Error(`${binaries[name]} is not a linux-${arch} binary`);
  }

  copyFileSync(join(root, 'node_modules', 'espeak-ng', 'dist', 'espeak-ng.wasm'), join(out, 'espeak-ng.wasm'));

  mkdirSync(join(out, 'fonts'), { recursive: true });
  copyFileSync(join(root, 'node_modules', '@expo-google-fonts', 'inter', '600SemiBold', CAPTION_FONT.file), join(out, 'fonts', CAPTION_FONT.file));

  const bots = join(root, 'functions', 'render', 'bots');
  for (const look of readdirSync(bots)) {
    if (!existsSync(join(bots, look, 'manifest.json'))) continue;
    cpSync(join(bots, look), join(out, 'bots', look), { recursive: true, filter: (src) => statSync(src).isDirectory() || /\.(png|json)$/.test(src) });
  }

  copyFileSync(join(root, 'functions', 'render', 'Dockerfile'), join(out, 'Dockerfile'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const arch = option('arch', 'arm64');
  if (arch !== 'arm64' && arch !== 'x64') throw new Error(`--arch must be arm64 or x64, not "${arch}"`);
  const entry = resolve(option('entry', join(root, 'functions', 'render', 'handler.ts')));
  const out = resolve(option('out', join(root, 'dist', 'render-image')));
  const started = Date.now();
  await bundleRender({ arch, entry, out });
  const size = execFileSync('du', ['-sh', out]).toString().split('\t')[0];
  console.log(`render image folder: ${out} (${arch}, ${size}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
