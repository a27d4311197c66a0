/**
 * A presenter rig: how a look's presenter is drawn, frame by frame, as an RGBA picture of its own canvas that the
 * presenter layer pipes to ffmpeg. The look's manifest names its rig (`rig`); each rig is one file of this folder
 * and a line in RIGS. Rigs drawn from sprites share ./sprite-rig.ts.
 */
import { type BotManifest, rigOf } from '#domain/look';
import type { FramePose } from '../animation.ts';
import type { BotSprites } from '../sprites.ts';
import type { BotBottom } from './figure-mask.ts';
import { LayeredRig } from './layered.ts';
import { SinglePictureRig } from './single-picture.ts';

export interface PresenterRig {
  /** The canvas's size, px. */
  readonly width: number;
  readonly height: number;
  /** The RGBA picture of a pose, scaled by `zoom` about the card's anchor; the buffer may be reused by the next call. */
  render(pose: FramePose, zoom?: number): Buffer;
}

export interface RigOptions {
  withPanel: boolean;
  /** @default 'card' with the panel, 'fade' without */
  bottom?: BotBottom;
}

const RIGS: Record<NonNullable<BotManifest['rig']>, new (sprites: BotSprites, options: RigOptions) => PresenterRig> = {
  layered: LayeredRig,
  'single-picture': SinglePictureRig,
};

/** The rig the look's manifest names, drawing these sprites. */
export function rigFor(sprites: BotSprites, options: RigOptions): PresenterRig {
  return new RIGS[rigOf(sprites.manifest)](sprites, options);
}
