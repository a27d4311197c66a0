/** Burned captions with a presenter of every size: readable, inside the frame, and never over the presenter's face. */
import { describe, expect, it } from 'vitest';
import { BOT_POSITIONS, BOT_SIZES } from '#domain/choices';
import { ASPECT_RATIOS, describeShape, frameSizeOf, RESOLUTIONS, type Shape } from '#domain/shape';
import { placeCaptions } from '#functions/render/engine/burned-captions.ts';
import { faceBoxOf, layoutFor } from '#functions/render/engine/layout.ts';

const SHAPES: Shape[] = RESOLUTIONS.flatMap((resolution) => ASPECT_RATIOS.map((aspectRatio) => ({ aspectRatio, resolution })));
/** The built-in looks' canvas, card, head box and face (functions/render/bots/ava/manifest.json). */
const ARTWORK = {
  width: 520,
  height: 600,
  panel: { file: 'panel.png', x: 24, y: 20, width: 472, height: 556, radius: 40 },
  head: { x: 100, y: 50, width: 320, height: 360, frames: {} },
  face: {
    pivot: { x: 260, y: 346 },
    eyes: [
      { x: 226, y: 246 },
      { x: 294, y: 246 },
    ] as [{ x: number; y: number }, { x: number; y: number }],
    brows: [
      { x: 226, y: 219 },
      { x: 294, y: 219 },
    ] as [{ x: number; y: number }, { x: number; y: number }],
  },
};
/** The caption block's height for two lines (burned-captions.ts: line height 1.25, padding 0.22 of the font). */
const blockHeight = (font: number) => Math.ceil(font * (2 * 1.25 + 2 * 0.22));

describe('placeCaptions with every bot size', () => {
  it('keeps the captions off the face (its head box down to the chin, as the engine gives it), inside the frame and at a readable size, in every shape, size and position', () => {
    const seen = new Set<string>();
    for (const shape of SHAPES) {
      const frame = frameSizeOf(shape);
      for (const size of BOT_SIZES) {
        for (const removeBotBackground of [false, true]) {
          for (const position of BOT_POSITIONS) {
            const bot = layoutFor(frame, position, ARTWORK, { size, removeBotBackground });
            const head = faceBoxOf(bot, ARTWORK);
            const place = placeCaptions(frame, bot, 42, head);
            const where = `${describeShape(shape)} ${size} ${position} card=${!removeBotBackground}: ${place.where}`;
            seen.add(place.where);
            const top = place.bottom - blockHeight(place.fontSize);
            const apartVertically = place.bottom <= head.y || top >= head.y + head.height;
            const apartHorizontally = place.right <= head.x || place.left >= head.x + head.width;
            expect(apartVertically || apartHorizontally, where).toBe(true);
            expect(top, where).toBeGreaterThanOrEqual(0);
            expect(place.bottom, where).toBeLessThanOrEqual(frame.height);
            // Readable: at least 2.5 % of the short side (18 px at 720p), whatever rule placed it.
            expect(place.fontSize, where).toBeGreaterThanOrEqual(Math.ceil(Math.min(frame.width, frame.height) * 0.025));
          }
        }
      }
    }
    // A full presenter in a wide frame leaves no room beside or above it: its captions go over its bust.
    expect(seen).toContain('over');
  });

  it('over a full presenter in 16:9, the captions sit low over its bust, under its chin', () => {
    const frame = frameSizeOf({ aspectRatio: '16:9', resolution: '1080p' });
    for (const removeBotBackground of [false, true]) {
      const bot = layoutFor(frame, 'center', ARTWORK, { size: 'full', removeBotBackground });
      const head = faceBoxOf(bot, ARTWORK);
      const place = placeCaptions(frame, bot, 42, head);
      expect(place.where).toBe('over');
      expect(place.bottom - blockHeight(place.fontSize)).toBeGreaterThanOrEqual(head.y + head.height);
    }
  });
});
