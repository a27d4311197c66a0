/**
 * A presenter rig: how a look's presenter is drawn, frame by frame, as an RGBA picture of its own canvas that the
 * presenter layer pipes to ffmpeg. The look's manifest names its rig (`rig`); each rig is one file of this folder
 * and a line in RIGS. Rigs drawn from sprites share ./sprite-rig.ts.
 */
import { type BotManifest, rigOf } from '#domain/look';
import type { BotSprites } from '../sprites.ts';
import { LayeredRig } from './layered.ts';
import type { PresenterRig, RigOptions } from './presenter-rig.ts';
import { SinglePictureRig } from './single-picture.ts';

const RIGS: Record<NonNullable<BotManifest['rig']>, new (sprites: BotSprites, options: RigOptions) => PresenterRig> = {
  layered: LayeredRig,
  'single-picture': SinglePictureRig,
};

/**
 * The rig the last clip was drawn with, kept for the next clip of the same sprites and options: a warm render
 * function mostly meets the same look at the same size again. A rig made anew draws its bases and warped heads again
 * into new buffers (about 150 bases of 382 KB for an 87-s clip of Ava `medium` at 720p), and the garbage collector
 * then collects the last one's. A rig's pictures are kept by everything that draws them (sprite-rig.ts), so a kept
 * rig draws every frame as a new one would; its pools are bounded, so keeping one costs at most their bounds. Only one
 * clip draws with it at a time: rigFor takes it out until keepRig puts it back. A caller's look is its account's
 * alone (its sprites are keyed by its own directory); a built-in look's rig, like its sprites, serves every account,
 * and a faster render tells no more than the sprite cache already does: that this look and size were drawn here.
 */
let kept: { sprites: BotSprites; options: string; rig: PresenterRig } | undefined;

const optionsKey = (options: RigOptions) => `${options.withPanel},${options.bottom ?? ''}`;

/** The rig the look's manifest names, drawing these sprites: the kept one when it drew them with these options. */
export function rigFor(sprites: BotSprites, options: RigOptions): PresenterRig {
  const reusable = kept?.sprites === sprites && kept.options === optionsKey(options) ? kept.rig : undefined;
  // Another look or size: the kept rig's pictures go now, before the new rig's are drawn.
  kept = undefined;
  return reusable ?? new RIGS[rigOf(sprites.manifest)](sprites, options);
}

/** Keeps `rig` (made by rigFor with these sprites and options) for the next clip, once its clip is drawn. */
export function keepRig(sprites: BotSprites, options: RigOptions, rig: PresenterRig): void {
  kept = { sprites, options: optionsKey(options), rig };
}
