/**
 * A rig keeps its last frame and puts back only the head's box when the next pose has the same base: every frame of
 * a sequence must be exactly what a fresh rig draws for that pose alone.
 */
import { describe, expect, it } from 'vitest';
import type { FramePose } from '#functions/render/engine/animation.ts';
import type { RigOptions } from '#functions/render/engine/rigs/presenter-rig.ts';
import { rigFor } from '#functions/render/engine/rigs/rig.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';

/** Poses that hold the body and the head's offset and turn for a few frames while the mouth, eyes and brows change (as a clip's do). */
function sequence(): FramePose[] {
  const mouths = ['m0', 'm2', 'm4', 'm1'];
  const list: FramePose[] = [];
  for (let i = 0; i < 24; i++) {
    list.push({
      mouth: i % 5 === 3 ? { frame: 'm1', toward: { frame: 'm3', amount: 0.4 } } : { frame: mouths[i % mouths.length]! },
      eyesOpen: i % 7 !== 6,
      bodyX: i < 12 ? 0 : -1,
      bodyY: i < 8 ? 1 : 2,
      headX: i % 12 < 6 ? 1 : 0,
      headY: 0,
      tilt: [0, 0.25, 0.5, -0.25][Math.floor(i / 4) % 4]!,
      nod: i % 12 < 8 ? 0 : 2,
      brow: i % 9 === 4 ? 3 : 0,
    });
  }
  return list;
}

describe('a rig drawing a sequence of poses', () => {
  it.each<[string, RigOptions]>([
    ['ava', { withPanel: true }],
    ['ava', { withPanel: false, bottom: 'flush' }],
    ['leo', { withPanel: false, bottom: 'flush' }],
  ])('%s %o: each frame equals the pose drawn alone by a fresh rig', (look, options) => {
    const sprites = loadSprites(look, 260);
    const rig = rigFor(sprites, options);
    const poses = sequence();
    let partial = 0;
    for (const [i, pose] of poses.entries()) {
      const drawn = Buffer.from(rig.render(pose));
      const alone = rigFor(sprites, options).render(pose);
      expect(drawn.equals(alone), `frame ${i}`).toBe(true);
      const before = poses[i - 1];
      const same = (k: keyof FramePose) => before?.[k] === pose[k];
      if (same('bodyX') && same('bodyY') && same('headX') && same('headY') && same('tilt') && same('nod')) partial++;
    }
    // Most frames have the base of the frame before (only the head's box is put back).
    expect(partial).toBeGreaterThan(12);
  });
});
