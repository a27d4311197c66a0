/**
 * A bot from drawn PNGs: the drawings are validated (PNG, alpha, same size, sane size), become a complete look
 * whose mouth opens level by level and forms the shapes drawn (mouth_round, mouth_wide, mouth_fv), and render
 * through renderClip like a built-in look.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { limits } from '#domain/limits';
import { type BotManifest, mouthFramesOf } from '#domain/look';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { buildDrawnLook, type DrawnImages } from '#functions/prepare/drawn-look.ts';
import { LookError, type PreparedLook } from '#functions/prepare/look.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { botHeightFor } from '#functions/render/engine/layout.ts';
import { rigFor } from '#functions/render/engine/rigs/rig.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { avaDrawing } from '../../support/ava-drawings.ts';
import { writeLook } from '../../support/look-files.ts';
import { probeFile } from '../../support/media.ts';
import { assertPublicMessage, internalsIn } from '../../support/public-errors.ts';

const AVA = join(import.meta.dirname, '../../../functions/render/bots/ava');
const avaManifest = JSON.parse(readFileSync(join(AVA, 'manifest.json'), 'utf8')) as BotManifest;
const drawing = avaDrawing;

/** Where ava's mouth is in a drawing (px). */
const MOUTH = { x: avaManifest.mouth.x * (avaManifest.density ?? 1), y: avaManifest.mouth.y * (avaManifest.density ?? 1) };
/** A colour no drawing of ava has, for each shape: a frame made from that shape's drawing shows it. */
const SHAPE_COLOURS = { round: [0, 0, 255], wide: [0, 200, 0], fv: [255, 0, 255] } as const;
/** The closed drawing with the shape's mouth painted over it in its own colour: round and tall, wide and flat, or lip to teeth. */
async function shapeDrawing(closed: Buffer, shape: keyof typeof SHAPE_COLOURS): Promise<Buffer> {
  const [rx, ry] = ({ round: [24, 34], wide: [64, 16], fv: [44, 12] } as const)[shape];
  const fill = `rgb(${SHAPE_COLOURS[shape].join(',')})`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * rx + 4}" height="${2 * ry + 4}"><ellipse cx="${rx + 2}" cy="${ry + 2}" rx="${rx}" ry="${ry}" fill="${fill}"/></svg>`;
  return sharp(closed)
    .composite([{ input: Buffer.from(svg), left: MOUTH.x - rx - 2, top: MOUTH.y - 6 }])
    .png()
    .toBuffer();
}

/** Pixels of a head frame within 40 of a colour on every channel, and the rows they span. */
async function colourIn(look: PreparedLook, frame: string, colour: readonly number[]): Promise<{ pixels: number; rows: number }> {
  const { data, info } = await sharp(look.files.get(look.manifest.head.frames[frame]!)!).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let pixels = 0;
  const rows = new Set<number>();
  for (let i = 0; i < info.width * info.height; i++) {
    if (data[i * 4 + 3]! > 200 && colour.every((c, n) => Math.abs(data[i * 4 + n]! - c) <= 40)) {
      pixels++;
      rows.add(Math.floor(i / info.width));
    }
  }
  return { pixels, rows: rows.size };
}

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

  it('refuses a mouth shape by the rules of mouth_open, naming it: not a PNG, no alpha, another size, huge, damaged, unchanged', async () => {
    const round = await shapeDrawing(images.mouthClosed, 'round');
    const jpeg = await sharp(round).flatten({ background: '#fff' }).jpeg().toBuffer();
    const opaque = await sharp(round).removeAlpha().png().toBuffer();
    const smaller = await sharp(round).resize(260).png().toBuffer();
    const oversized = await sharp({ create: { width: 4200, height: 4200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    // A header declaring far more pixels than any picture allowed: refused before anything decodes it.
    const bomb = Buffer.from(round);
    bomb.writeUInt32BE(60_000, 16);
    bomb.writeUInt32BE(60_000, 20);
    const shaped = (shapes: DrawnImages['shapes']) => code({ ...images, shapes });
    expect(await shaped({ round: jpeg })).toMatch(/^image_invalid: mouth_round is jpg, not png/);
    expect(await shaped({ wide: opaque })).toMatch(/^image_invalid: mouth_wide has no alpha/);
    expect(await shaped({ fv: smaller })).toMatch(/^image_invalid: mouth_fv is 260x300 px; it must be the size of mouth_closed/);
    expect(await shaped({ round: oversized })).toMatch(/^image_invalid: mouth_round is 4200x4200 px; a drawing is 64 to 4096 px a side/);
    expect(await shaped({ wide: bomb })).toMatch(/^image_too_large: mouth_wide declares 60000x60000 px/);
    expect(await shaped({ fv: Buffer.alloc(limits.maxBotImageBytes + 1) })).toMatch(/^image_too_large: mouth_fv is \d+ bytes/);
    expect(await shaped({ fv: round.subarray(0, 2000) })).toBe('image_invalid: mouth_fv cannot be decoded: it is damaged or not a complete PNG');
    expect(await shaped({ wide: Buffer.from('not a png') })).toMatch(/^image_invalid: mouth_wide is not a PNG image/);
    expect(await shaped({ round: images.mouthClosed })).toBe('image_invalid: mouth_round is the same picture as mouth_closed');
  });
});

describe('buildDrawnLook: the mouth shapes drawn (mouth_round, mouth_wide, mouth_fv)', () => {
  let shaped: PreparedLook;
  beforeAll(async () => {
    const shapes = {
      round: await shapeDrawing(images.mouthClosed, 'round'),
      wide: await shapeDrawing(images.mouthClosed, 'wide'),
      fv: await shapeDrawing(images.mouthClosed, 'fv'),
    };
    // Timed against the same drawings without the shapes (alternately, the quicker of two each, as the machine is
    // shared): what the three more drawings cost a preparation.
    const timed = async (given: DrawnImages) => {
      const started = performance.now();
      const built = await buildDrawnLook(given);
      return { built, ms: performance.now() - started };
    };
    const times = { without: [] as number[], with: [] as number[] };
    for (let run = 0; run < 2; run++) {
      times.without.push((await timed(images)).ms);
      const built = await timed({ ...images, shapes });
      times.with.push(built.ms);
      shaped = built.built;
    }
    console.log(
      `drawn look: ${Math.round(Math.min(...times.without))} ms from three drawings, ${Math.round(Math.min(...times.with))} ms with the three mouth shapes too`,
    );
  });

  it('has the frames of every shape given (eyes open and closed), and lists the shapes in its manifest', () => {
    expect(shaped.manifest.mouthShapes).toEqual(['round', 'wide', 'fv']);
    expect(mouthFramesOf(shaped.manifest)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'r1', 'r2', 'w1', 'w2', 'fv']);
    expect(Object.keys(shaped.manifest.head.frames)).toEqual(
      mouthFramesOf(shaped.manifest)
        .flatMap((frame) => [`${frame}-ec`, `${frame}-eo`])
        .sort(),
    );
    for (const file of Object.values(shaped.manifest.head.frames)) expect(shaped.files.has(file)).toBe(true);
    expect(JSON.parse(shaped.files.get('manifest.json')!.toString()).mouthShapes).toEqual(['round', 'wide', 'fv']);
  });

  it("draws each shape's frames from its drawing: r1 and r2 show mouth_round's pixels, r1 less open; w1/w2 mouth_wide's; fv mouth_fv's", async () => {
    const frames = ['m0', 'm2', 'm4', 'r1', 'r2', 'w1', 'w2', 'fv'];
    const found = Object.fromEntries(
      await Promise.all(
        frames.map(async (frame) => [
          frame,
          Object.fromEntries(
            await Promise.all(Object.entries(SHAPE_COLOURS).map(async ([shape, colour]) => [shape, await colourIn(shaped, `${frame}-eo`, colour)])),
          ),
        ]),
      ),
    ) as Record<string, Record<keyof typeof SHAPE_COLOURS, { pixels: number; rows: number }>>;
    const owner = { r1: 'round', r2: 'round', w1: 'wide', w2: 'wide', fv: 'fv' } as const;
    for (const frame of frames)
      for (const shape of Object.keys(SHAPE_COLOURS) as (keyof typeof SHAPE_COLOURS)[]) {
        if (owner[frame as keyof typeof owner] === shape) expect(found[frame]![shape].pixels, `${frame} shows ${shape}`).toBeGreaterThan(150);
        else expect(found[frame]![shape].pixels, `${frame} shows no ${shape}`).toBe(0);
      }
    // The narrower frame of a shape is its drawing squashed towards the upper lip: about half as tall an opening.
    for (const [narrow, open, shape] of [
      ['r1', 'r2', 'round'],
      ['w1', 'w2', 'wide'],
    ] as const) {
      expect(found[narrow]![shape].rows).toBeLessThan(found[open]![shape].rows * 0.7);
      expect(found[narrow]![shape].rows).toBeGreaterThan(found[open]![shape].rows * 0.3);
    }
    // The round mouth is narrower than the wide one, as drawn.
    expect(found.r2!.round.pixels / found.r2!.round.rows).toBeLessThan((found.w2!.wide.pixels / found.w2!.wide.rows) * 0.6);
  });

  it('gives the closed-eyes frame of a shape the closed eyes of eyes_closed', async () => {
    const [open, closed, m0Closed] = await Promise.all(
      ['r1-eo', 'r1-ec', 'm0-ec'].map((key) => sharp(shaped.files.get(shaped.manifest.head.frames[key]!)!).raw().toBuffer()),
    );
    const eyeRows = (picture: Buffer) => picture.subarray(0, shaped.manifest.head.width * 4 * Math.round(shaped.manifest.head.height * 0.4));
    expect(eyeRows(closed!).equals(eyeRows(open!))).toBe(false);
    expect(eyeRows(closed!).equals(eyeRows(m0Closed!))).toBe(true);
  });

  it('lists only the shapes given; without any it has none, and its frames are those of two drawings', async () => {
    const roundOnly = await buildDrawnLook({ ...images, shapes: { round: await shapeDrawing(images.mouthClosed, 'round') } });
    expect(roundOnly.manifest.mouthShapes).toEqual(['round']);
    expect(mouthFramesOf(roundOnly.manifest)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'r1', 'r2']);
    expect(Object.keys(roundOnly.manifest.head.frames).filter((key) => /^(w|fv)/.test(key))).toEqual([]);

    expect(look.manifest.mouthShapes).toBeUndefined();
    expect(mouthFramesOf(look.manifest)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(Object.keys(look.manifest.head.frames)).toHaveLength(10);
    expect(JSON.parse(look.files.get('manifest.json')!.toString())).not.toHaveProperty('mouthShapes');
  });

  it('draws a shape through the compositor: the r1 frame shows the round drawing on the card', async () => {
    const directory = writeLook(root, shaped);
    const sprites = loadSprites('drawn', botHeightFor(frameSizeOf(DEFAULT_SHAPE), 'bottom-right'), directory);
    const compositor = rigFor(sprites, { withPanel: true });
    const pose = (frame: string) => ({ mouth: { frame }, eyesOpen: true, bodyX: 0, bodyY: 0, headX: 0, headY: 0 });
    const blue = (rgba: Uint8Array) => {
      let n = 0;
      for (let i = 0; i < rgba.length; i += 4) if (rgba[i]! < 40 && rgba[i + 1]! < 40 && rgba[i + 2]! > 215) n++;
      return n;
    };
    expect(blue(compositor.render(pose('r1')))).toBeGreaterThan(20);
    expect(blue(compositor.render(pose('m4')))).toBe(0);
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

  it('a photo or drawn look keeps the head on the body (rig: single-picture): head offsets move nothing', () => {
    const directory = writeLook(root, look);
    const sprites = loadSprites('drawn', botHeightFor(frameSizeOf(DEFAULT_SHAPE), 'bottom-right'), directory);
    const compositor = rigFor(sprites, { withPanel: true });
    const still = Buffer.from(compositor.render({ mouth: { frame: 'm2' }, eyesOpen: true, bodyX: 1, bodyY: 1, headX: 0, headY: 0 }));
    const nodding = compositor.render({ mouth: { frame: 'm2' }, eyesOpen: true, bodyX: 1, bodyY: 1, headX: 3, headY: -2 });
    expect(nodding.equals(still)).toBe(true);
    const ava = rigFor(loadSprites('ava', botHeightFor(frameSizeOf(DEFAULT_SHAPE), 'bottom-right')), { withPanel: true });
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
