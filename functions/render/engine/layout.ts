/**
 * Where the bot goes in the frame and how big it is, for any frame size. Every length is a fixed share of the
 * frame's shorter side, drawn from the 1280x720 design (at a 720 px short side: the bot's canvas 332 px tall
 * at the edges, 460 px in the centre, 24 px from the frame's edges). So a bot is as big against the short
 * side in every shape, and each position keeps its meaning: `top-left` is the top-left corner of a vertical
 * frame too, a safe margin in from both edges.
 */
import type { BotPosition } from '#domain/choices';
import type { FrameSize } from '#domain/shape';

/** The short side the design's pixel lengths below are given for. */
const REFERENCE_SHORT_SIDE = 720;
/** The bot canvas's height (panel with its soft shadow margin) at the edges and in the centre. */
const EDGE_HEIGHT = 332;
const CENTRE_HEIGHT = 460;
/** Gap between the bot's canvas and the frame's edges. */
const MARGIN = 24;
/** A bust standing on the bottom edge overshoots it slightly: no sliver of background under it after rounding. */
const FLUSH_OVERSHOOT = 2;

const shareOf = (frame: FrameSize, px: number) => Math.round((px * Math.min(frame.width, frame.height)) / REFERENCE_SHORT_SIDE);

/** The safe margin kept between the bot (and the logo) and the frame's edges, px. */
export const safeMarginOf = (frame: FrameSize): number => shareOf(frame, MARGIN);

/** The bot's canvas height for a position: ~46 % of the frame's shorter side at the edges, ~64 % in the centre. */
export const botHeightFor = (frame: FrameSize, position: BotPosition): number => shareOf(frame, position === 'center' ? CENTRE_HEIGHT : EDGE_HEIGHT);

export const isBottomPosition = (position: BotPosition) => position.startsWith('bottom-');

/** The bot's canvas in the frame, px (the rectangle ffmpeg overlays; the figure and its card are inside it). */
export interface BotBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The bot's box for a position in a frame. `artwork` is the look's canvas size in its own pixels (its
 * manifest's width and height): the box keeps its proportions, as loadSprites scales the layers.
 * `flushBottom`: the canvas row (from its top, output px) that must sit on the frame's bottom edge, for a bot
 * standing without its card at a bottom position (its bust then ends where the picture ends, like a
 * presenter's).
 */
export function layoutFor(
  frame: FrameSize,
  position: BotPosition,
  artwork: { width: number; height: number },
  options: { flushBottom?: number } = {},
): BotBox {
  const height = botHeightFor(frame, position);
  const width = Math.round(artwork.width * (height / artwork.height));
  const margin = safeMarginOf(frame);
  const [vertical, horizontal] = position === 'center' ? ['center', 'center'] : (position.split('-') as [string, string]);
  const x = horizontal === 'left' ? margin : horizontal === 'right' ? frame.width - width - margin : Math.round((frame.width - width) / 2);
  const bottomY =
    options.flushBottom !== undefined ? frame.height - options.flushBottom + shareOf(frame, FLUSH_OVERSHOOT) : frame.height - height - margin;
  const y = vertical === 'top' ? margin : vertical === 'bottom' ? bottomY : Math.round((frame.height - height) / 2);
  return { x, y, width, height };
}
