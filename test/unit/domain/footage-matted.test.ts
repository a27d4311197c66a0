/**
 * A video bot's look can remove its background only when every loop its footage shows has a matte: the
 * preparation marks the stored look `cutout` by this rule, and the rig refuses a look that breaks it.
 */
import { describe, expect, it } from 'vitest';
import { type FootageLoop, footageMatted } from '#domain/look';

const loop = (matte?: string): FootageLoop => ({ file: 'loop.mp4', from: 0, to: 90, ...(matte && { matte }) });

describe('footageMatted', () => {
  it('holds when the loop has its matte and there is no listening loop', () => {
    expect(footageMatted({ loop: loop('loop-matte.mp4') })).toBe(true);
  });
  it('holds when both the loop and the listening loop have theirs', () => {
    expect(footageMatted({ loop: loop('loop-matte.mp4'), listen: loop('listen-matte.mp4') })).toBe(true);
  });
  it('fails when the listening loop has none, though the loop has', () => {
    expect(footageMatted({ loop: loop('loop-matte.mp4'), listen: loop() })).toBe(false);
  });
  it('fails when the loop has none', () => {
    expect(footageMatted({ loop: loop() })).toBe(false);
  });
});
