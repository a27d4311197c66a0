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
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAPTION_LIMITS, type Cue } from '#domain/captions';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The caption block: its left and right edges, its bottom edge (from the frame's top), and the font size (px). */
export interface CaptionPlacement {
  left: number;
  right: number;
  bottom: number;
  fontSize: number;
  /** Which rule placed it (for tests and logs). */
  where: 'bottom' | 'beside' | 'above' | 'top' | 'over';
}

/** The font (Inter SemiBold, OFL, from npm @expo-google-fonts/inter) and its family name as libass looks it up. */
export const CAPTION_FONT = { family: 'Inter SemiBold', file: 'Inter_600SemiBold.ttf' } as const;

/**
 * The caption font file: CAPTION_FONT_PATH, else `fonts/` next to the running module (the render bundle copies
 * it there), else the npm package.
 */
export function captionFontPath(): string {
  if (process.env.CAPTION_FONT_PATH) return process.env.CAPTION_FONT_PATH;
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'fonts', CAPTION_FONT.file);
  if (existsSync(bundled)) return bundled;
  return createRequire(import.meta.url).resolve(`@expo-google-fonts/inter/600SemiBold/${CAPTION_FONT.file}`);
}

/** A character of Inter SemiBold is at most this wide on average, as a share of the ASS font size (all capitals). */
const CHAR_WIDTH = 0.5;
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
): CaptionPlacement {
  const { width: W, height: H } = frame;
  const portrait = H > W;
  const side = Math.round(W * 0.05);
  const bottomMargin = Math.round(H * (portrait ? 0.2 : 0.06));
  const topMargin = Math.round(H * 0.06);
  const gap = Math.round(Math.min(W, H) * 0.03);
  const baseFont = Math.round(Math.min(W, H) * 0.055);
  const chars = Math.max(1, Math.min(longestLine, CAPTION_LIMITS.maxLineChars));
  const fontFor = (width: number) => Math.max(12, Math.min(baseFont, Math.floor(width / (chars * CHAR_WIDTH))));
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

/** h:mm:ss.cc, ASS's clock. */
function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(cs / 360000)}:${pad(Math.floor(cs / 6000) % 60)}:${pad(Math.floor(cs / 100) % 60)}.${pad(cs % 100)}`;
}

/**
 * A line as ASS dialogue text, shown as written: `{` and `}` (an override block) are escaped as `\{` `\}`, which
 * libass draws as braces; a backslash before N, n or h (a line break, a hard space) gets an invisible word
 * joiner (U+2060) after it. Any other backslash is drawn as it is.
 */
const assText = (line: string) => line.replace(/\\(?=[Nnh])/g, '\\\u2060').replace(/[{}]/g, '\\$&');

/** The ASS script of a clip's cues (times are the clip's own), for a frame of `frame`'s size. */
export function captionsScript(cues: Cue[], frame: { width: number; height: number }, place: CaptionPlacement): string {
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
    `Style: Caption,${CAPTION_FONT.family},${place.fontSize},&H00FFFFFF,&H00FFFFFF,&H48000000,&H00000000,0,0,0,0,100,100,0,0,3,${pad},0,2,${marginL},${marginR},${marginV},1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...cues.map((cue) => `Dialogue: 0,${assTime(cue.startSeconds)},${assTime(cue.endSeconds)},Caption,,0,0,0,,${cue.lines.map(assText).join('\\N')}`),
    '',
  ].join('\n');
}
