/**
 * Burned captions: where they go in a frame and the ASS script ffmpeg's `ass` filter (libass) draws them from.
 * The frame's size and the presenter's rectangle are parameters, so every shape of frame works the same way.
 *
 * White semi-bold text on a translucent black box (ASS BorderStyle 3): legible on any background. The caption
 * block sits inside safe margins (5 % of the width at the sides; 6 % of the height at the bottom, 20 % in a
 * portrait frame, where players put their own controls over the lower part), centred at the bottom, unless the
 * presenter is there: then beside the presenter if that leaves room, else above the presenter, else at the top,
 * else over the presenter's bust where that leaves its head clear.
 */
import { CAPTION_LIMITS, type Cue } from '#domain/captions';
import { DEFAULT_THEME, type Theme } from '#domain/overlays';
import { fontFilePath, THEME_FONT_FILES } from './fonts.ts';
import { assColour, assRuns, assTime, type Rect } from './text-overlays.ts';

export type { Rect } from './text-overlays.ts';

/** Inter SemiBold's widest average character, as a share of the ASS font size (all capitals). */
export const CAPTION_CHAR_WIDTH = 0.5;

/** The caption block: its left and right edges, its bottom edge (from the frame's top), and the font size (px). */
export interface CaptionPlacement {
  left: number;
  right: number;
  bottom: number;
  fontSize: number;
  /** Which rule placed it (for tests and logs). */
  where: 'bottom' | 'beside' | 'above' | 'top' | 'over';
}

/**
 * The captions' font file when the video has no theme (Inter SemiBold, see fonts.ts).
 * @internal Exported for its tests.
 */
export const captionFontPath = (): string => fontFilePath(THEME_FONT_FILES.inter);

/** Line height and the box's padding, as shares of the font size. */
const LINE_HEIGHT = 1.25;
const PADDING = 0.22;

/**
 * Where the captions of a clip go, and how big, given the frame, the presenter's rectangle, the longest line and
 * the presenter's head box. A presenter that leaves no room (a `full` or `large` one) gets its captions over its
 * bust, never over its head: at the bottom, at a smaller font if that is what fits under the head (never under
 * minReadableFont), else at the top if that is clear of the head.
 */
export function placeCaptions(
  frame: { width: number; height: number },
  bot: Rect,
  longestLine: number = CAPTION_LIMITS.maxLineChars,
  head: Rect = bot,
  /** A character of the font is at most this wide on average, as a share of the ASS font size (all capitals). */
  charWidth = CAPTION_CHAR_WIDTH,
): CaptionPlacement {
  const { width: W, height: H } = frame;
  const portrait = H > W;
  const side = Math.round(W * 0.05);
  const bottomMargin = Math.round(H * (portrait ? 0.2 : 0.06));
  const topMargin = Math.round(H * 0.06);
  const gap = Math.round(Math.min(W, H) * 0.03);
  const baseFont = Math.round(Math.min(W, H) * 0.055);
  const chars = Math.max(1, Math.min(longestLine, CAPTION_LIMITS.maxLineChars));
  const fontFor = (width: number) => Math.max(12, Math.min(baseFont, Math.floor(width / (chars * charWidth))));
  const blockHeight = (font: number) => Math.ceil(font * (2 * LINE_HEIGHT + 2 * PADDING));
  const clear = (left: number, right: number, bottom: number, font: number) =>
    right <= bot.x - gap || left >= bot.x + bot.width + gap || bottom <= bot.y - gap || bottom - blockHeight(font) >= bot.y + bot.height + gap;

  const fullFont = fontFor(W - 2 * side);
  const low = H - bottomMargin;
  if (clear(side, W - side, low, fullFont)) return { left: side, right: W - side, bottom: low, fontSize: fullFont, where: 'bottom' };

  // Beside the presenter, on its wider side, if that is at least 60 % of the safe width.
  const leftSpan = bot.x - gap - side;
  const rightSpan = W - side - (bot.x + bot.width + gap);
  const span = Math.max(leftSpan, rightSpan);
  if (span >= 0.6 * (W - 2 * side)) {
    const [left, right] = leftSpan >= rightSpan ? [side, bot.x - gap] : [bot.x + bot.width + gap, W - side];
    const font = fontFor(right - left);
    if (clear(left, right, low, font)) return { left, right, bottom: low, fontSize: font, where: 'beside' };
  }
  // Above the presenter.
  const above = bot.y - gap;
  if (above - blockHeight(fullFont) >= topMargin) return { left: side, right: W - side, bottom: above, fontSize: fullFont, where: 'above' };
  // At the top.
  const top = topMargin + blockHeight(fullFont);
  if (clear(side, W - side, top, fullFont)) return { left: side, right: W - side, bottom: top, fontSize: fullFont, where: 'top' };
  // Over the presenter's bust, under its head: smaller if need be, down to a readable size; else at the top if that
  // is clear of the head; else at the bottom.
  const underHead = low - (head.y + head.height + gap);
  const fontUnderHead = Math.min(fullFont, Math.floor(underHead / (2 * LINE_HEIGHT + 2 * PADDING)));
  if (fontUnderHead >= minReadableFont(W, H)) return { left: side, right: W - side, bottom: low, fontSize: fontUnderHead, where: 'over' };
  const clearOfHead = top <= head.y - gap;
  return { left: side, right: W - side, bottom: clearOfHead ? top : low, fontSize: fullFont, where: 'over' };
}

/** The smallest caption font placed over a presenter: 2.5 % of the frame's short side (18 px at 720p). */
const minReadableFont = (width: number, height: number) => Math.ceil(Math.min(width, height) * 0.025);

/** The rectangle the caption block takes (its two lines with their box), to keep other text clear of it. */
export function captionBlockOf(place: CaptionPlacement): Rect {
  const height = Math.ceil(place.fontSize * (2 * LINE_HEIGHT + 2 * PADDING));
  return { x: place.left, y: place.bottom - height, width: place.right - place.left, height };
}

/**
 * The ASS script of a clip's cues (times are the clip's own), for a frame of `frame`'s size, in the theme's font
 * and text colour; `overlays` adds the styles and events of the clip's text overlays (one script, one filter).
 */
export function captionsScript(
  cues: Cue[],
  frame: { width: number; height: number },
  place: CaptionPlacement,
  theme: Theme = DEFAULT_THEME,
  overlays: { styles: string[]; events: string[] } = { styles: [], events: [] },
): string {
  const font = THEME_FONT_FILES[theme.font];
  const text = assColour(theme.textColor);
  const pad = Math.max(2, Math.round(place.fontSize * PADDING));
  const marginL = place.left;
  const marginR = frame.width - place.right;
  const marginV = frame.height - place.bottom + pad;
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${frame.width}`,
    `PlayResY: ${frame.height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    // Colours are &HAABBGGRR (AA: 00 opaque). BorderStyle 3: the outline colour fills a box around each line.
    `Style: Caption,${font.family},${place.fontSize},${text},${text},&H48000000,&H00000000,0,0,0,0,100,100,0,0,3,${pad},0,2,${marginL},${marginR},${marginV},1`,
    ...overlays.styles,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...cues.map(
      (cue) =>
        `Dialogue: 0,${assTime(cue.startSeconds)},${assTime(cue.endSeconds)},Caption,,0,0,0,,${cue.lines.map((line) => assRuns(line, font)).join('\\N')}`,
    ),
    ...overlays.events,
    '',
  ].join('\n');
}
