/**
 * Text overlays (a clip's titles, lower thirds and caption boxes): how big, where, and the ASS events libass
 * draws them from, in the same script (and the same `ass` filter) as the burned captions.
 *
 * Each overlay is laid out in lines we break ourselves (libass's own wrapping is turned off with `\q2`, so the
 * size we place is the size drawn), within the frame's safe margins. It goes at its position unless that would
 * put it under the presenter, the burned captions or an overlay shown at the same time: then just above or below
 * what is in the way in its own column, else at the nearest free position of the 3x3 grid, smaller if need be.
 */
import type { BotPosition, OverlayStyle } from '#domain/choices';
import { BOT_POSITIONS } from '#domain/choices';
import { limits } from '#domain/limits';
import type { TextOverlay, Theme } from '#domain/overlays';
import { charWidthOf, type FontFile, fontRuns, needsTallLines } from './fonts.ts';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An overlay laid out and placed: its lines, sizes and box (px), and when it shows (clip seconds). */
export interface PlacedText {
  overlay: TextOverlay;
  lines: string[];
  fontSize: number;
  /** The second line's size (a lower third's role line is smaller). */
  secondFontSize: number;
  padding: number;
  box: Rect;
  align: 'left' | 'center' | 'right';
  start: number;
  end: number;
  /**
   * Which rule placed it: its own position; moved clear of something; or, with no room left, over another
   * overlay shown at the same time (never over the presenter or the captions while a place clear of them exists).
   */
  where: 'position' | 'moved' | 'over';
}

/**
 * Font size (share of the frame's shorter side), widest box (share of the width, landscape / portrait) and the
 * box's padding (share of the font size) per style.
 */
const STYLE_SIZES: Record<OverlayStyle, { font: number; second: number; width: [number, number]; padding: number }> = {
  title: { font: 0.09, second: 0.09, width: [0.9, 0.9], padding: 0.12 },
  lower_third: { font: 0.052, second: 0.038, width: [0.55, 0.9], padding: 0.35 },
  caption_box: { font: 0.042, second: 0.042, width: [0.6, 0.9], padding: 0.35 },
};
/** Line height as a share of the font size (Latin; Arabic and CJK need taller lines). */
const LINE_HEIGHT = 1.25;
const TALL_LINE_HEIGHT = 1.6;
/**
 * The sizes tried, in order, until an overlay fits somewhere: its own, then narrower (more lines), then smaller.
 * `scale` multiplies the font size, `narrow` the widest box.
 */
interface Fit {
  scale: number;
  narrow: number;
}
const FITS: Fit[] = [1, 0.85, 0.7].flatMap((scale) => [1, 0.65, 0.45].map((narrow) => ({ scale, narrow })));
/** Seconds of the fade in and out (and a lower third's slide). */
const FADE_SECONDS = 0.3;

/**
 * The frame's safe area: the burned captions' margins (more at the bottom of a portrait frame, under players' controls).
 * @internal Exported for its tests.
 */
export function safeArea(frame: { width: number; height: number }) {
  const portrait = frame.height > frame.width;
  return {
    left: Math.round(frame.width * 0.05),
    right: frame.width - Math.round(frame.width * 0.05),
    top: Math.round(frame.height * 0.06),
    bottom: frame.height - Math.round(frame.height * (portrait ? 0.2 : 0.06)),
  };
}

const TOKEN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]|\s+|[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]+/gu;

const widthOf = (text: string, font: FontFile, size: number) => [...text].reduce((w, c) => w + charWidthOf(c, font) * size, 0);

/**
 * The text broken into lines no wider than `maxWidth` px: at its own line breaks, between words, between CJK
 * characters (which need no space), and inside a word longer than a line.
 * @internal Exported for its tests.
 */
export function wrapLines(text: string, font: FontFile, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const token of paragraph.match(TOKEN) ?? []) {
      if (/^\s+$/u.test(token)) {
        if (line) line += ' ';
        continue;
      }
      if (widthOf(line + token, font, size) <= maxWidth) {
        line += token;
        continue;
      }
      if (line.trim()) lines.push(line.trimEnd());
      line = '';
      // A word longer than a line is cut where it must.
      for (const char of token) {
        if (line && widthOf(line + char, font, size) > maxWidth) {
          lines.push(line);
          line = '';
        }
        line += char;
      }
    }
    if (line.trim() || lines.length === 0) lines.push(line.trimEnd());
  }
  return lines;
}

interface Layout {
  lines: string[];
  fontSize: number;
  secondFontSize: number;
  padding: number;
  width: number;
  height: number;
}

function layoutOf(overlay: TextOverlay, frame: { width: number; height: number }, font: FontFile, { scale, narrow }: Fit): Layout {
  const sizes = STYLE_SIZES[overlay.style];
  const short = Math.min(frame.width, frame.height);
  const area = safeArea(frame);
  const maxBox = Math.round(Math.min(area.right - area.left, frame.width * sizes.width[frame.height > frame.width ? 1 : 0]) * narrow);
  const maxLines = limits.overlayText[overlay.style].maxLines;
  let fontSize = Math.round(short * sizes.font * scale);
  let secondFontSize = Math.round(short * sizes.second * scale);
  let padding = Math.round(fontSize * sizes.padding);
  let lines = wrapLines(overlay.text, font, fontSize, maxBox - 2 * padding);
  // Shrinks until the text keeps within its style's lines (never below 60 % of the size).
  while (lines.length > maxLines && fontSize > short * sizes.font * scale * 0.6) {
    fontSize = Math.round(fontSize * 0.9);
    secondFontSize = Math.round(secondFontSize * 0.9);
    padding = Math.round(fontSize * sizes.padding);
    lines = wrapLines(overlay.text, font, fontSize, maxBox - 2 * padding);
  }
  const sizeOf = (i: number) => (i === 0 ? fontSize : secondFontSize);
  const width = Math.min(maxBox, Math.ceil(Math.max(...lines.map((l, i) => widthOf(l, font, sizeOf(i)))) + 2 * padding));
  const height = Math.ceil(lines.reduce((h, l, i) => h + sizeOf(i) * (needsTallLines(l) ? TALL_LINE_HEIGHT : LINE_HEIGHT), 0) + 2 * padding);
  return { lines, fontSize, secondFontSize, padding, width, height };
}

const overlaps = (a: Rect, b: Rect, gap: number) =>
  a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap;
const overlapArea = (a: Rect, b: Rect) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

const rowCol = (p: BotPosition): [number, number] => {
  if (p === 'center') return [1, 1];
  const [v, h] = p.split('-') as [string, string];
  return [v === 'top' ? 0 : v === 'center' ? 1 : 2, h === 'left' ? 0 : h === 'center' ? 1 : 2];
};

/** The box's corner for a position of the grid, inside the safe area. */
function rectAt(position: BotPosition, width: number, height: number, frame: { width: number; height: number }): Rect {
  const area = safeArea(frame);
  const [row, col] = rowCol(position);
  const x = col === 0 ? area.left : col === 2 ? area.right - width : Math.round((frame.width - width) / 2);
  const y = row === 0 ? area.top : row === 2 ? area.bottom - height : Math.round((frame.height - height) / 2);
  return { x, y, width, height };
}

/** The positions to try for a preferred one: itself, then the others nearest first. */
const byDistance = (preferred: BotPosition) => {
  const [r0, c0] = rowCol(preferred);
  return [...BOT_POSITIONS].sort((a, b) => {
    const [ra, ca] = rowCol(a);
    const [rb, cb] = rowCol(b);
    return Math.abs(ra - r0) + Math.abs(ca - c0) - (Math.abs(rb - r0) + Math.abs(cb - c0));
  });
};

/** Where the overlays of a clip go, given what must stay visible: the presenter's box and the captions' block. */
export function placeTextOverlays(
  frame: { width: number; height: number },
  overlays: TextOverlay[],
  keepClear: { presenter: Rect; captions?: Rect; images?: { box: Rect; start: number; end: number }[] },
  clipSeconds: number,
  font: FontFile,
): PlacedText[] {
  const gap = Math.round(Math.min(frame.width, frame.height) * 0.02);
  const area = safeArea(frame);
  const placed: PlacedText[] = [];
  for (const overlay of overlays) {
    const start = overlay.start;
    const end = Math.min(overlay.end ?? clipSeconds, clipSeconds);
    if (end - start < 0.05) continue;
    const obstacles = [
      keepClear.presenter,
      ...(keepClear.captions ? [keepClear.captions] : []),
      ...placed.filter((p) => p.start < end && start < p.end).map((p) => p.box),
      // The logo and the image overlays shown meanwhile: text is drawn over them, so it keeps clear where it can.
      ...(keepClear.images ?? []).filter((i) => i.start < end && start < i.end).map((i) => i.box),
    ];
    const inside = (r: Rect) => r.x >= area.left && r.x + r.width <= area.right && r.y >= area.top && r.y + r.height <= area.bottom;
    const clearOf = (r: Rect, rects: Rect[]) => inside(r) && rects.every((o) => !overlaps(r, o, gap));
    // The largest text first: a narrower box is tried before a smaller font only if it keeps the size.
    const layouts = FITS.map((fit) => layoutOf(overlay, frame, font, fit)).sort((a, b) => b.fontSize - a.fontSize);
    const candidatesOf = (layout: Layout) => {
      const own = rectAt(overlay.position, layout.width, layout.height, frame);
      // In its own column: above or below what is in the way, then the grid's other places, nearest first.
      const besideObstacles = (r: Rect) =>
        obstacles.flatMap((o) => [
          { ...r, y: o.y - gap - layout.height },
          { ...r, y: o.y + o.height + gap },
        ]);
      const others = byDistance(overlay.position).map((p) => rectAt(p, layout.width, layout.height, frame));
      return [own, ...besideObstacles(own), ...others, ...others.flatMap(besideObstacles)];
    };
    const find = (rects: Rect[]) => {
      for (const layout of layouts) {
        const candidates = candidatesOf(layout);
        const rect = candidates.find((r) => clearOf(r, rects));
        if (rect) return { rect, layout, own: rect === candidates[0] };
      }
      return undefined;
    };
    const mustStayVisible = obstacles.slice(0, keepClear.captions ? 2 : 1);
    // Clear of everything; else, with no room left, over another overlay but still clear of the presenter and the
    // captions; else (a frame too full for any room) where it covers least.
    const free = find(obstacles);
    const crowded = free ? undefined : find(mustStayVisible);
    let chosen: { rect: Rect; layout: Layout; where: PlacedText['where'] };
    if (free) chosen = { rect: free.rect, layout: free.layout, where: free.own ? 'position' : 'moved' };
    else if (crowded) chosen = { rect: crowded.rect, layout: crowded.layout, where: 'over' };
    else {
      const layout = layouts[layouts.length - 1]!;
      const covered = (r: Rect) => mustStayVisible.reduce((sum, o) => sum + overlapArea(r, o), 0);
      const rect = candidatesOf(layout).reduce((best, r) => (inside(r) && covered(r) < covered(best) ? r : best));
      chosen = { rect, layout, where: 'over' };
    }
    const [, col] = rowCol(overlay.position);
    const align = overlay.style === 'lower_third' ? (col === 2 ? 'right' : 'left') : 'center';
    const { lines, fontSize, secondFontSize, padding } = chosen.layout;
    placed.push({ overlay, lines, fontSize, secondFontSize, padding, box: chosen.rect, align, start, end, where: chosen.where });
  }
  return placed;
}

/**
 * Text as ASS dialogue text, shown as written: `{` and `}` (an override block) are escaped as `\{` `\}`, which
 * libass draws as braces; a backslash that could start an escape (before N, n, h, a brace, or at the end of the
 * text, where an override of ours may follow) gets an invisible word joiner (U+2060) after it.
 * @internal Exported for its tests.
 */
export const assLiteral = (text: string) =>
  text
    // A control character (refused at create; never trusted here) would end or garble the script: a NUL ends it.
    .replace(/[\p{Cc}]/gu, ' ')
    .replace(/\\(?=[Nnh{}]|$)/g, '\\\u2060')
    .replace(/[{}]/g, '\\$&');

/**
 * A line of text as ASS with each run of another script in its font (`\fn`), back to the style's font after it.
 * @internal Exported for its tests.
 */
export const assRuns = (line: string, base: FontFile): string =>
  fontRuns(line, base)
    .map((r) => {
      if (r.font === base) return assLiteral(r.text);
      const scale = r.font.scale ? `\\fscx${Math.round(r.font.scale * 100)}\\fscy${Math.round(r.font.scale * 100)}` : '';
      return `{\\fn${r.font.family}${scale}}${assLiteral(r.text)}{\\fn${scale && '\\fscx100\\fscy100'}}`;
    })
    .join('');

/** #RRGGBB as ASS's &HAABBGGRR (alpha 00 is opaque). */
export const assColour = (hex: string, alpha = 0) =>
  `&H${alpha.toString(16).padStart(2, '0').toUpperCase()}${hex.slice(5, 7)}${hex.slice(3, 5)}${hex.slice(1, 3)}`.toUpperCase();

/** h:mm:ss.cc, ASS's clock. */
export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(cs / 360000)}:${pad(Math.floor(cs / 6000) % 60)}:${pad(Math.floor(cs / 100) % 60)}.${pad(cs % 100)}`;
}

/** The [V4+ Styles] lines of the overlay styles in a theme (each event sets its own size and place). */
export function overlayStyles(theme: Theme, font: FontFile): string[] {
  const text = assColour(theme.textColor);
  const box = assColour(theme.primaryColor);
  const translucentBox = assColour(theme.primaryColor, 0x20);
  // Name, Fontname, Fontsize, Primary, Secondary, Outline, Back, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY,
  // Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
  return [
    // A title: the text with a thin dark edge and a soft shadow, legible on any picture.
    `Style: title,${font.family},48,${text},${text},&H60000000,&H80000000,0,0,0,0,100,100,0,0,1,2,3,8,0,0,0,1`,
    // A lower third: a bar of the theme's colour (BorderStyle 3: the outline colour fills a box around the text).
    `Style: lower_third,${font.family},48,${text},${text},${box},&H80000000,0,0,0,0,100,100,0,0,3,10,0,7,0,0,0,1`,
    `Style: caption_box,${font.family},48,${text},${text},${translucentBox},&H80000000,0,0,0,0,100,100,0,0,3,10,0,8,0,0,0,1`,
  ];
}

/** The ASS event of a placed overlay: its lines at its place, fading (and a lower third sliding) in and out. */
export function overlayEvent(p: PlacedText, font: FontFile, frame: { width: number }): string {
  const fadeMs = Math.round(Math.min(FADE_SECONDS, (p.end - p.start) / 3) * 1000);
  const [an, x] =
    p.align === 'left' ? [7, p.box.x + p.padding] : p.align === 'right' ? [9, p.box.x + p.box.width - p.padding] : [8, p.box.x + p.box.width / 2];
  const y = p.box.y + p.padding;
  const slide = Math.round(frame.width * 0.02) * (p.align === 'right' ? 1 : -1);
  const place =
    p.overlay.style === 'lower_third'
      ? `\\move(${Math.round(x + slide)},${Math.round(y)},${Math.round(x)},${Math.round(y)},0,${fadeMs})`
      : `\\pos(${Math.round(x)},${Math.round(y)})`;
  const lines = p.lines.map((line, i) => (i === 1 && p.secondFontSize !== p.fontSize ? `{\\fs${p.secondFontSize}}` : '') + assRuns(line, font));
  const head = `{\\an${an}\\q2${place}\\fs${p.fontSize}\\bord${p.overlay.style === 'title' ? Math.max(1, Math.round(p.fontSize * 0.03)) : p.padding}\\shad${p.overlay.style === 'title' ? Math.max(1, Math.round(p.fontSize * 0.05)) : 0}\\fad(${fadeMs},${fadeMs})}`;
  return `Dialogue: 1,${assTime(p.start)},${assTime(p.end)},${p.overlay.style},,0,0,0,,${head}${lines.join('\\N')}`;
}
