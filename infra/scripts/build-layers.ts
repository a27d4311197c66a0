/**
 * Builds the Lambda layers declared in infra/wiring.ts into layers/<name>/build, for the functions'
 * architecture (linux arm64). Run with `npm run build:layers`; it is idempotent and skips a layer whose build
 * matches its lockfile.
 *
 * media: ffmpeg, the one media binary (functions/render/engine/media.ts), from the @ffmpeg-installer arm64
 * package. It cannot be a dependency of the root package on an x64 machine (EBADPLATFORM), so layers/media has
 * its own package.json and lockfile, installed with `npm ci --cpu=arm64 --os=linux`. Its version must equal the
 * one the root lockfile's @ffmpeg-installer/ffmpeg references, so the layer ships the build the code is tested
 * with on other platforms.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type LayerName, layers } from '../wiring.ts';
import { ELF_MACHINE, elfMachine } from './elf.ts';

const root = resolve(import.meta.dirname, '..', '..');

interface Binary {
  /** Installer package that holds the binary. */
  pkg: string;
  /** File name inside the package, and under build/bin. */
  file: string;
  /** Root-lockfile package whose optionalDependencies pin `pkg`'s version. */
  pinnedBy: string;
}

/** How each layer of the wiring is built. A layer declared in the wiring without a recipe fails the build. */
const recipes: Record<LayerName, { binaries: Binary[] }> = {
  media: {
    binaries: [{ pkg: '@ffmpeg-installer/linux-arm64', file: 'ffmpeg', pinnedBy: '@ffmpeg-installer/ffmpeg' }],
  },
};

function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

export function buildLayer(name: LayerName): string {
  const recipe = recipes[name];
  const layerDir = join(root, 'layers', name);
  const buildDir = join(root, layers[name].directory);
  const binDir = join(buildDir, 'bin');
  const manifest = readJson(join(layerDir, 'package.json'));
  const rootLock = readJson(join(root, 'package-lock.json'));

  // The layer's versions must match what the root lockfile resolves for the other platforms.
  for (const bin of recipe.binaries) {
    const wanted = rootLock.packages?.[`node_modules/${bin.pinnedBy}`]?.optionalDependencies?.[bin.pkg];
    const declared = manifest.optionalDependencies?.[bin.pkg];
    if (!wanted) throw new Error(`package-lock.json has no ${bin.pinnedBy} pinning ${bin.pkg}; is ${bin.pinnedBy} still a dependency?`);
    if (declared !== wanted) {
      throw new Error(
        `layers/${name}/package.json pins ${bin.pkg}@${declared}, but ${bin.pinnedBy} in package-lock.json references ${wanted}; update layers/${name}/package.json and run \`npm install --prefix layers/${name} --cpu=arm64 --os=linux --ignore-scripts\``,
      );
    }
  }

  const lock = readFileSync(join(layerDir, 'package-lock.json'));
  const stamp = createHash('sha256').update(lock).update(JSON.stringify(recipe)).digest('hex');
  const stampFile = join(buildDir, '.build-stamp');
  const upToDate =
    existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp && recipe.binaries.every((bin) => existsSync(join(binDir, bin.file)));
  if (upToDate) {
    console.log(`layer ${name}: up to date (${buildDir})`);
    return buildDir;
  }

  console.log(`layer ${name}: installing linux/arm64 packages`);
  // Scripts are skipped: the installers' postinstall only chmods, which we do below.
  execFileSync('npm', ['ci', '--prefix', layerDir, '--cpu=arm64', '--os=linux', '--ignore-scripts', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
  });

  rmSync(buildDir, { recursive: true, force: true });
  mkdirSync(binDir, { recursive: true });
  for (const bin of recipe.binaries) {
    const source = join(layerDir, 'node_modules', bin.pkg, bin.file);
    if (!existsSync(source)) throw new Error(`layer ${name}: ${source} is missing after npm ci`);
    if (elfMachine(source) !== ELF_MACHINE.arm64) throw new Error(`layer ${name}: ${source} is not a linux arm64 (aarch64) ELF binary`);
    const target = join(binDir, bin.file);
    copyFileSync(source, target);
    chmodSync(target, 0o755);
  }
  writeFileSync(stampFile, stamp);
  console.log(`layer ${name}: built ${recipe.binaries.map((b) => `bin/${b.file}`).join(', ')} in ${buildDir}`);
  return buildDir;
}

if (import.meta.url === `file://${process.argv[1]}`) for (const name of Object.keys(layers) as LayerName[]) buildLayer(name);
