/**
 * How well a mouth sample meets a frame along the seam once its colour is matched (mouth-blend.ts seamMismatches):
 * what the footage rig chooses a sample by. On a real look's geometry (test/fixtures/render/mouth-blend-geometry.json)
 * with pixels drawn here: a sample that differs from the frame by light alone (an offset and a slope, which the colour
 * match's plane takes away) meets it; one whose pattern differs across the seam does not.
 */
import { describe, expect, it } from 'vitest';
import { lowerFaceSize } from '#domain/face-space';
import type { MouthSample } from '#domain/look';
import { type AtlasSheet, seamMismatches } from '#functions/render/engine/footage/mouth-blend.ts';
import { blendGeometry, points } from '../../../support/mouth-blend-geometry.ts';

const geometry = blendGeometry;
const { frameWidth: width, frameHeight: height, eyePx } = geometry;
const tile = lowerFaceSize(eyePx);

/** A frame of one skin colour, RGBA. */
const frame = Buffer.alloc(width * height * 4);
for (let p = 0; p < frame.length; p += 4) frame.set([178, 128, 112, 255], p);

/** Two tiles side by side: the first the frame's colour darker and lit from the left, the second with stripes. */
const sheet: AtlasSheet = { width: 2 * tile.width, height: tile.height, rgb: Buffer.alloc(2 * tile.width * tile.height * 3) };
for (let y = 0; y < tile.height; y++)
  for (let x = 0; x < sheet.width; x++) {
    const u = x % tile.width;
    const lit = 150 + (20 * u) / tile.width;
    const stripes = x >= tile.width && Math.floor(u / 4) % 2 === 0 ? 40 : 0;
    sheet.rgb.set([lit + stripes, lit - 40 + stripes, lit - 55 + stripes], (y * sheet.width + x) * 3);
  }
const lit: MouthSample = { ...geometry.samples[0]!, x: 0, y: 0 };
const striped: MouthSample = { ...geometry.samples[0]!, x: tile.width, y: 0 };

describe('how well a mouth sample meets a frame along the seam', () => {
  it('takes a difference of light alone for a match, and tells a sample whose pattern differs across the seam', () => {
    for (const landmarks of geometry.frames.map(points)) {
      const input = { frame, width, height, landmarks, reference: points(geometry.reference), eyePx, sheet };
      const [matched, unlike] = seamMismatches(input, [lit, striped]);
      // Levels of 255, the root mean square of what the plane leaves: bilinear sampling of a linear ramp is linear.
      expect(matched).toBeLessThan(0.5);
      expect(unlike).toBeGreaterThan(10);
    }
  });
});
