/**
 * Where the bot goes in the frame and how big it is, for any frame size.
 *
 * `small`, `medium` and `large`: every length is a fixed share of the frame's shorter side, drawn from the
 * 1280x720 design (at a 720 px short side, `medium`'s canvas is 332 px tall at the edges and 460 px in the centre,
 * 24 px from the frame's edges). So a bot is as big against the short side in every shape, and each position keeps
 * its meaning: `top-left` is the top-left corner of a vertical frame too, a safe margin in from both edges.
 *
 * `full`: the presenter is the subject. Its head and shoulders (the card's height, which a look's figure fills
 * whether the card is drawn or not) are 85 % of the frame's height, unless that would make it wider than the
 * frame (a vertical frame): then its canvas is as wide as the frame, the card's own margin inside. It always
 * stands on the bottom edge; the position's horizontal word moves it left, centre or right, its vertical word is
 * ignored.
 */
import type { BotPosition, BotSize } from '#domain/choices';
import type { BotManifest } from '#domain/look';
import type { FrameSize } from '#domain/shape';

/** The short side the design's pixel lengths below are given for. */
const REFERENCE_SHORT_SIDE = 720;
/** The bot canvas's height (panel with its soft shadow margin) at the edges and in the centre, per size. */
const CANVAS_HEIGHTS: Record<Exclude<BotSize, 'full'>, { edge: number; centre: number }> = {
  small: { edge: 232, centre: 320 },
  medium: { edge: 332, centre: 460 },
  large: { edge: 480, centre: 600 },
};
/**
 * Share of the frame's height a `full` presenter's card fills (its head and shoulders, from the card's top to the
 * bust's bottom).
 * @internal Exported for its tests.
 */
export const FULL_CARD_SHARE = 0.85;
/** Gap between the bot's canvas and the frame's edges. */
const MARGIN = 24;
/** A bust standing on the bottom edge overshoots it slightly: no sliver of background under it after rounding. */
const FLUSH_OVERSHOOT = 2;

const shareOf = (frame: FrameSize, px: number) => Math.round((px * Math.min(frame.width, frame.height)) / REFERENCE_SHORT_SIDE);

/** What of a look's manifest the layout reads: its canvas, its card and its head box. */
export type Artwork = Pick<BotManifest, 'width' | 'height' | 'panel' | 'head'>;

/** The safe margin kept between the bot (and the logo) and the frame's edges, px. */
export const safeMarginOf = (frame: FrameSize): number => shareOf(frame, MARGIN);

/** The bot's canvas height, px: a share of the frame's shorter side, or for `full` what makes its card fill the frame. */
export function botHeightFor(frame: FrameSize, position: BotPosition, size: BotSize = 'medium', artwork?: Artwork): number {
  if (size !== 'full') {
    const heights = CANVAS_HEIGHTS[size];
    return shareOf(frame, position === 'center' ? heights.centre : heights.edge);
  }
  if (!artwork) throw new Error('a full-size bot is sized by its artwork');
  const scale = Math.min((FULL_CARD_SHARE * frame.height) / artwork.panel.height, frame.width / artwork.width);
  return Math.floor(artwork.height * scale);
}

const isBottomPosition = (position: BotPosition) => position.startsWith('bottom-');

/**
 * Whether the bot stands on the frame's bottom edge: always at `full`; without its card, at a bottom position
 * (its bust then ends where the picture ends, like a presenter's). Elsewhere a bust without its card fades out.
 */
export const standsOnBottomEdge = (position: BotPosition, size: BotSize, removeBotBackground: boolean) =>
  size === 'full' || (removeBotBackground && isBottomPosition(position));

/** The bot's canvas in the frame, px (the rectangle ffmpeg overlays; the figure and its card are inside it). */
export interface BotBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The bot's box for a position and size (default `medium`) in a frame. `artwork` is the look's manifest (its
 * canvas in its own units): the box keeps its proportions, as loadSprites scales the layers. A bot standing on the bottom edge
 * (standsOnBottomEdge) has its bust's bottom on it; with its card at `full`, the card's rounded bottom corners
 * go below the edge, so the card looks cut by the frame rather than standing on two rounded feet.
 */
export function layoutFor(
  frame: FrameSize,
  position: BotPosition,
  artwork: Artwork,
  options: { size?: BotSize; removeBotBackground?: boolean } = {},
): BotBox {
  const size = options.size ?? 'medium';
  const height = botHeightFor(frame, position, size, artwork);
  const scale = height / artwork.height;
  const width = Math.round(artwork.width * scale);
  const margin = safeMarginOf(frame);
  const [vertical, horizontal] = position === 'center' ? ['center', 'center'] : (position.split('-') as [string, string]);
  const centredX = Math.round((frame.width - width) / 2);
  const roomForMargins = width + 2 * margin <= frame.width;
  const x = !roomForMargins ? centredX : horizontal === 'left' ? margin : horizontal === 'right' ? frame.width - width - margin : centredX;
  let y: number;
  if (standsOnBottomEdge(position, size, options.removeBotBackground ?? false)) {
    const panel = artwork.panel;
    const cut = size === 'full' && !options.removeBotBackground ? panel.radius : 0;
    const standRow = Math.round((panel.y + panel.height - cut) * scale);
    y = frame.height - standRow + shareOf(frame, FLUSH_OVERSHOOT);
  } else {
    y = vertical === 'top' ? margin : vertical === 'bottom' ? frame.height - height - margin : Math.round((frame.height - height) / 2);
  }
  return { x, y, width, height };
}

/** The bot's head box in the frame, px: what burned captions must not cover. */
export function headBoxOf(box: BotBox, artwork: Artwork): BotBox {
  const scale = box.height / artwork.height;
  const { head } = artwork;
  return {
    x: Math.round(box.x + head.x * scale),
    y: Math.round(box.y + head.y * scale),
    width: Math.round(head.width * scale),
    height: Math.round(head.height * scale),
  };
}
