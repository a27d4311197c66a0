/**
 * Where the bot goes in the frame and how big it is, for any frame size.
 *
 * `small`, `medium` and `large`: every length is a fixed share of the frame's shorter side, drawn from the
 * 1280x720 design (at a 720 px short side, `medium`'s canvas is 332 px tall at the edges and 460 px in the centre,
 * 24 px from the frame's edges). So a bot is as big against the short side in every shape, and each position keeps
 * its meaning: `top-left` is the top-left corner of a vertical frame too, a safe margin in from both edges.
 *
 * `full`: the presenter is the subject, framed as a head-and-shoulders shot: its eyes on the line 38 % of the
 * frame's height from the top, the foot of its card (where the bust ends) on the bottom edge, in every shape (a
 * built-in look's hair then starts a tenth of the height from the top). In a vertical frame that is wider than the
 * frame, and the shoulders are cut by its sides. The position's horizontal word moves it
 * left, centre or right when the frame has room, its vertical word is ignored.
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
 * Where a `full` presenter's eyes are: this share of the frame's height from its top.
 * @internal Exported for its tests.
 */
export const FULL_EYE_LINE = 0.38;
/** Gap between the bot's canvas and the frame's edges. */
const MARGIN = 24;
/** A bust standing on the bottom edge overshoots it slightly: no sliver of background under it after rounding. */
const FLUSH_OVERSHOOT = 2;

const shareOf = (frame: FrameSize, px: number) => Math.round((px * Math.min(frame.width, frame.height)) / REFERENCE_SHORT_SIDE);

/** What of a look's manifest the layout reads: its canvas, its card, its head box and (where known) its face. */
export type Artwork = Pick<BotManifest, 'width' | 'height' | 'panel' | 'head'> & Partial<Pick<BotManifest, 'face'>>;

/** The safe margin kept between the bot (and the logo) and the frame's edges, px. */
export const safeMarginOf = (frame: FrameSize): number => shareOf(frame, MARGIN);

/** The bot's canvas height, px: a share of the frame's shorter side, or for `full` what makes its card fill the frame. */
export function botHeightFor(frame: FrameSize, position: BotPosition, size: BotSize = 'medium', artwork?: Artwork): number {
  if (size !== 'full') {
    const heights = CANVAS_HEIGHTS[size];
    return shareOf(frame, position === 'center' ? heights.centre : heights.edge);
  }
  if (!artwork) throw new Error('a full-size bot is sized by its artwork');
  // A look's eyes are guessed from its head box when it has no face: drawings whose head box sits low on the card
  // (only a mouth drawn, at its foot) would ask for a canvas of gigabytes. The eyes are taken at most
  // FULL_EYES_LOWEST down the card, and the canvas at most FULL_MAX_FRAMES frames tall.
  const eyesToFoot = Math.max((1 - FULL_EYES_LOWEST) * artwork.panel.height, artwork.panel.y + artwork.panel.height - eyeLineOf(artwork));
  return Math.min(FULL_MAX_FRAMES * frame.height, Math.floor((artwork.height * (1 - FULL_EYE_LINE) * frame.height) / eyesToFoot));
}
/** The lowest a `full` presenter's eyes are taken on its card (a share of the card's height from its top). */
const FULL_EYES_LOWEST = 0.6;
/** A `full` presenter's canvas is at most this many frames tall. */
const FULL_MAX_FRAMES = 2;

/** The eyes' height on the canvas: the look's face, or (a look without one) where a head box of the built-in art has them. */
const eyeLineOf = (artwork: Artwork) =>
  artwork.face ? (artwork.face.eyes[0].y + artwork.face.eyes[1].y) / 2 : artwork.head.y + EYES_IN_HEAD_BOX * artwork.head.height;
/** The built-in looks' eyes in their head box (246 of 50-410). */
const EYES_IN_HEAD_BOX = 0.545;

const isBottomPosition = (position: BotPosition) => position.startsWith('bottom-');

/**
 * Whether the bot stands on the frame's bottom edge: always at `full`; without its card, at a bottom position
 * (its bust then ends where the picture ends, like a presenter's). Elsewhere a bust without its card fades out.
 */
export const standsOnBottomEdge = (position: BotPosition, size: BotSize, removeBotBackground: boolean) =>
  size === 'full' || (removeBotBackground && isBottomPosition(position));

/**
 * Whether a `full` presenter's card becomes the frame's backdrop, carried to its edges (engine/carried-backdrop.ts):
 * when the card is kept and no background of the caller's is under it. Over a caller's background the card is drawn.
 */
export const carriesBackdrop = (size: BotSize, removeBotBackground: boolean, hasBackground: boolean) =>
  size === 'full' && !removeBotBackground && !hasBackground;

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
 * (standsOnBottomEdge) has its bust's bottom on it; with its card drawn at `full`, the card's rounded bottom
 * corners go below the edge, so the card looks cut by the frame rather than standing on two rounded feet.
 * `carriedBackdrop`: the card is the frame's backdrop (carriesBackdrop), not drawn as a card.
 */
export function layoutFor(
  frame: FrameSize,
  position: BotPosition,
  artwork: Artwork,
  options: { size?: BotSize; removeBotBackground?: boolean; carriedBackdrop?: boolean } = {},
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
    const cut = size === 'full' && !options.removeBotBackground && !options.carriedBackdrop ? panel.radius : 0;
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

/**
 * The bot's face in the frame, px: its head box down to the face's pivot under the chin where the look knows it
 * (the head box reaches down over the collar). Burned captions over a big presenter's bust stop under it.
 */
export function faceBoxOf(box: BotBox, artwork: Artwork): BotBox {
  const head = headBoxOf(box, artwork);
  if (!artwork.face) return head;
  const chin = Math.round(box.y + (artwork.face.pivot.y * box.height) / artwork.height);
  return { ...head, height: Math.max(1, Math.min(head.height, chin - head.y)) };
}
