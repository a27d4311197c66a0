/**
 * A video bot's loops are bounded: however long the recording, a loop is at most LONGEST_MATTED_LOOP frames, so
 * its matte's key frames stay a second apart and what the matte costs (ISNet on each key, the other frames carried)
 * is bounded (docs/video-bots.md, "Removing the background").
 */
import { describe, expect, it } from 'vitest';
import type { Point } from '#domain/face-space';
import { chooseLoop, loopWithin } from '#functions/prepare/footage/footage-loop.ts';
import { keyFramesOf, LONGEST_MATTED_LOOP, matteLoop } from '#functions/prepare/footage/footage-matte.ts';

const FPS = 30;
/** A face of 68 points: eyes 60 px apart, the rest spread around them; moved `dx` px sideways. */
const face = (dx: number): Point[] =>
  Array.from({ length: 68 }, (_, i) => ({ x: 100 + dx + (i >= 42 && i <= 47 ? 60 : 0) + (i % 7) * 3, y: 100 + (i % 11) * 4 }));

/** `frames` frames of a head swaying sideways with the given period (frames), and their thumbnails following it. */
function swaying(frames: number, period: number) {
  const sway = (n: number) => 12 * Math.sin((2 * Math.PI * n) / period);
  const track = Array.from({ length: frames }, (_, n) => face(sway(n)));
  const thumbs = Array.from({ length: frames }, (_, n) =>
    Uint8Array.from({ length: 40 * 22 }, (_, i) => (i * 7 + 128 + Math.round(sway(n) * 4)) & 255),
  );
  return { track, thumbs };
}

describe('the loops of a recording', () => {
  it('keep the best loop within the bound: a head that sways every 5 s loops on one sway', () => {
    const { track, thumbs } = swaying(60 * FPS, 150);
    const loop = loopWithin(track, thumbs, [0, track.length], FPS);
    expect(loop.to - loop.from).toBe(150);
  });

  it('are never longer than a matte covers, however long the recording and whatever repeats far apart', () => {
    // A five-minute recording whose pictures repeat only every 20 s: unbounded, the search took a loop of minutes.
    const { track, thumbs } = swaying(300 * FPS, 600);
    const loop = chooseLoop(track, thumbs, [], FPS);
    const length = loop.to - loop.from;
    expect(length).toBeGreaterThanOrEqual(3 * FPS);
    expect(length).toBeLessThanOrEqual(LONGEST_MATTED_LOOP);
    const listen = loopWithin(track, thumbs, [1000, 1000 + 90 * FPS], FPS);
    expect(listen.to - listen.from).toBeLessThanOrEqual(LONGEST_MATTED_LOOP);
  });

  it('are matted on keys a second apart at most, eight at most', () => {
    expect(LONGEST_MATTED_LOOP).toBe(211);
    for (const length of [31, 100, 150, LONGEST_MATTED_LOOP]) {
      const keys = keyFramesOf(length);
      expect(keys[0]).toBe(0);
      expect(keys.at(-1)).toBe(length - 1);
      expect(keys.length).toBeLessThanOrEqual(8);
      expect(Math.max(...keys.slice(1).map((k, i) => k - keys[i]!))).toBeLessThanOrEqual(FPS);
    }
  });

  it('refuses to matte a loop longer than the bound before any key is matted', async () => {
    const loop = { file: 'loop.mp4', from: 0, to: LONGEST_MATTED_LOOP + 1, blend: 0 };
    const footage = { width: 64, height: 64, fps: FPS, reference: face(0) };
    await expect(
      matteLoop(loop, '/nonexistent/loop.mp4', { mattePath: '/nonexistent/matte.mp4', cutoutPath: '/nonexistent/cutout.mp4' }, footage, []),
    ).rejects.toThrow(/longer than a matte covers/);
  });
});
