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

/** The rig the look's manifest names, drawing these sprites. */
export function rigFor(sprites: BotSprites, options: RigOptions): PresenterRig {
  return new RIGS[rigOf(sprites.manifest)](sprites, options);
}
