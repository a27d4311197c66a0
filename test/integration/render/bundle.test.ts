/**
 * The render image folder works on its own: bundled with a stand-in entry (the real handler needs AWS), copied
 * away from node_modules, it renders a clip with its own ffmpeg, espeak-ng library and voices and bot artwork.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { bundleRender } from '#infra/scripts/bundle-render.ts';

const out = mkdtempSync(join(tmpdir(), 'vidbot-image-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('bundles a self-contained render folder that renders from outside the repository', async () => {
  await bundleRender({ arch: 'x64', entry: resolve('test/fixtures/render/bundle-smoke-entry.ts'), out });
  for (const file of [
    'index.mjs',
    'espeak-ng.js',
    'espeak-ng.data',
    'bin/ffmpeg',
    'bots/ava/manifest.json',
    'bots/otto/head-m4-eo.png',
    'fonts/Inter_600SemiBold.ttf',
    'fonts/Montserrat_600SemiBold.ttf',
    'fonts/Merriweather_600SemiBold.ttf',
    'fonts/NotoSansArabic_600SemiBold.ttf',
    'fonts/NotoSansSC_600SemiBold.ttf',
    'Dockerfile',
  ]) {
    expect(existsSync(join(out, file)), file).toBe(true);
  }
  const script = `const m = await import(${JSON.stringify(join(out, 'index.mjs'))}); console.log(JSON.stringify(await m.handler({ look: 'maya' })));`;
  const env = { PATH: process.env.PATH ?? '' }; // no FFMPEG_PATH etc.: the bundle must find its own
  const result = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: out, env, encoding: 'utf8' }).trim().split('\n').pop()!,
  );
  expect(result.ffmpeg).toBe(join(out, 'bin', 'ffmpeg'));
  expect(result.streams).toEqual(['h264', 'aac']);
  expect(result.durationSeconds).toBeGreaterThan(1);
  // Its captions were burned with the font the folder carries (no node_modules to fall back on).
  expect(result.captionsBurned).toBe(true);
  rmSync(resolve(result.path, '..'), { recursive: true, force: true });
}, 60_000);
