/**
 * Captions burned into real frames at 1280x720 and in a portrait frame: placed in the safe area, clear of the
 * presenter, legible, and only in a script the caption font can draw.
 */

import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Cue } from '#domain/captions';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { runFfmpeg } from '#functions/media/media.ts';
import { captionFontPath, captionsScript, placeCaptions } from '#functions/render/engine/burned-captions.ts';
import { renderClip, type VideoClipInput } from '#functions/render/engine/index.ts';
import { botHeightFor, layoutFor } from '#functions/render/engine/layout.ts';
import { rigFor } from '#functions/render/engine/rigs/rig.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { ava, scratchDir, shown } from '../../support/captions.ts';
import { frameRgb, pixel } from '../../support/render-media.ts';

const root = scratchDir('vidbot-captions-');
const FRAME = frameSizeOf(DEFAULT_SHAPE);

/** Draws cues over a plain frame with the ass filter and the caption font; the rectangle of changed pixels. */
async function drawnBox(
  cues: Cue[],
  frame: { width: number; height: number },
  bot: { x: number; y: number; width: number; height: number },
  longest: number,
) {
  const place = placeCaptions(frame, bot, longest);
  const dir = mkdtempSync(join(root, 'ass-'));
  writeFileSync(join(dir, 'c.ass'), captionsScript(cues, frame, place));
  copyFileSync(captionFontPath(), join(dir, 'caption-font.ttf'));
  const { stdout } = await runFfmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      `color=c=0x8090a0:s=${frame.width}x${frame.height}:d=1`,
      '-vf',
      `ass=filename=${dir}/c.ass:fontsdir=${dir}`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { budgetSeconds: 30, captureStdout: true },
  );
  const changed = { top: Infinity, bottom: -1, left: Infinity, right: -1, fontSize: place.fontSize, place };
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const [r, g, b] = pixel(stdout, x, y, frame.width);
      if (Math.abs(r - 0x80) + Math.abs(g - 0x90) + Math.abs(b - 0xa0) <= 24) continue;
      changed.top = Math.min(changed.top, y);
      changed.bottom = Math.max(changed.bottom, y);
      changed.left = Math.min(changed.left, x);
      changed.right = Math.max(changed.right, x);
    }
  }
  return changed;
}

describe('burned captions', () => {
  it('are placed in the safe area, clear of the presenter, higher up in a portrait frame', () => {
    const landscape = { width: 1280, height: 720 };
    const bottomRight = { x: 980, y: 370, width: 276, height: 326 };
    expect(placeCaptions(landscape, { x: 24, y: 24, width: 276, height: 326 })).toMatchObject({
      where: 'bottom',
      left: 64,
      right: 1216,
      bottom: 677,
    });
    const beside = placeCaptions(landscape, bottomRight);
    expect(beside).toMatchObject({ where: 'beside', left: 64, bottom: 677 });
    expect(beside.right).toBeLessThanOrEqual(bottomRight.x);
    const portrait = { width: 720, height: 1280 };
    // A presenter across the bottom of a vertical frame: the captions go above it.
    const above = placeCaptions(portrait, { x: 160, y: 880, width: 400, height: 400 });
    expect(above).toMatchObject({ where: 'above', bottom: 880 - 22 });
    // Nothing in the way: 20 % of the height up from the bottom, not 6 %.
    expect(placeCaptions(portrait, { x: 24, y: 24, width: 200, height: 240 })).toMatchObject({ where: 'bottom', bottom: 1024 });
  });

  it('draws legible captions into a 1280x720 clip where they were placed, and nowhere near the presenter', async () => {
    const text = 'Captions are drawn on a box. They stay clear of the presenter.';
    const base: Omit<VideoClipInput, 'workDir' | 'captions'> = {
      bot: ava,
      text,
      position: 'bottom-right',
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: { entry: 'fade_in' },
      mode: 'video',
      frame: FRAME,
      voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
      speech: new EspeakSpeechEngine(),
    };
    const plain = await renderClip({ ...base, workDir: mkdtempSync(join(root, 'plain-')) });
    const burned = await renderClip({ ...base, workDir: mkdtempSync(join(root, 'burn-')), captions: 'burn' });
    expect(plain.captionsBurned).toBe(false);
    expect(burned.captionsBurned).toBe(true);
    expect(burned.cues).toEqual(plain.cues);
    expect(burned.cues[0]!.startSeconds).toBeGreaterThanOrEqual(0.6);

    const sprites = loadSprites(ava.look, botHeightFor(FRAME, 'bottom-right'));
    const compositor = rigFor(sprites, { withPanel: true });
    const bot = layoutFor(FRAME, 'bottom-right', sprites.manifest);
    const longest = Math.max(...burned.cues.flatMap((c) => c.lines.map((l) => l.length)));
    const place = placeCaptions(FRAME, { x: bot.x, y: bot.y, width: compositor.width, height: compositor.height }, longest);
    expect(place.where).toBe('beside');

    for (const cue of burned.cues) {
      const at = (cue.startSeconds + cue.endSeconds) / 2;
      const [a, b] = [await frameRgb(plain.path, at), await frameRgb(burned.path, at)];
      let inside = 0;
      let white = 0;
      let outside = 0;
      for (let y = 0; y < FRAME.height; y += 2) {
        for (let x = 0; x < FRAME.width; x += 2) {
          const [p, q] = [pixel(a, x, y), pixel(b, x, y)];
          if (Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) <= 30) continue;
          const box = x >= place.left && x < place.right && y < place.bottom && y >= place.bottom - place.fontSize * 3.2;
          if (box) inside++;
          // Elsewhere only the encoder's noise may differ (bits spent on the captions change its choices).
          else if (Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) > 90) outside++;
          if (box && q[0] > 220 && q[1] > 220 && q[2] > 220) white++;
        }
      }
      // The caption's box and its white letters are there, and nothing was drawn elsewhere (the presenter included).
      expect(inside, `cue "${cue.lines.join(' / ')}"`).toBeGreaterThan(1500);
      expect(white).toBeGreaterThan(150);
      // (A caption drawn there would be thousands of pixels; the encoder's noise at sharp edges is a few.)
      expect(outside).toBeLessThan(20);
    }
  }, 120_000);

  it('does not burn text the font cannot draw (here Hebrew), and still makes its cues in that text', async () => {
    const text = 'שלום עולם, ברוכים הבאים.';
    const clip = await renderClip({
      bot: ava,
      text,
      position: 'bottom-right',
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: {},
      mode: 'video',
      frame: FRAME,
      voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
      speech: new EspeakSpeechEngine(),
      captions: 'burn',
      workDir: mkdtempSync(join(root, 'hebrew-')),
    });
    expect(clip.captionsBurned).toBe(false);
    expect(shown(clip.cues)).toBe(text);
  }, 60_000);

  it("draws a caller's braces and backslashes as text, never as ASS markup (no size change, no extra line)", async () => {
    const line = '{\\fs120}big} \\N x \\{ back\\slash';
    const box = await drawnBox(
      [{ startSeconds: 0, endSeconds: 2, lines: [line] }],
      { width: 1280, height: 720 },
      { x: 1000, y: 400, width: 250, height: 300 },
      line.length,
    );
    expect(box.bottom - box.top).toBeLessThan(box.fontSize * 1.6);
    expect(box.right - box.left).toBeGreaterThan(box.fontSize * 8);
  });

  it('draws in a 720x1280 portrait frame with the same font and layout rules', async () => {
    const frame = { width: 720, height: 1280 };
    const bot = { x: 160, y: 880, width: 400, height: 400 };
    const cues: Cue[] = [{ startSeconds: 0, endSeconds: 2, lines: ['Vertical video, captions above', 'the presenter and inside the margins'] }];
    const changed = await drawnBox(cues, frame, bot, 36);
    const place = changed.place;
    expect(place.where).toBe('above');
    // Two lines drawn above the presenter, inside the 5 % side margins, none of it on the presenter.
    expect(changed.bottom).toBeLessThan(bot.y);
    expect(changed.bottom).toBeGreaterThan(bot.y - 60);
    expect(changed.bottom - changed.top).toBeGreaterThan(place.fontSize * 2);
    expect(changed.left).toBeGreaterThanOrEqual(36);
    expect(changed.right).toBeLessThan(720 - 36);
  });
});
