/**
 * `npm run bundle:render [-- --arch arm64|x64] [--entry <file>] [--out <dir>]`: the render Lambda's container
 * image folder, self-contained (no node_modules):
 *
 *   dist/render-image/
 *     index.mjs (+ .map)   esbuild bundle of functions/render/handler.ts, exporting `handler`
 *     espeak-worker.mjs    the speech synthesizer's thread (functions/render/speech/espeak-worker.mjs, bundled)
 *     espeak-ng.js, .data  the speech synthesizer: espeak-ng as a library (@echogarden/espeak-ng-emscripten) and
 *                          its voices, loaded by the thread from beside itself
 *     soundswallower/…     the transcript aligner (soundswallower's module, WebAssembly and en-us, fr-fr models)
 *     bots/<look>/…        the bot artwork (PNG sprites + manifest.json)
 *     fonts/…              the fonts of burned captions and text overlays (render/engine/fonts.ts: the theme
 *                          families and Noto Sans Arabic / SC, SemiBold TTF from @expo-google-fonts)
 *     bin/ffmpeg           static build for --arch (arm64 by default, the Lambda's architecture); the one media
 *                          binary (functions/render/engine/media.ts)
 *     Dockerfile           from functions/render/Dockerfile
 *
 * How the code finds its assets at run time: esbuild makes `import.meta.url` the URL of index.mjs for all
 * bundled modules, so every lookup is relative to the bundle's own directory (= LAMBDA_TASK_ROOT):
 * binaries.ts tries `<dir>/bin/ffmpeg`, sprites.ts `<dir>/bots`, speech/espeak.ts `<dir>/espeak-ng.js` and
 * `<dir>/espeak-worker.mjs` (which reads `<dir>/espeak-ng.data`),
 * engine/burned-captions.ts `<dir>/fonts`,
 * each falling back to the source-tree location (or an env override) when run from the repository.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ALL_FONT_FILES } from '../../functions/render/engine/fonts.ts';
import { installFfmpeg } from './support/ffmpeg-binary.ts';
import { type Arch, lambdaBundleOptions, runImageScript } from './support/image-folder.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function bundleRender(options: { arch: Arch; entry: string; out: string }): Promise<void> {
  const { arch, entry, out } = options;
  if (!existsSync(entry)) throw new Error(`entry ${entry} does not exist`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'bin'), { recursive: true });

  // @ffmpeg-installer is only loaded lazily as the last resort of binaries.ts; the image uses bin/.
  await build({ ...lambdaBundleOptions(['@ffmpeg-installer/ffmpeg']), entryPoints: [entry], outfile: join(out, 'index.mjs') });
  // espeak-ng's thread (speech/espeak.ts starts it from next to index.mjs); it imports espeak-ng.js from beside itself at run time.
  await build({
    ...lambdaBundleOptions([]),
    entryPoints: [join(root, 'functions', 'render', 'speech', 'espeak-worker.mjs')],
    outfile: join(out, 'espeak-worker.mjs'),
  });

  installFfmpeg(out, arch);

  // The espeak-ng library (plain JavaScript) and its voice data, which the thread loads from beside itself.
  for (const file of ['espeak-ng.js', 'espeak-ng.data'])
    copyFileSync(join(root, 'node_modules', '@echogarden', 'espeak-ng-emscripten', file), join(out, file));

  // The transcript aligner (speech/alignment.ts loads it from <dir>/soundswallower/): its module, its WebAssembly
  // and its US English and French models.
  const soundswallower = join(root, 'node_modules', 'soundswallower');
  mkdirSync(join(out, 'soundswallower'), { recursive: true });
  for (const file of ['soundswallower.node.js', 'soundswallower.node.wasm', 'package.json'])
    copyFileSync(join(soundswallower, file), join(out, 'soundswallower', file));
  cpSync(join(soundswallower, 'model'), join(out, 'soundswallower', 'model'), { recursive: true });

  mkdirSync(join(out, 'fonts'), { recursive: true });
  for (const font of ALL_FONT_FILES)
    copyFileSync(join(root, 'node_modules', '@expo-google-fonts', font.npmPackage, '600SemiBold', font.file), join(out, 'fonts', font.file));

  const bots = join(root, 'functions', 'render', 'bots');
  for (const look of readdirSync(bots)) {
    if (!existsSync(join(bots, look, 'manifest.json'))) continue;
    cpSync(join(bots, look), join(out, 'bots', look), { recursive: true, filter: (src) => statSync(src).isDirectory() || /\.(png|json)$/.test(src) });
  }

  copyFileSync(join(root, 'functions', 'render', 'Dockerfile'), join(out, 'Dockerfile'));
}

await runImageScript(
  import.meta.url,
  'render',
  { entry: join(root, 'functions', 'render', 'handler.ts'), out: join(root, 'dist', 'render-image') },
  bundleRender,
);
