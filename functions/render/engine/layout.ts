/** Where the bot goes in the frame and how big it is. */
import type { BotPosition } from '#domain/clip';
import { FRAME } from './types.ts';

/** Gap between the bot's canvas (which carries a soft shadow margin) and the frame edge, px. */
const MARGIN = 24;

export interface BotPlacement {
  x: number;
  y: number;
  /** Height of the bot's canvas (panel with its shadow margin); the width follows from the artwork. */
  height: number;
}

/** The bot's canvas height for a position: ~46% of the frame at the edges, ~64% in the centre. */
export const botHeightFor = (position: BotPosition): number => (position === 'center' ? 460 : 332);

const FLUSH_OVERSHOOT = 2;

export const isBottomPosition = (position: BotPosition) => position.startsWith('bottom-');

/**
 * `flushBottom`: the canvas row (from its top) that must sit on the frame's bottom edge, for a bot standing
 * without its card at a bottom position (its bust then ends where the picture ends, like a presenter's).
 */
export function placeBot(position: BotPosition, width: number, height: number, options: { flushBottom?: number } = {}): BotPlacement {
  const [vertical, horizontal] = position === 'center' ? ['center', 'center'] : (position.split('-') as [string, string]);
  const x = horizontal === 'left' ? MARGIN : horizontal === 'right' ? FRAME.width - width - MARGIN : Math.round((FRAME.width - width) / 2);
  // A flush bust overshoots the edge by a couple of pixels: no sliver of background under it after rounding.
  const bottomY = options.flushBottom !== undefined ? FRAME.height - options.flushBottom + FLUSH_OVERSHOOT : FRAME.height - height - MARGIN;
  const y = vertical === 'top' ? MARGIN : vertical === 'bottom' ? bottomY : Math.round((FRAME.height - height) / 2);
  return { x, y, height };
}
