/**
 * A real look's geometry for the video bot's blend tests (test/fixtures/render/mouth-blend-geometry.json): loop frames'
 * landmarks, the reference face and atlas samples, from recording 1; the tests draw their own pixels on it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MouthSample } from '#domain/look';

export interface BlendGeometry {
  frameWidth: number;
  frameHeight: number;
  eyePx: number;
  sheet: { width: number; height: number };
  reference: [number, number][];
  frames: [number, number][][];
  samples: MouthSample[];
}

export const blendGeometry = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/render/mouth-blend-geometry.json'), 'utf8'),
) as BlendGeometry;

/** The fixture's [x, y] pairs as points. */
export const points = (list: [number, number][]) => list.map(([x, y]) => ({ x, y }));
