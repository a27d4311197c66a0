/**
 * Text overlays drawn into real frames by libass: where they were placed and only within their time, markup shown
 * as written, Arabic joined and right to left, Chinese drawn as glyphs (not missing-glyph boxes), and a clip
 * rendered by the engine with a theme.
 */

import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BotPosition } from '#domain/choices';
import type { TextOverlay, Theme } from '#domain/overlays';
import { DEFAULT_THEME } from '#domain/overlays';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { runFfmpeg } from '#functions/media/media.ts';
import { captionsScript, placeCaptions } from '#functions/render/engine/burned-captions.ts';
import { fontFilePath, fontsFor, THEME_FONT_FILES } from '#functions/render/engine/fonts.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { overlayEvent, overlayStyles, type PlacedText, placeTextOverlays, type Rect } from '#functions/render/engine/text-overlays.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { ava, scratchDir } from '../../support/captions.ts';
import { frameRgb, pixel } from '../../support/render-media.ts';

const root = scratchDir('vidbot-overlays-');
const FRAME = frameSizeOf(DEFAULT_SHAPE);
const BACKDROP = [0x80, 0x90, 0xa0];
/** A presenter out of the way (bottom-right), as the layout would put one. */
const PRESENTER: Rect = { x: 980, y: 370, width: 276, height: 326 };

const overlay = (
  text: string,
  style: TextOverlay['style'] = 'title',
  position: BotPosition = 'top-center',
  start = 0,
  end?: number,
): TextOverlay => ({
  type: 'text',
  text,
  style,
  start,
  ...(end !== undefined && { end }),
  position,
});

/** Draws overlays over a plain frame with the ass filter and the fonts they need, as the engine does; one frame at `at` seconds. */
async function draw(overlays: TextOverlay[], at = 1, theme: Theme = DEFAULT_THEME): Promise<{ frame: Buffer; placed: PlacedText[] }> {
  const font = THEME_FONT_FILES[theme.font];
  const placed = placeTextOverlays(FRAME, overlays, { presenter: PRESENTER }, 3, font);
  const dir = mkdtempSync(join(root, 'ass-'));
  const script = captionsScript([], FRAME, placeCaptions(FRAME, PRESENTER), theme, {
    styles: overlayStyles(theme, font),
    events: placed.map((p) => overlayEvent(p, font, FRAME)),
  });
  writeFileSync(join(dir, 't.ass'), script);
  for (const file of fontsFor(
    placed.flatMap((p) => p.lines),
    font,
  ))
    copyFileSync(fontFilePath(file), join(dir, file.file));
  const { stdout } = await runFfmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      `color=c=0x8090a0:s=${FRAME.width}x${FRAME.height}:r=10:d=3`,
      '-vf',
      `ass=filename=${dir}/t.ass:fontsdir=${dir}`,
      '-ss',
      at.toFixed(2),
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
  return { frame: stdout, placed };
}

/** The pixels that differ from the plain backdrop: their count and bounding box. */
function ink(frame: Buffer, within: Rect = { x: 0, y: 0, width: FRAME.width, height: FRAME.height }) {
  const box = { count: 0, top: Infinity, bottom: -1, left: Infinity, right: -1 };
  for (let y = within.y; y < within.y + within.height; y++)
    for (let x = within.x; x < within.x + within.width; x++) {
      const [r, g, b] = pixel(frame, x, y, FRAME.width);
      if (Math.abs(r - BACKDROP[0]!) + Math.abs(g - BACKDROP[1]!) + Math.abs(b - BACKDROP[2]!) <= 30) continue;
      box.count++;
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y);
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x);
    }
  return box;
}

/** Pixels that differ between two frames. */
function differing(a: Buffer, b: Buffer): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 3) if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 60) n++;
  return n;
}

describe('text overlays drawn by libass', () => {
  it('are drawn inside the box they were placed in, and only between their start and end', async () => {
    const title = [overlay('Quarterly results', 'title', 'top-center', 1, 2)];
    const before = await draw(title, 0.5);
    const during = await draw(title, 1.5);
    const after = await draw(title, 2.5);
    expect(ink(before.frame).count).toBe(0);
    expect(ink(after.frame).count).toBe(0);
    const box = during.placed[0]!.box;
    const drawn = ink(during.frame);
    expect(drawn.count).toBeGreaterThan(3000);
    // The text and its shadow, inside the placed box (a few pixels of shadow and antialiasing aside).
    expect(drawn.left).toBeGreaterThanOrEqual(box.x - 4);
    expect(drawn.right).toBeLessThanOrEqual(box.x + box.width + 4);
    expect(drawn.top).toBeGreaterThanOrEqual(box.y - 4);
    expect(drawn.bottom).toBeLessThanOrEqual(box.y + box.height + 8);
    // Centred in the frame, as a top-center title.
    expect(Math.abs((drawn.left + drawn.right) / 2 - FRAME.width / 2)).toBeLessThan(20);
  });

  it('draws a lower third as a bar of the theme colour, its text in the text colour', async () => {
    const theme: Theme = { font: 'montserrat', primaryColor: '#C2410C', textColor: '#FFFF00' };
    const { frame, placed } = await draw([overlay('Ava Martin\nHost', 'lower_third', 'bottom-left')], 1.5, theme);
    const { box } = placed[0]!;
    let bar = 0;
    let text = 0;
    for (let y = box.y; y < box.y + box.height; y++)
      for (let x = box.x; x < box.x + box.width; x++) {
        const [r, g, b] = pixel(frame, x, y, FRAME.width);
        if (Math.abs(r - 0xc2) + Math.abs(g - 0x41) + Math.abs(b - 0x0c) < 30) bar++;
        if (r > 230 && g > 230 && b < 40) text++;
      }
    // One box a line (the role's is narrower): most of the box is the bar.
    expect(bar).toBeGreaterThan(box.width * box.height * 0.25);
    expect(text).toBeGreaterThan(300);
  });

  it('shows markup as written: an override block, a line break and a font change are drawn as characters', async () => {
    const hostile = ink((await draw([overlay('{\\b1}x\\N y {\\fnArial}')])).frame);
    // The same characters with the markup's meaning gone (parentheses for braces, a slash for the backslash): drawn
    // as one line of the same height and nearly the same width. Read as markup, the text would be two lines ("x"
    // in bold, then " y") and far narrower.
    const safe = ink((await draw([overlay('(/b1)x/N y (/fnArial)')])).frame);
    expect(Math.abs(hostile.bottom - hostile.top - (safe.bottom - safe.top))).toBeLessThanOrEqual(4);
    expect(Math.abs(hostile.right - hostile.left - (safe.right - safe.left))).toBeLessThan(0.1 * (safe.right - safe.left));
    expect(hostile.count).toBeGreaterThan(0.7 * safe.count);
  });

  it('draws Arabic joined and right to left', async () => {
    // Joined: three behs in their initial, medial and final forms are narrower than three isolated ones (a
    // zero-width non-joiner between them keeps them apart).
    const joined = ink((await draw([overlay('ببب')])).frame);
    const apart = ink((await draw([overlay('ب\u200cب\u200cب')])).frame);
    expect(joined.count).toBeGreaterThan(500);
    expect(joined.right - joined.left).toBeLessThan(0.8 * (apart.right - apart.left));
    // Right to left: in "اب" the alef (a tall stroke) comes first, so it is drawn at the right end.
    const { frame } = await draw([overlay('اب')]);
    const word = ink(frame);
    const tallColumns: number[] = [];
    for (let x = word.left; x <= word.right; x++) {
      let top = word.bottom;
      for (let y = word.top; y <= word.bottom; y++)
        if (Math.abs(pixel(frame, x, y)[0]! - BACKDROP[0]!) > 100) {
          top = y;
          break;
        }
      if (top < word.top + (word.bottom - word.top) * 0.2) tallColumns.push(x);
    }
    expect(tallColumns.length).toBeGreaterThan(0);
    expect(Math.min(...tallColumns)).toBeGreaterThan((word.left + word.right) / 2);
  });

  it('draws Chinese and Japanese as glyphs, not missing-glyph boxes', async () => {
    const a = await draw([overlay('你好世界')]);
    const b = await draw([overlay('世界你好')]);
    const kana = await draw([overlay('こんにちは')]);
    // Missing glyphs would all be the same box: the same characters in another order would draw the same pixels.
    expect(ink(a.frame).count).toBeGreaterThan(2000);
    expect(differing(a.frame, b.frame)).toBeGreaterThan(1000);
    const missing = await draw([overlay('\ue000\ue001\ue002\ue003')]);
    expect(differing(a.frame, missing.frame)).toBeGreaterThan(1000);
    expect(ink(kana.frame).count).toBeGreaterThan(2000);
  });
});

describe('a clip rendered with text overlays', () => {
  it("draws a title in the theme's text colour during its window only, clear of the presenter, with the captions in that colour", async () => {
    const theme: Theme = { font: 'inter', primaryColor: '#000000', textColor: '#FF00FF' };
    const clip = await renderClip({
      bot: ava,
      text: 'A title shows above me for a moment.',
      position: 'bottom-right',
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: {},
      mode: 'video',
      frame: FRAME,
      voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
      speech: new EspeakSpeechEngine(),
      workDir: mkdtempSync(join(root, 'clip-')),
      captions: 'burn',
      theme,
      overlays: [overlay('HELLO', 'title', 'top-center', 0.2, 1.2)],
    });
    const magentaIn = (frame: Buffer, rows: [number, number]) => {
      let n = 0;
      for (let y = rows[0]; y < rows[1]; y++)
        for (let x = 0; x < FRAME.width; x++) {
          const [r, g, b] = pixel(frame, x, y);
          if (r > 200 && g < 80 && b > 200) n++;
        }
      return n;
    };
    const top: [number, number] = [0, Math.round(FRAME.height * 0.3)];
    const bottom: [number, number] = [Math.round(FRAME.height * 0.7), FRAME.height];
    const during = await frameRgb(clip.path, 0.8);
    // After the title's end, while the captions still show.
    const later = await frameRgb(clip.path, 1.5);
    expect(clip.cues[0]!.endSeconds).toBeGreaterThan(1.6);
    expect(magentaIn(during, top)).toBeGreaterThan(1000);
    expect(magentaIn(later, top)).toBe(0);
    // The captions take the theme's text colour too.
    expect(magentaIn(later, bottom)).toBeGreaterThan(500);
  }, 60_000);
});
