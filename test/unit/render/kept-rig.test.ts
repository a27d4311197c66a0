/**
 * The rig of the last clip is kept for the next clip of the same sprites and options (rig.ts): what it kept from the
 * last clip (its bases, warped heads, last frame) must never show in the next, and no two clips may draw with it at once.
 */
import { describe, expect, it } from 'vitest';
import type { FramePose } from '#functions/render/engine/animation.ts';
import type { RigOptions } from '#functions/render/engine/rigs/presenter-rig.ts';
import { keepRig, rigFor } from '#functions/render/engine/rigs/rig.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';

/** A clip's poses: the mouth, eyes, turn and brows changing over a body that sways (`shift` makes another clip's). */
function clipPoses(shift: number): FramePose[] {
  const mouths = ['m0', 'm2', 'm4', 'm1', 'm3'];
  return Array.from({ length: 30 }, (_, i) => ({
    mouth:
      i % 4 === 2 ? { frame: mouths[(i + shift) % 5]!, toward: { frame: 'm3', amount: 0.3 + 0.1 * shift } } : { frame: mouths[(i + shift) % 5]! },
    eyesOpen: (i + shift) % 7 !== 6,
    bodyX: (i + shift) % 10 < 5 ? 0 : -1,
    bodyY: (i + shift) % 6 < 3 ? 1 : 2,
    headX: (i + shift) % 12 < 6 ? 1 : 0,
    headY: 0,
    tilt: [0, 0.25, 0.5, -0.25, -0.5][Math.floor((i + shift) / 3) % 5]!,
    nod: (i + shift) % 12 < 8 ? 0 : 2,
    brow: (i + shift) % 9 === 4 ? 3 : 0,
  }));
}

describe('the rig kept for the next clip', () => {
  it.each<[string, RigOptions]>([
    ['ava', { withPanel: true, bottom: 'card' }],
    ['leo', { withPanel: false, bottom: 'flush' }],
  ])('%s %o: draws the next clip exactly as a new rig does', (look, options) => {
    const sprites = loadSprites(look, 260);
    const first = rigFor(sprites, options);
    for (const pose of clipPoses(0)) first.render(pose);
    keepRig(sprites, options, first);
    const kept = rigFor(sprites, options);
    expect(kept).toBe(first);
    const unlike = clipPoses(3).filter((pose) => !Buffer.from(kept.render(pose)).equals(rigFor(sprites, options).render(pose)));
    expect(unlike).toEqual([]);
  });

  it('is taken by one clip at a time, and only for the sprites and options it drew', () => {
    const sprites = loadSprites('ava', 260);
    const options: RigOptions = { withPanel: true, bottom: 'card' };
    const rig = rigFor(sprites, options);
    keepRig(sprites, options, rig);
    expect(rigFor(sprites, options)).toBe(rig);
    // Taken: a clip drawing at the same time gets a rig of its own.
    expect(rigFor(sprites, options)).not.toBe(rig);
    keepRig(sprites, options, rig);
    expect(rigFor(sprites, { withPanel: false, bottom: 'fade' })).not.toBe(rig);
    // Asking for another rig let the kept one go.
    expect(rigFor(sprites, options)).not.toBe(rig);
    keepRig(sprites, options, rig);
    expect(rigFor(loadSprites('ava', 300), options)).not.toBe(rig);
  });
});
