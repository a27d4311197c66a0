/**
 * A rig keeps its last frame and puts back only the head's box when the next pose has the same base: every frame of
 * a sequence must be exactly what a fresh rig draws for that pose alone (a photo look's rig:
 * test/integration/prepare/photo-look.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { RigOptions } from '#functions/render/engine/rigs/presenter-rig.ts';
import { rigFor } from '#functions/render/engine/rigs/rig.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import { framesUnlikeAlone } from '../../support/rig-poses.ts';

describe('a rig drawing a sequence of poses', () => {
  it.each<[string, RigOptions]>([
    ['ava', { withPanel: true }],
    ['ava', { withPanel: false, bottom: 'flush' }],
    ['leo', { withPanel: false, bottom: 'flush' }],
  ])('%s %o: each frame equals the pose drawn alone by a fresh rig', (look, options) => {
    const sprites = loadSprites(look, 260);
    const { unlike, partial } = framesUnlikeAlone(() => rigFor(sprites, options));
    expect(unlike).toEqual([]);
    // Most frames have the base of the frame before (only the head's box is put back).
    expect(partial).toBeGreaterThan(12);
  });
});
