/** The frame of each shape and where the bot stands in it: pure arithmetic, no artwork, no ffmpeg. */
import { describe, expect, it } from 'vitest';
import { BOT_POSITIONS } from '#domain/choices';
import { ASPECT_RATIOS, DEFAULT_SHAPE, describeShape, frameSizeOf, RESOLUTIONS, type Shape, sameShape } from '#domain/shape';
import { botHeightFor, layoutFor, safeMarginOf } from '#functions/render/engine/layout.ts';

const SHAPES: Shape[] = RESOLUTIONS.flatMap((resolution) => ASPECT_RATIOS.map((aspectRatio) => ({ aspectRatio, resolution })));
/** The built-in looks' canvas (their manifest's width and height). */
const ARTWORK = { width: 520, height: 600 };

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
      const box = layoutFor(frame, 'bottom-center', ARTWORK, { flushBottom: 300 });
      const overshoot = box.y + 300 - frame.height;
      expect(overshoot).toBeGreaterThanOrEqual(2);
      expect(overshoot).toBeLessThanOrEqual(3);
    }
  });
});
