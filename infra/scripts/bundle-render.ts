/**
 * `npm run bundle:render [-- --arch arm64|x64] [--entry <file>] [--out <dir>]`: the render Lambda's container
 * image folder, self-contained (no node_modules):
 *
 *   dist/render-image/
 *     index.mjs (+ .map)   esbuild bundle of functions/render/handler.ts, exporting `handler`
 *     espeak-ng.wasm       the speech synthesizer (its JS is in the bundle)
 *     bots/<look>/…        the bot artwork (PNG sprites + manifest.json)
 *     bin/ffmpeg, bin/ffprobe   static builds for --arch (arm64 by default, the Lambda's architecture)
 *     Dockerfile           from functions/render/Dockerfile
 *
 * How the code finds its assets at run time: esbuild makes `import.meta.url` the URL of index.mjs for all
 * bundled modules, so every lookup is relative to the bundle's own directory (= LAMBDA_TASK_ROOT):
 * binaries.ts tries `<dir>/bin/ffmpeg`, sprites.ts `<dir>/bots`, speech/espeak.ts `<dir>/espeak-ng.wasm`,
 * each falling back to the source-tree location (or an env override) when run from the repository.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

type Arch = 'arm64' | 'x64';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

/** Version of a package as the root lockfile pins it (the optional platform packages of the installers). */
function lockedVersion(pkg: string): string {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  const version = lock.packages[`node_modules/${pkg}`]?.version;
  if (!version) throw new Error(`${pkg} is not in package-lock.json`);
  return version;
}

const ELF_MACHINE: Record<Arch, number> = { x64: 62, arm64: 183 };

function elfMachine(path: string): number {
  const header = Buffer.alloc(20);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt16LE(18);
}

/** ffmpeg and ffprobe for an architecture: the installed packages when they match, else the lockfile's versions from the registry (cached in .local/cache). */
function mediaBinaries(arch: Arch): { ffmpeg: string; ffprobe: string } {
  const packages = { ffmpeg: `@ffmpeg-installer/linux-${arch}`, ffprobe: `@ffprobe-installer/linux-${arch}` };
  const installed = { ffmpeg: join(root, 'node_modules', packages.ffmpeg, 'ffmpeg'), ffprobe: join(root, 'node_modules', packages.ffprobe, 'ffprobe') };
  if (existsSync(installed.ffmpeg) && existsSync(installed.ffprobe)) return installed;
  const versions = { ffmpeg: lockedVersion(packages.ffmpeg), ffprobe: lockedVersion(packages.ffprobe) };
  const cache = join(root, '.local', 'cache', `media-${arch}-${versions.ffmpeg}-${versions.ffprobe}`);
  const cached = { ffmpeg: join(cache, 'ffmpeg', 'package', 'ffmpeg'), ffprobe: join(cache, 'ffprobe', 'package', 'ffprobe') };
  for (const name of ['ffmpeg', 'ffprobe'] as const) {
    if (existsSync(cached[name])) continue;
    // Not installable here (EBADPLATFORM on x64), so fetched as the registry tarball and unpacked: no scripts run.
    const dir = join(cache, name);
    mkdirSync(dir, { recursive: true });
    const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir, `${packages[name]}@${versions[name]}`], { encoding: 'utf8' }).trim().split('\n').pop()!;
    execFileSync('tar', ['-xzf', join(dir, tarball), '-C', dir]);
  }
  return cached;
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
    external: ['@ffmpeg-installer/ffmpeg', '@ffprobe-installer/ffprobe'],
  });

  const binaries = mediaBinaries(arch);
  for (const name of ['ffmpeg', 'ffprobe'] as const) {
    const target = join(out, 'bin', name);
    copyFileSync(binaries[name], target);
    chmodSync(target, 0o755);
    if (elfMachine(target) !== ELF_MACHINE[arch]) throw new Error(`${binaries[name]} is not a linux-${arch} binary`);
  }

  copyFileSync(join(root, 'node_modules', 'espeak-ng', 'dist', 'espeak-ng.wasm'), join(out, 'espeak-ng.wasm'));

  const bots = join(root, 'functions', 'render', 'bots');
  for (const look of readdirSync(bots)) {
    if (!existsSync(join(bots, look, 'manifest.json'))) continue; // e.g. the generator
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
