/** What every presenter rig is (rig.ts picks one by the look's manifest), and the options it is made with. */
import type { Box } from '#media/raster/box';
import type { FramePose } from '../animation.ts';
import type { BotBottom } from './figure-mask.ts';

export interface PresenterRig {
  /** The canvas's size, px. */
  readonly width: number;
  readonly height: number;
  /** The RGBA picture of a pose, scaled by `zoom` about the card's anchor; the buffer may be reused by the next call. */
  render(pose: FramePose, zoom?: number): Buffer;
  /** The part of the canvas its pictures may be other than transparent in, px: outside it, every pose is clear. */
  extent(): Box;
}

export interface RigOptions {
  withPanel: boolean;
  /** @default 'card' with the panel, 'fade' without */
  bottom?: BotBottom;
}
