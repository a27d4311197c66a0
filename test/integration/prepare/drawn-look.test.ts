/**
 * A bot from drawn PNGs: the drawings are validated (PNG, alpha, same size, sane size), become a complete look
 * whose mouth opens level by level, and render through renderClip like a built-in look.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { BotManifest } from '#domain/look';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { buildDrawnLook, type DrawnImages } from '#functions/prepare/drawn-look.ts';
import { LookError, type PreparedLook } from '#functions/prepare/look.ts';
import { BotCompositor } from '#functions/render/engine/compositor.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { botHeightFor } from '#functions/render/engine/layout.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { writeLook } from '../../support/look-files.ts';
import { probeFile } from '../../support/media.ts';
import { assertPublicMessage, internalsIn } from '../../support/public-errors.ts';

const AVA = join(import.meta.dirname, '../../../functions/render/bots/ava');
const avaManifest = JSON.parse(readFileSync(join(AVA, 'manifest.json'), 'utf8')) as BotManifest;
/** A caller's drawing: ava's back hair, body and one head frame flattened into one transparent PNG. */
const drawing = (key: string) =>
  sharp(join(AVA, avaManifest.back))
    .composite([
      { input: join(AVA, avaManifest.body) },
      {
        input: join(AVA, avaManifest.head.frames[key]!),
        left: avaManifest.head.x * (avaManifest.density ?? 1),
        top: avaManifest.head.y * (avaManifest.density ?? 1),
      },
    ])
    .png()
    .toBuffer();

let root: string;
let images: DrawnImages;
let look: PreparedLook;

async function code(given: DrawnImages): Promise<string> {
  try {
    await buildDrawnLook(given);
    return 'built';
  } catch (error) {
    expect(error).toBeInstanceOf(LookError);
    return `${(error as LookError).code}: ${(error as LookError).message}`;
  }
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vidbot-drawn-'));
  images = { mouthClosed: await drawing('m0-eo'), mouthOpen: await drawing('m4-eo'), eyesClosed: await drawing('m0-ec') };
  look = await buildDrawnLook(images);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('buildDrawnLook: validation', () => {
  it('refuses a drawing that is not a PNG, has no alpha, differs in size, is tiny, or opens no mouth', async () => {
    const jpeg = await sharp(images.mouthOpen).flatten({ background: '#fff' }).jpeg().toBuffer();
    const opaque = await sharp(images.mouthOpen).removeAlpha().png().toBuffer();
    const smaller = await sharp(images.mouthOpen).resize(260).png().toBuffer();
    const tiny = await sharp(images.mouthOpen).resize(40).png().toBuffer();
    expect(await code({ ...images, mouthOpen: jpeg })).toMatch(/^image_invalid: mouth_open is jpg, not png/);
    expect(await code({ ...images, mouthOpen: opaque })).toMatch(/^image_invalid: mouth_open has no alpha/);
    expect(await code({ ...images, mouthOpen: smaller })).toMatch(/^image_invalid: mouth_open is 260x300 px; it must be the size of mouth_closed/);
    expect(await code({ mouthClosed: tiny, mouthOpen: tiny })).toMatch(/^image_invalid: mouth_closed is 40x46 px/);
    expect(await code({ ...images, mouthOpen: images.mouthClosed })).toMatch(/^image_invalid: mouth_open is the same picture/);
    expect(await code({ ...images, eyesClosed: Buffer.from('not a png') })).toMatch(/^image_invalid: eyes_closed/);
    expect(await code({ ...images, mouthHalf: images.mouthClosed.subarray(0, 2000) })).toMatch(/^image_invalid: mouth_half cannot be decoded/);
  });

  it("refuses a damaged drawing in fixed words; libvips' own text is only the error's detail, for the log", async () => {
    const error = await buildDrawnLook({ ...images, mouthHalf: images.mouthClosed.subarray(0, 2000) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LookError);
    expect((error as LookError).message).toBe('mouth_half cannot be decoded: it is damaged or not a complete PNG');
    assertPublicMessage((error as LookError).message, 'bot.failed');
    expect(internalsIn((error as LookError).detail ?? '')).toContain("an image library's text");
  });
});

describe('buildDrawnLook: two drawings and closed eyes', () => {
  it('gives every file the manifest names, each the size it should be', async () => {
    const m = look.manifest;
    expect([...look.files.keys()].sort()).toEqual(
      [...new Set([m.panel.file, m.back, m.body, m.preview, ...Object.values(m.head.frames), 'manifest.json'])].sort(),
    );
    for (const file of [m.panel.file, m.back, m.body])
      expect(await sharp(look.files.get(file)!).metadata()).toMatchObject({ width: m.width, height: m.height });
    for (const file of Object.values(m.head.frames))
      expect(await sharp(look.files.get(file)!).metadata()).toMatchObject({ width: m.head.width, height: m.head.height });
    // The head frames cover only what changes: the mouth and the eyes, a small part of the canvas.
    expect(m.head.width * m.head.height).toBeLessThan(m.width * m.height * 0.3);
  });

  it('opens the mouth step by step: each level differs more from the closed mouth than the one before', async () => {
    const m = look.manifest;
    const frames = await Promise.all(
      [0, 1, 2, 3, 4].map((l) =>
        sharp(look.files.get(m.head.frames[`m${l}-eo`]!)!)
          .raw()
          .toBuffer(),
      ),
    );
    const distance = (a: Buffer, b: Buffer) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0);
    const steps = frames.map((f) => distance(f, frames[0]!));
    for (let l = 1; l < 5; l++) expect(steps[l]!).toBeGreaterThan(steps[l - 1]!);
  });

  it('a photo or drawn look keeps the head on the body (headMotion: false): head offsets move nothing', () => {
    const directory = writeLook(root, look);
    const sprites = loadSprites('drawn', botHeightFor(frameSizeOf(DEFAULT_SHAPE), 'bottom-right'), directory);
    const compositor = new BotCompositor(sprites, { withPanel: true });
    const still = Buffer.from(compositor.render({ mouth: { frame: 'm2' }, eyesOpen: true, bodyX: 1, bodyY: 1, headX: 0, headY: 0 }));
    const nodding = compositor.render({ mouth: { frame: 'm2' }, eyesOpen: true, bodyX: 1, bodyY: 1, headX: 3, headY: -2 });
    expect(nodding.equals(still)).toBe(true);
    const ava = new BotCompositor(loadSprites('ava', botHeightFor(frameSizeOf(DEFAULT_SHAPE), 'bottom-right')), { withPanel: true });
    const avaStill = Buffer.from(ava.render({ mouth: { frame: 'm2' }, eyesOpen: true, bodyX: 1, bodyY: 1, headX: 0, headY: 0 }));
    expect(ava.render({ mouth: { frame: 'm2' }, eyesOpen: true, bodyX: 1, bodyY: 1, headX: 3, headY: -2 }).equals(avaStill)).toBe(false);
  });

  it('renders through renderClip from its directory, with and without its card', async () => {
    const directory = writeLook(root, look);
    const bot = { ...BUILT_IN_BOTS[0]!, uid: 'my_drawing', look: 'drawn' };
    for (const removeBotBackground of [false, true]) {
      const out = await renderClip({
        bot,
        lookDirectory: directory,
        text: 'Hi there.',
        position: 'bottom-left',
        removeBotBackground,
        backgroundVolume: 0,
        transitions: {},
        mode: 'video',
        frame: frameSizeOf(DEFAULT_SHAPE),
        voice: voiceToSpeak(bot.voice, undefined, { polly: false }),
        workDir: mkdtempSync(join(root, 'clip-')),
        speech: new EspeakSpeechEngine(),
      });
      const info = await probeFile(out.path);
      expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 1280, height: 720 });
      expect(Number(info.format.duration)).toBeGreaterThan(0.3);
    }
  }, 60_000);
});
