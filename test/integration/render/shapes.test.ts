/**
 * Every shape through the engine with real ffmpeg: each of the six aspect ratio and resolution pairs renders and
 * probes to its size, with the background covering the frame (scaled and cropped, never letterboxed), the bot
 * where it was asked, and a transition pair each; in the vertical frame every transition pair, the default
 * backdrop, the join and the poster. Texts are a word or two, so each clip lasts about two seconds.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { BotPosition } from '#domain/choices';
import { TRANSITION_SECONDS, type Transitions } from '#domain/clip';
import { ASPECT_RATIOS, type FrameSize, frameSizeOf, RESOLUTIONS, type Shape } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { type BackgroundMedia, inspectBackground } from '#functions/media/background-media.ts';
import { concatClips } from '#functions/media/concat.ts';
import { runFfmpeg } from '#functions/media/media.ts';
import { extractPoster } from '#functions/media/poster.ts';
import { type RenderClipInput, renderClip } from '#functions/render/engine/index.ts';
import { type BotBox, botHeightFor, layoutFor } from '#functions/render/engine/layout.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { probeFile } from '../../support/media.ts';
import { colourDistance, frameRgb } from '../../support/render-media.ts';

const ava = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;
const SHAPES: Shape[] = RESOLUTIONS.flatMap((resolution) => ASPECT_RATIOS.map((aspectRatio) => ({ aspectRatio, resolution })));
/** Every entry and exit transition, in pairs: one pair per shape below, and all of them in the vertical frame. */
const PAIRS: Transitions[] = [
  { entry: 'slide_in_left', exit: 'slide_out_right' },
  { entry: 'slide_in_right', exit: 'slide_out_left' },
  { entry: 'slide_in_up', exit: 'slide_out_down' },
  { entry: 'wipe_in', exit: 'wipe_out' },
  { entry: 'zoom_in', exit: 'fade_out' },
  { entry: 'fade_in', exit: 'zoom_out' },
];
/** The background's three vertical bands, left to right, none of them a colour of the bot. */
const RED = [208, 32, 32];
const GREEN = [32, 192, 64];
const YELLOW = [224, 224, 32];
const BANDS = [RED, GREEN, YELLOW];

let root: string;
let bands: BackgroundMedia;
let counter = 0;

async function render(frame: FrameSize, overrides: Partial<RenderClipInput> = {}) {
  const workDir = mkdtempSync(join(root, `clip${counter++}-`));
  return renderClip({
    bot: ava,
    text: 'Hi there.',
    position: 'top-left',
    removeBotBackground: false,
    background: bands,
    backgroundVolume: 0,
    transitions: {},
    frame,
    mode: 'video',
    workDir,
    speech: new EspeakSpeechEngine(),
    ...overrides,
    voice: overrides.voice ?? voiceToSpeak(ava.voice, undefined, { polly: false }),
  });
}

const pixelAt = (rgb: Buffer, frame: FrameSize, x: number, y: number) => {
  const i = (y * frame.width + x) * 3;
  return [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
};
/** Share of the box's pixels (a margin of a fifth inside it) that are none of the background's colours. */
function shareNotBackground(rgb: Buffer, frame: FrameSize, box: BotBox): number {
  const x0 = Math.round(box.x + box.width / 5),
    x1 = Math.round(box.x + (box.width * 4) / 5);
  const y0 = Math.round(box.y + box.height / 5),
    y1 = Math.round(box.y + (box.height * 4) / 5);
  let other = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (BANDS.every((c) => colourDistance(pixelAt(rgb, frame, x, y), c) > 60)) other++;
  return other / ((x1 - x0) * (y1 - y0));
}
function meanAbsDiff(a: Buffer, b: Buffer, frame: FrameSize, box: BotBox) {
  let sum = 0;
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) sum += colourDistance(pixelAt(a, frame, x, y), pixelAt(b, frame, x, y));
  return sum / (box.width * box.height);
}
const boxOf = (frame: FrameSize, position: BotPosition) => layoutFor(frame, position, loadSprites(ava.look, botHeightFor(frame, position)).manifest);
/** The box mirrored through the frame's centre (the opposite corner). */
const opposite = (frame: FrameSize, box: BotBox): BotBox => ({ ...box, x: frame.width - box.x - box.width, y: frame.height - box.y - box.height });

/** Checks that the bot moved in and out: the first and last frames differ from the middle one where the bot is. */
async function expectTransitionsPlayed(path: string, frame: FrameSize, box: BotBox) {
  const duration = Number((await probeFile(path)).format.duration);
  const [first, middle, last] = await Promise.all([
    frameRgb(path, 0, frame.width, frame.height),
    frameRgb(path, TRANSITION_SECONDS + 0.1, frame.width, frame.height),
    frameRgb(path, duration - 0.04, frame.width, frame.height),
  ]);
  expect(meanAbsDiff(first, middle, frame, box)).toBeGreaterThan(40);
  expect(meanAbsDiff(last, middle, frame, box)).toBeGreaterThan(40);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vidbot-shapes-'));
  // A landscape picture (1920x1080) of three bands: what each shape keeps of it shows how it was fitted.
  const picture = join(root, 'bands.png');
  const band = (c: number[]) => ['-f', 'lavfi', '-i', `color=c=0x${c.map((v) => v.toString(16).padStart(2, '0')).join('')}:s=640x1080`];
  await runFfmpeg(['-y', ...BANDS.flatMap(band), '-filter_complex', 'hstack=inputs=3', '-frames:v', '1', picture], { budgetSeconds: 60 });
  bands = await inspectBackground(picture, root);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('every shape', () => {
  it.each(SHAPES.map((shape, i) => [`${shape.aspectRatio} ${shape.resolution}`, shape, PAIRS[i]!] as const))(
    '%s: renders and probes to its size, the background covering it, the bot top-left, %o played',
    async (_name, shape, transitions) => {
      const frame = frameSizeOf(shape);
      const clip = await render(frame, { transitions });
      const info = await probeFile(clip.path);
      const video = info.streams.find((s) => s.codec_type === 'video')!;
      expect(video).toMatchObject({ codec_name: 'h264', width: frame.width, height: frame.height, pix_fmt: 'yuv420p', r_frame_rate: '30/1' });

      const middle = await frameRgb(clip.path, TRANSITION_SECONDS + 0.3, frame.width, frame.height);
      // Covered, not letterboxed: the picture reaches every corner. A landscape picture keeps its left and right
      // bands where the frame is as wide (16:9) or cropped to its centre square (1:1); a vertical frame keeps its middle.
      const [left, right] = shape.aspectRatio === '9:16' ? [GREEN, GREEN] : [RED, YELLOW];
      const { width: w, height: h } = frame;
      for (const [x, y, colour] of [
        [2, 2, left],
        [2, h - 3, left],
        [w - 3, 2, right],
        [w - 3, h - 3, right],
      ] as const)
        expect(colourDistance(pixelAt(middle, frame, x, y), colour), `pixel ${x},${y}`).toBeLessThan(40);

      // The bot fills its box in the top-left corner, and the opposite corner is background.
      const box = boxOf(frame, 'top-left');
      expect(shareNotBackground(middle, frame, box)).toBeGreaterThan(0.85);
      expect(shareNotBackground(middle, frame, opposite(frame, box))).toBeLessThan(0.03);
      await expectTransitionsPlayed(clip.path, frame, box);
    },
    60_000,
  );
});

describe('the vertical frame (9:16 720p)', () => {
  const frame = frameSizeOf({ aspectRatio: '9:16', resolution: '720p' });
  const parts: string[] = [];
  const partSeconds: number[] = [];

  it.each(PAIRS)(
    'plays %o at the bottom centre',
    async (transitions) => {
      const clip = await render(frame, { transitions, position: 'bottom-center' });
      parts.push(clip.path);
      partSeconds.push(clip.durationSeconds);
      await expectTransitionsPlayed(clip.path, frame, boxOf(frame, 'bottom-center'));
    },
    30_000,
  );

  it('fills the frame with the default backdrop when there is no background', async () => {
    const clip = await render(frame, { background: undefined, position: 'center' });
    const still = await frameRgb(clip.path, 0.3, frame.width, frame.height);
    // The backdrop's blue reaches every corner (a letterbox would be black there).
    for (const [x, y] of [
      [2, 2],
      [frame.width - 3, 2],
      [2, frame.height - 3],
      [frame.width - 3, frame.height - 3],
    ] as const) {
      const [r, g, b] = pixelAt(still, frame, x, y);
      expect(b! - r!, `pixel ${x},${y}: ${r},${g},${b}`).toBeGreaterThan(10);
    }
  });

  it("clips of the shape join by stream copy, and the poster has the video's own size", async () => {
    const joined = await concatClips({
      parts: parts.slice(0, 2),
      mode: 'video',
      seconds: partSeconds[0]! + partSeconds[1]!,
      workDir: mkdtempSync(join(root, 'concat-')),
    });
    const video = (await probeFile(joined.path)).streams.find((s) => s.codec_type === 'video')!;
    expect([video.width, video.height]).toEqual([720, 1280]);
    const poster = await extractPoster(joined.path, TRANSITION_SECONDS + 0.5, join(root, 'poster.jpg'));
    expect(imageSize(readFileSync(poster))).toMatchObject({ type: 'jpg', width: 720, height: 1280 });
  });
});

describe('layout against the artwork', () => {
  it('the box layoutFor gives is the size of the sprites drawn into it, in every shape and position', () => {
    for (const shape of SHAPES) {
      const frame = frameSizeOf(shape);
      for (const position of ['top-left', 'center', 'bottom-right'] as const) {
        const sprites = loadSprites('leo', botHeightFor(frame, position));
        const box = layoutFor(frame, position, sprites.manifest);
        expect([box.width, box.height]).toEqual([sprites.width, sprites.height]);
      }
    }
  });
});
