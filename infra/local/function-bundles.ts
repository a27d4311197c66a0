/**
 * A local function as one ES module, as the deployed functions run: the handler entry and the project's own modules
 * it imports bundled by esbuild, npm packages left as imports that Node resolves from the repository's node_modules.
 * Its cold start then reads one file, where tsx would compile and resolve each TypeScript module through its loader
 * thread (about twice the CPU for the render function). Built on a function's first cold start, and again only when
 * one of the files it was built from changed; the test runtimes use it (`bundledFunctions`), `npm start` runs tsx.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

/** Changes when the options below change, so that a bundle built with other options is built again. */
const FORMAT = 'esm-node20-packages-external-1';

interface BuildRecord {
  format: string;
  entry: string;
  /** Each source file (relative to the root) with its size and modification time when bundled. */
  inputs: Record<string, { size: number; mtimeMs: number }>;
}

/**
 * Files the project's modules find beside their own module (functions/render/engine/sprites.ts' `../bots`, the speech
 * thread `./espeak-worker.mjs`): in a bundle, beside the bundle, as in the render image.
 */
const BESIDE = [
  { name: 'bots', target: 'functions/render/bots' },
  { name: 'espeak-worker.mjs', target: 'functions/render/speech/espeak-worker.mjs' },
];

const unchanged = (root: string, record: BuildRecord, entry: string): boolean =>
  record.format === FORMAT &&
  record.entry === entry &&
  Object.entries(record.inputs).every(([file, was]) => {
    try {
      const now = statSync(join(root, file));
      return now.size === was.size && now.mtimeMs === was.mtimeMs;
    } catch {
      return false;
    }
  });

/** Writes `file` whole or not at all: another runtime may read it meanwhile. */
function writeWhole(file: string, contents: string | Uint8Array) {
  const part = `${file}.${randomUUID()}.part`;
  writeFileSync(part, contents);
  renameSync(part, file);
}

/**
 * The bundle of `entry` (a path under `root`) in `dir`, built unless the one there was built from the same files as
 * they are now; its path. esbuild's errors (a syntax error in a module) are thrown as they are.
 */
export async function functionBundle(root: string, entry: string, dir: string): Promise<string> {
  const bundle = join(dir, 'index.mjs');
  const recordFile = join(dir, 'build.json');
  if (existsSync(bundle) && existsSync(recordFile)) {
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as BuildRecord;
    if (unchanged(root, record, entry)) return bundle;
  }
  // A source saved while esbuild reads the sources may be bundled as it was and recorded as it is: one whose time is
  // after the build began is recorded as unknown, so the next cold start builds again.
  const started = Date.now();
  const result = await build({
    absWorkingDir: root,
    entryPoints: [resolve(root, entry)],
    outfile: bundle,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  mkdirSync(dir, { recursive: true });
  for (const { name, target } of BESIDE) {
    try {
      symlinkSync(resolve(root, target), join(dir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  // The map first: a bundle found complete has its map.
  for (const file of [...result.outputFiles].sort((a, b) => Number(a.path.endsWith('.mjs')) - Number(b.path.endsWith('.mjs'))))
    writeWhole(file.path, file.contents);
  const inputs: BuildRecord['inputs'] = {};
  for (const file of Object.keys(result.metafile.inputs)) {
    const { size, mtimeMs } = statSync(join(root, file));
    inputs[file] = mtimeMs > started ? { size: -1, mtimeMs: -1 } : { size, mtimeMs };
  }
  writeWhole(recordFile, JSON.stringify({ format: FORMAT, entry, inputs } satisfies BuildRecord));
  return bundle;
}

/** Where a function's bundle is kept under the root. */
export const functionBundleDir = (root: string, name: string): string => join(root, '.cache', 'local-functions', name);
