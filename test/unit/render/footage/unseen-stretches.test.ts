/**
 * A video bot's look marks the frames where no face was seen facing the camera (none found, or turned away), so
 * that the rig lays no mouth on them (docs/video-bots.md).
 */
import { describe, expect, it } from 'vitest';
import type { Point } from '#domain/face-space';
import { unseenStretches } from '#functions/prepare/footage/footage-track.ts';

/** 68 landmarks with the nose's tip `across` of the way from the jaw's left end to its right. */
const face = (across: number): Point[] =>
  Array.from({ length: 68 }, (_, i) => ({ x: i === 0 ? 0 : i === 16 ? 100 : i === 30 ? 100 * across : 50, y: 50 }));

describe('unseenStretches', () => {
  it('gives the [from, to) stretches of frames with no face or a face turned away', () => {
    const frontal = face(0.5);
    const turned = face(0.9);
    const raw = [frontal, undefined, undefined, frontal, turned, frontal, undefined];
    expect(unseenStretches(raw)).toEqual([
      [1, 3],
      [4, 5],
      [6, 7],
    ]);
    expect(unseenStretches([frontal, frontal])).toEqual([]);
  });
});
