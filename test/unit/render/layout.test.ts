/** The frame of each shape and where the bot stands in it: pure arithmetic, no artwork, no ffmpeg. */
import { describe, expect, it } from 'vitest';
import { BOT_POSITIONS, BOT_SIZES } from '#domain/choices';
import { ASPECT_RATIOS, DEFAULT_SHAPE, describeShape, frameSizeOf, RESOLUTIONS, type Shape, sameShape } from '#domain/shape';
import { botHeightFor, FULL_EYE_LINE, faceBoxOf, headBoxOf, layoutFor, safeMarginOf } from '#functions/render/engine/layout.ts';

const SHAPES: Shape[] = RESOLUTIONS.flatMap((resolution) => ASPECT_RATIOS.map((aspectRatio) => ({ aspectRatio, resolution })));
/** The built-in looks' canvas, card and head box (functions/render/bots/ava/manifest.json). */
const ARTWORK = {
  width: 520,
  height: 600,
  panel: { file: 'panel.png', x: 24, y: 20, width: 472, height: 556, radius: 40 },
  head: { x: 100, y: 50, width: 320, height: 360, frames: {} },
};
const area = (b: { width: number; height: number }) => b.width * b.height;

describe('frameSizeOf', () => {
  it.each([
    ['16:9', '720p', 1280, 720],
    ['16:9', '1080p', 1920, 1080],
    ['9:16', '720p', 720, 1280],
    ['9:16', '1080p', 1080, 1920],
    ['1:1', '720p', 720, 720],
    ['1:1', '1080p', 1080, 1080],
  ] as const)('%s %s is %ix%i', (aspectRatio, resolution, width, height) => {
    expect(frameSizeOf({ aspectRatio, resolution })).toEqual({ width, height });
  });

  it('names a shape with its size, and tells shapes apart', () => {
    expect(describeShape({ aspectRatio: '9:16', resolution: '1080p' })).toBe('9:16 1080p (1080x1920)');
    expect(sameShape(DEFAULT_SHAPE, { aspectRatio: '16:9', resolution: '720p' })).toBe(true);
    expect(sameShape(DEFAULT_SHAPE, { aspectRatio: '16:9', resolution: '1080p' })).toBe(false);
    expect(sameShape(DEFAULT_SHAPE, { aspectRatio: '1:1', resolution: '720p' })).toBe(false);
  });
});

describe('layoutFor', () => {
  it('keeps the 1280x720 layout it always had: 332 px at the edges, 460 in the centre, 24 px from the edges', () => {
    const frame = frameSizeOf(DEFAULT_SHAPE);
    expect(layoutFor(frame, 'top-left', ARTWORK)).toEqual({ x: 24, y: 24, width: 288, height: 332 });
    expect(layoutFor(frame, 'bottom-right', ARTWORK)).toEqual({ x: 1280 - 288 - 24, y: 720 - 332 - 24, width: 288, height: 332 });
    expect(layoutFor(frame, 'center', ARTWORK)).toEqual({ x: Math.round((1280 - 399) / 2), y: 130, width: 399, height: 460 });
  });

  it('sizes the bot as the same share of the shorter side in every shape', () => {
    for (const shape of SHAPES) {
      const frame = frameSizeOf(shape);
      const short = Math.min(frame.width, frame.height);
      expect(botHeightFor(frame, 'bottom-left') / short).toBeCloseTo(332 / 720, 2);
      expect(botHeightFor(frame, 'center') / short).toBeCloseTo(460 / 720, 2);
      expect(safeMarginOf(frame)).toBe(short === 720 ? 24 : 36);
    }
  });

  it('puts a top-left bot in the top-left corner of a vertical frame, a safe margin in from both edges', () => {
    const frame = frameSizeOf({ aspectRatio: '9:16', resolution: '1080p' });
    const box = layoutFor(frame, 'top-left', ARTWORK);
    expect(box).toMatchObject({ x: 36, y: 36, height: 498 });
    expect(box.x + box.width).toBeLessThan(frame.width / 2);
    expect(box.y + box.height).toBeLessThan(frame.height / 2);
  });

  it('keeps every position inside the safe margins, where its words say, each somewhere else, in every shape', () => {
    for (const shape of SHAPES) {
      const frame = frameSizeOf(shape);
      const margin = safeMarginOf(frame);
      const seen = new Set<string>();
      for (const position of BOT_POSITIONS) {
        const box = layoutFor(frame, position, ARTWORK);
        const where = `${describeShape(shape)} ${position}`;
        expect(box.x, where).toBeGreaterThanOrEqual(margin);
        expect(box.y, where).toBeGreaterThanOrEqual(margin);
        expect(box.x + box.width, where).toBeLessThanOrEqual(frame.width - margin);
        expect(box.y + box.height, where).toBeLessThanOrEqual(frame.height - margin);
        const [vertical, horizontal] = position === 'center' ? ['center', 'center'] : position.split('-');
        const cx = box.x + box.width / 2;
        const cy = box.y + box.height / 2;
        if (horizontal === 'left') expect(box.x, where).toBe(margin);
        if (horizontal === 'right') expect(box.x + box.width, where).toBe(frame.width - margin);
        if (horizontal === 'center') expect(Math.abs(cx - frame.width / 2), where).toBeLessThanOrEqual(1);
        if (vertical === 'top') expect(box.y, where).toBe(margin);
        if (vertical === 'bottom') expect(box.y + box.height, where).toBe(frame.height - margin);
        if (vertical === 'center') expect(Math.abs(cy - frame.height / 2), where).toBeLessThanOrEqual(1);
        seen.add(`${box.x},${box.y}`);
      }
      expect(seen.size).toBe(BOT_POSITIONS.length);
    }
  });

  it('stands a card-less bot at a bottom position on the bottom edge, overshooting it slightly', () => {
    for (const shape of SHAPES) {
      const frame = frameSizeOf(shape);
      for (const size of BOT_SIZES) {
        const box = layoutFor(frame, 'bottom-center', ARTWORK, { size, removeBotBackground: true });
        const bustBottom = Math.round(((ARTWORK.panel.y + ARTWORK.panel.height) * box.height) / ARTWORK.height);
        const overshoot = box.y + bustBottom - frame.height;
        expect(overshoot, `${describeShape(shape)} ${size}`).toBeGreaterThanOrEqual(2);
        expect(overshoot, `${describeShape(shape)} ${size}`).toBeLessThanOrEqual(3);
      }
    }
  });
});

describe('layoutFor: bot sizes', () => {
  it('keeps medium as it was, and grows small < medium < large < full in every shape and position', () => {
    for (const shape of SHAPES) {
      const frame = frameSizeOf(shape);
      for (const position of BOT_POSITIONS) {
        const [small, medium, large, full] = BOT_SIZES.map((size) => layoutFor(frame, position, ARTWORK, { size }));
        expect(medium).toEqual(layoutFor(frame, position, ARTWORK));
        const where = `${describeShape(shape)} ${position}`;
        expect(area(small!), where).toBeLessThan(area(medium!));
        expect(area(medium!), where).toBeLessThan(area(large!));
        expect(area(large!), where).toBeLessThan(area(full!));
      }
    }
  });

  it('keeps small and large inside the safe margins where the position says, as the same share of the short side in every shape', () => {
    for (const shape of SHAPES) {
      const frame = frameSizeOf(shape);
      const short = Math.min(frame.width, frame.height);
      const margin = safeMarginOf(frame);
      expect(botHeightFor(frame, 'bottom-left', 'small') / short).toBeCloseTo(232 / 720, 2);
      expect(botHeightFor(frame, 'bottom-left', 'large') / short).toBeCloseTo(480 / 720, 2);
      expect(botHeightFor(frame, 'center', 'large') / short).toBeCloseTo(600 / 720, 2);
      for (const size of ['small', 'large'] as const) {
        for (const position of BOT_POSITIONS) {
          const box = layoutFor(frame, position, ARTWORK, { size });
          const where = `${describeShape(shape)} ${size} ${position}`;
          expect(box.x, where).toBeGreaterThanOrEqual(margin);
          expect(box.y, where).toBeGreaterThanOrEqual(margin);
          expect(box.x + box.width, where).toBeLessThanOrEqual(frame.width - margin);
          expect(box.y + box.height, where).toBeLessThanOrEqual(frame.height - margin);
          if (position.endsWith('right')) expect(box.x + box.width, where).toBe(frame.width - margin);
          if (position.startsWith('bottom')) expect(box.y + box.height, where).toBe(frame.height - margin);
        }
      }
    }
  });

  it('full: the eyes on the line 38 % down the frame in every shape, the bust standing on the bottom edge, never off the top or (with room) the sides', () => {
    for (const shape of SHAPES) {
      const frame = frameSizeOf(shape);
      for (const [removeBotBackground, carriedBackdrop] of [
        [false, false],
        [false, true],
        [true, false],
      ] as const) {
        for (const position of BOT_POSITIONS) {
          const box = layoutFor(frame, position, ARTWORK, { size: 'full', removeBotBackground, carriedBackdrop });
          const scale = box.height / ARTWORK.height;
          const where = `${describeShape(shape)} ${position} card=${!removeBotBackground} carried=${carriedBackdrop}`;
          const cut = removeBotBackground || carriedBackdrop ? 0 : ARTWORK.panel.radius;
          const standRow = (ARTWORK.panel.y + ARTWORK.panel.height - cut) * scale;
          // ARTWORK has no face: its eyes are where the built-in art has them in its head box (246). A card drawn
          // over a background has its rounded foot below the edge: the presenter is that much lower.
          const eyes = box.y + 246 * scale;
          expect(eyes / frame.height, where).toBeCloseTo(FULL_EYE_LINE + (cut * scale) / frame.height, 2);
          expect(box.y + standRow, where).toBeGreaterThanOrEqual(frame.height);
          expect(box.y + standRow, where).toBeLessThanOrEqual(frame.height + 4);
          // The head's box starts inside the frame.
          expect(box.y + ARTWORK.head.y * scale, where).toBeGreaterThanOrEqual(0);
          if (box.width <= frame.width) {
            expect(box.x, where).toBeGreaterThanOrEqual(0);
            expect(box.x + box.width, where).toBeLessThanOrEqual(frame.width);
          } else {
            // Wider than a vertical frame: centred, its shoulders cut evenly by the sides.
            expect(shape.aspectRatio, where).toBe('9:16');
            expect(Math.abs(box.x + box.width / 2 - frame.width / 2), where).toBeLessThanOrEqual(1);
          }
        }
      }
    }
  });

  it("full: a look whose head box sits at its card's foot (drawings with only a mouth) gets a bounded canvas, not gigabytes", () => {
    const mouthAtFoot = {
      width: 512,
      height: 640,
      panel: { file: 'panel.png', x: 0, y: 0, width: 512, height: 640, radius: 0 },
      head: { x: 200, y: 600, width: 100, height: 40, frames: {} },
    };
    for (const shape of [
      { aspectRatio: '16:9', resolution: '1080p' },
      { aspectRatio: '9:16', resolution: '1080p' },
    ] as Shape[]) {
      const frame = frameSizeOf(shape);
      const height = botHeightFor(frame, 'bottom-center', 'full', mouthAtFoot);
      expect(height).toBeGreaterThan(0);
      expect(height).toBeLessThanOrEqual(2 * frame.height);
    }
  });

  it('full: only the horizontal word of the position counts', () => {
    const frame = frameSizeOf({ aspectRatio: '16:9', resolution: '1080p' });
    const full = (position: (typeof BOT_POSITIONS)[number]) => layoutFor(frame, position, ARTWORK, { size: 'full' });
    expect(full('top-left')).toEqual(full('bottom-left'));
    expect(full('top-center')).toEqual(full('center'));
    expect(full('center-right')).toEqual(full('bottom-right'));
    expect(full('bottom-left').x).toBe(safeMarginOf(frame));
    expect(full('bottom-right').x + full('bottom-right').width).toBe(frame.width - safeMarginOf(frame));
    expect(full('bottom-left').x).toBeLessThan(full('center').x);
  });

  it('headBoxOf scales the head box into the frame', () => {
    const frame = frameSizeOf({ aspectRatio: '16:9', resolution: '1080p' });
    const box = layoutFor(frame, 'center', ARTWORK, { size: 'full' });
    const head = headBoxOf(box, ARTWORK);
    const scale = box.height / ARTWORK.height;
    expect(head.x).toBe(Math.round(box.x + 100 * scale));
    expect(head.y).toBe(Math.round(box.y + 50 * scale));
    expect(head.width).toBe(Math.round(320 * scale));
  });

  it("faceBoxOf ends the head box at the face's pivot under the chin, where the look knows it", () => {
    const frame = frameSizeOf({ aspectRatio: '9:16', resolution: '720p' });
    const face = {
      pivot: { x: 260, y: 346 },
      eyes: [
        { x: 226, y: 246 },
        { x: 294, y: 246 },
      ],
      brows: [
        { x: 226, y: 219 },
        { x: 294, y: 219 },
      ],
    } as const;
    const box = layoutFor(frame, 'center', ARTWORK, { size: 'full' });
    const scale = box.height / ARTWORK.height;
    expect(faceBoxOf(box, ARTWORK)).toEqual(headBoxOf(box, ARTWORK));
    const withFace = faceBoxOf(box, { ...ARTWORK, face: { ...face, eyes: [...face.eyes], brows: [...face.brows] } });
    expect(withFace.y + withFace.height).toBe(Math.round(box.y + 346 * scale));
    expect(withFace.y).toBe(headBoxOf(box, ARTWORK).y);
  });
});
