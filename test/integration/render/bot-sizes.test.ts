/**
 * The bot sizes through the engine with real ffmpeg: in every shape the card of each size is where and as big as
 * the layout says (measured in the rendered frame), a `full` presenter without its card stands on the bottom edge
 * with the hair a tenth of the height from the top, a `full` presenter with no background has its card carried to the frame's
 * edges without a seam, transitions still move it, and at 1080p a `full` presenter is sharp: its face has the fine
 * detail that a render from artwork at the canvas's own resolution (upscaled 1.6x, made here as the control) has lost.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { BOT_SIZES, type BotSize } from '#domain/choices';
import { TRANSITION_SECONDS } from '#domain/clip';
import type { BotManifest } from '#domain/look';
import { ASPECT_RATIOS, type FrameSize, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { type BackgroundMedia, inspectBackground } from '#functions/media/background-media.ts';
import { runFfmpeg } from '#functions/media/media.ts';
import { type RenderClipInput, renderClip } from '#functions/render/engine/index.ts';
import { type BotBox, headBoxOf, layoutFor } from '#functions/render/engine/layout.ts';
import { lookManifest } from '#functions/render/engine/sprites.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { colourDistance, frameRgb } from '../../support/render-media.ts';

const ava = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;
const artwork = lookManifest('ava');
/** Each test renders several short clips (a full 9:16 presenter is a large canvas): minutes on a loaded 2-core machine. */
const RENDERS = 240_000;
/** A flat background of a colour none of the bot's: every other pixel is the bot. */
const BACKGROUND = [40, 200, 90];

let root: string;
let flat: BackgroundMedia;
let counter = 0;

async function render(frame: FrameSize, overrides: Partial<RenderClipInput> = {}) {
  const workDir = mkdtempSync(join(root, `clip${counter++}-`));
  return renderClip({
    bot: ava,
    text: 'Hi there.',
    position: 'bottom-right',
    removeBotBackground: false,
    background: flat,
    backgroundVolume: 0,
    transitions: {},
    frame,
    mode: 'video',
    workDir,
    speech: new EspeakSpeechEngine(),
    ...overrides,
    voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
  });
}

/** The bounding box of the pixels that are clearly not the background (rows and columns with at least 8 of them). */
function drawnBox(rgb: Buffer, frame: FrameSize): { x0: number; y0: number; x1: number; y1: number } {
  const rows = new Uint32Array(frame.height);
  const cols = new Uint32Array(frame.width);
  for (let y = 0; y < frame.height; y++)
    for (let x = 0; x < frame.width; x++) {
      const i = (y * frame.width + x) * 3;
      if (colourDistance([rgb[i]!, rgb[i + 1]!, rgb[i + 2]!], BACKGROUND) > 90) {
        rows[y]!++;
        cols[x]!++;
      }
    }
  const first = (a: Uint32Array) => a.findIndex((n) => n >= 8);
  const last = (a: Uint32Array) => a.length - 1 - [...a].reverse().findIndex((n) => n >= 8);
  return { x0: first(cols), y0: first(rows), x1: last(cols) + 1, y1: last(rows) + 1 };
}

/** Where the card is in the frame for a layout box (cut by the frame's edges). */
function cardOf(box: BotBox, frame: FrameSize) {
  const s = box.height / artwork.height;
  const p = artwork.panel;
  return {
    x0: Math.max(0, box.x + p.x * s),
    y0: box.y + p.y * s,
    x1: Math.min(frame.width, box.x + (p.x + p.width) * s),
    y1: Math.min(frame.height, box.y + (p.y + p.height) * s),
  };
}

/** Variance of the 4-neighbour Laplacian of the luma in a rectangle: how much fine detail it has. */
function laplacianVariance(rgb: Buffer, frame: FrameSize, r: BotBox): number {
  const luma = (x: number, y: number) => {
    const i = (y * frame.width + x) * 3;
    return 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
  };
  let sum = 0;
  let squares = 0;
  let n = 0;
  for (let y = Math.max(1, r.y); y < Math.min(frame.height - 1, r.y + r.height); y++)
    for (let x = Math.max(1, r.x); x < Math.min(frame.width - 1, r.x + r.width); x++) {
      const l = 4 * luma(x, y) - luma(x - 1, y) - luma(x + 1, y) - luma(x, y - 1) - luma(x, y + 1);
      sum += l;
      squares += l * l;
      n++;
    }
  return squares / n - (sum / n) ** 2;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vidbot-sizes-'));
  const picture = join(root, 'flat.png');
  const hex = BACKGROUND.map((v) => v.toString(16).padStart(2, '0')).join('');
  await runFfmpeg(['-y', '-f', 'lavfi', '-i', `color=c=0x${hex}:s=1920x1080`, '-frames:v', '1', picture], { budgetSeconds: 60 });
  flat = await inspectBackground(picture, root);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('bot sizes in every shape (720p)', () => {
  for (const aspectRatio of ASPECT_RATIOS) {
    it(
      `${aspectRatio}: each size's card is where the layout puts it, each bigger than the one before`,
      async () => {
        const frame = frameSizeOf({ aspectRatio, resolution: '720p' });
        let previous = 0;
        for (const size of BOT_SIZES) {
          const clip = await render(frame, { botSize: size });
          const rgb = await frameRgb(clip.path, 0.5, frame.width, frame.height);
          const seen = drawnBox(rgb, frame);
          const box = layoutFor(frame, 'bottom-right', artwork, { size });
          const card = cardOf(box, frame);
          const where = `${aspectRatio} ${size}`;
          for (const edge of ['x0', 'y0', 'x1', 'y1'] as const) expect(Math.abs(seen[edge] - card[edge]), `${where} ${edge}`).toBeLessThanOrEqual(4);
          const area = (seen.x1 - seen.x0) * (seen.y1 - seen.y0);
          expect(area, where).toBeGreaterThan(previous * 1.3);
          previous = area;
          if (size === 'full') {
            // The card stands on the bottom edge (its rounded foot below it), never off the top of the frame.
            expect(seen.y1, where).toBe(frame.height);
            expect(seen.y0, where).toBeGreaterThan(0);
          }
        }
      },
      RENDERS,
    );
  }

  it(
    'full without its card stands on the bottom edge, at the left when asked, in every shape',
    async () => {
      for (const aspectRatio of ASPECT_RATIOS) {
        const frame = frameSizeOf({ aspectRatio, resolution: '720p' });
        const clip = await render(frame, { botSize: 'full', removeBotBackground: true, position: 'top-left' });
        const rgb = await frameRgb(clip.path, 0.5, frame.width, frame.height);
        const seen = drawnBox(rgb, frame);
        const box = layoutFor(frame, 'top-left', artwork, { size: 'full', removeBotBackground: true });
        // Its bust reaches the bottom row across the card's width; nothing of the background shows under it.
        expect(seen.y1, aspectRatio).toBe(frame.height);
        const y = frame.height - 1;
        const middle = Math.round(box.x + box.width / 2);
        const i = (y * frame.width + middle) * 3;
        expect(colourDistance([rgb[i]!, rgb[i + 1]!, rgb[i + 2]!], BACKGROUND), aspectRatio).toBeGreaterThan(90);
        // The person (her hair's top to the bottom edge) is about 90 % of the frame's height, whatever the vertical word
        // says; in 9:16 it fills the frame's width.
        expect((frame.height - seen.y0) / frame.height, aspectRatio).toBeGreaterThan(0.86);
        expect((frame.height - seen.y0) / frame.height, aspectRatio).toBeLessThan(0.94);
        if (aspectRatio === '9:16') expect(seen.x1 - seen.x0, aspectRatio).toBeGreaterThan(frame.width * 0.95);
        if (aspectRatio === '16:9') expect(seen.x1, aspectRatio).toBeLessThan(frame.width / 2 + frame.width * 0.1);
      }
    },
    RENDERS,
  );

  it(
    "full with no background: the card is the frame's backdrop, carried to its edges without a seam, in every shape",
    async () => {
      for (const aspectRatio of ASPECT_RATIOS) {
        const frame = frameSizeOf({ aspectRatio, resolution: '720p' });
        const clip = await render(frame, { botSize: 'full', position: 'bottom-center', background: undefined });
        const rgb = await frameRgb(clip.path, 0.5, frame.width, frame.height);
        const box = layoutFor(frame, 'bottom-center', artwork, { size: 'full', carriedBackdrop: true });
        const s = box.height / artwork.height;
        const luma = (x: number, y: number) => {
          const i = (y * frame.width + x) * 3;
          return 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
        };
        // Where the card's side was (inside the frame in 16:9 and 1:1), the columns either side differ by no more than
        // the card's own neighbouring columns do: no edge, no rim, no shadow.
        const cardLeft = Math.round(box.x + artwork.panel.x * s);
        if (cardLeft > 8) {
          const step = (x: number) => {
            let sum = 0;
            for (let y = Math.round(frame.height * 0.1); y < Math.round(frame.height * 0.6); y++) sum += Math.abs(luma(x, y) - luma(x - 1, y));
            return sum / Math.round(frame.height * 0.5);
          };
          const inside = (step(cardLeft + 12) + step(cardLeft + 16) + step(cardLeft + 20)) / 3;
          for (const x of [cardLeft - 2, cardLeft, cardLeft + 2, cardLeft + Math.round(3 * s)])
            expect(step(x), `${aspectRatio} column ${x}`).toBeLessThan(inside + 1.5);
        }
        // The card's blue, not the default backdrop's night blue, reaches every edge of the frame.
        for (const [x, y] of [
          [2, Math.round(frame.height * 0.3)],
          [frame.width - 3, Math.round(frame.height * 0.3)],
          [Math.round(frame.width / 2), 2],
        ] as const) {
          const i = (y * frame.width + x) * 3;
          expect(rgb[i + 2]!, `${aspectRatio} (${x}, ${y})`).toBeGreaterThan(150);
        }
      }
    },
    RENDERS,
  );

  it(
    'transitions still move a full presenter: slides in from the left and zooms out',
    async () => {
      const frame = frameSizeOf({ aspectRatio: '16:9', resolution: '720p' });
      const clip = await render(frame, { botSize: 'full', transitions: { entry: 'slide_in_left', exit: 'zoom_out' } });
      const [first, middle] = await Promise.all([
        frameRgb(clip.path, 0.05, frame.width, frame.height),
        frameRgb(clip.path, TRANSITION_SECONDS + 0.2, frame.width, frame.height),
      ]);
      const start = drawnBox(first, frame);
      const settled = drawnBox(middle, frame);
      expect(start.x1).toBeLessThan(settled.x1 - 200);
      const end = await frameRgb(clip.path, clip.durationSeconds - 0.05, frame.width, frame.height);
      const last = drawnBox(end, frame);
      // Nearly gone, or gone (no pixel of the bot left: drawnBox finds no row or column).
      const area = last.x0 < 0 ? 0 : (last.x1 - last.x0) * (last.y1 - last.y0);
      expect(area).toBeLessThan(0.3 * (settled.x1 - settled.x0) * (settled.y1 - settled.y0));
    },
    RENDERS,
  );
});

describe('a full presenter at 1080p is sharp', () => {
  /** A copy of ava's look at the canvas's own resolution (density 1): rendering it at full size is an upscale. */
  async function lowResolutionAva(): Promise<string> {
    const source = join(import.meta.dirname, '../../../functions/render/bots/ava');
    const dir = join(root, 'ava-1x');
    mkdirSync(dir, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(source, 'manifest.json'), 'utf8')) as BotManifest;
    const files = [manifest.panel.file, manifest.back, manifest.body, ...Object.values(manifest.head.frames)];
    for (const file of files) {
      const { width } = await sharp(join(source, file)).metadata();
      await sharp(join(source, file))
        .resize({ width: Math.round(width! / (manifest.density ?? 1)), kernel: 'lanczos3' })
        .toFile(join(dir, file));
    }
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, density: 1 }));
    return dir;
  }

  it(
    'its face has the detail a render upscaled from the canvas resolution lacks',
    async () => {
      const frame = frameSizeOf({ aspectRatio: '16:9', resolution: '1080p' });
      const detailOf = async (overrides: Partial<RenderClipInput>) => {
        const clip = await render(frame, { botSize: 'full' as BotSize, position: 'center', ...overrides });
        const rgb = await frameRgb(clip.path, 0.5, frame.width, frame.height);
        const head = headBoxOf(layoutFor(frame, 'center', artwork, { size: 'full' }), artwork);
        return laplacianVariance(rgb, frame, head);
      };
      const sharp2x = await detailOf({});
      const upscaled = await detailOf({ bot: { ...ava, look: 'ava-1x' }, lookDirectory: await lowResolutionAva() });
      console.log(`face detail at full 1080p: ${sharp2x.toFixed(1)} (shipped art), ${upscaled.toFixed(1)} (upscaled from 1x)`);
      expect(sharp2x).toBeGreaterThan(1.2 * upscaled);
    },
    RENDERS,
  );
});
