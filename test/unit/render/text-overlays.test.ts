/**
 * Text overlays laid out and placed: inside the safe area, never under the presenter, the burned captions or
 * another overlay shown at the same time, in every shape and for every presenter position; and written into the
 * ASS script so that no markup of the caller's is read.
 */
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { BOT_POSITIONS, type BotPosition, OVERLAY_DEFAULT_POSITIONS, OVERLAY_STYLES } from '#domain/choices';
import type { TextOverlay } from '#domain/overlays';
import { frameSizeOf, type Shape } from '#domain/shape';
import { captionBlockOf, captionsScript, placeCaptions } from '#functions/render/engine/burned-captions.ts';
import { fontRuns, THEME_FONT_FILES } from '#functions/render/engine/fonts.ts';
import { layoutFor } from '#functions/render/engine/layout.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import {
  assLiteral,
  assRuns,
  overlayEvent,
  overlayStyles,
  placeTextOverlays,
  type Rect,
  safeArea,
  wrapLines,
} from '#functions/render/engine/text-overlays.ts';

const INTER = THEME_FONT_FILES.inter;
const SHAPES: Shape[] = [
  { aspectRatio: '16:9', resolution: '720p' },
  { aspectRatio: '9:16', resolution: '720p' },
  { aspectRatio: '1:1', resolution: '1080p' },
];
const manifest = loadSprites('ava', 300).manifest;

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const text = (style: TextOverlay['style'], value: string, position?: BotPosition, start = 0, end?: number): TextOverlay => ({
  type: 'text',
  style,
  text: value,
  start,
  ...(end !== undefined && { end }),
  position: position ?? OVERLAY_DEFAULT_POSITIONS[style],
});
const SAMPLES: Record<TextOverlay['style'], string> = {
  title: 'Quarterly results for the whole team',
  lower_third: 'Ava Martin\nHead of product, Northwind',
  caption_box: 'Join us on Thursday at noon for the launch of the new plan: questions welcome.',
};

describe('placing text overlays', () => {
  it('keeps a title, a lower third and a caption box clear of the presenter, the captions and each other, in every shape', () => {
    let moved = 0;
    const crowded: string[] = [];
    for (const shape of SHAPES) {
      const frame = frameSizeOf(shape);
      const area = safeArea(frame);
      // The centre position is the presenter's largest: in a square frame it leaves no room for captions either.
      for (const botPosition of BOT_POSITIONS.filter((p) => p !== 'center')) {
        const presenter = layoutFor(frame, botPosition, manifest);
        const captions = captionBlockOf(placeCaptions(frame, presenter));
        const overlays = OVERLAY_STYLES.map((style) => text(style, SAMPLES[style]));
        const placed = placeTextOverlays(frame, overlays, { presenter, captions }, 10, INTER);
        expect(placed).toHaveLength(3);
        for (const [i, p] of placed.entries()) {
          const what = `${shape.aspectRatio} presenter ${botPosition}: ${p.overlay.style} at ${JSON.stringify(p.box)}`;
          expect(overlaps(p.box, presenter), what).toBe(false);
          expect(overlaps(p.box, captions), what).toBe(false);
          // Over another overlay only when the frame has no room left for three at once.
          if (p.where === 'over') crowded.push(what);
          else for (const other of placed.slice(0, i)) expect(overlaps(p.box, other.box), what).toBe(false);
          expect(
            p.box.x >= area.left && p.box.x + p.box.width <= area.right && p.box.y >= area.top && p.box.y + p.box.height <= area.bottom,
            what,
          ).toBe(true);
          if (p.where === 'moved') moved++;
        }
      }
    }
    // The rule is exercised: some overlays had to move; and only the square frame runs out of room (a presenter at
    // the top centre or at a side's centre there leaves a band too small for a third box of text).
    expect(moved).toBeGreaterThan(0);
    expect(
      crowded.filter((c) => !c.startsWith('1:1')),
      crowded.join('\n'),
    ).toEqual([]);
    expect(crowded.length).toBeLessThanOrEqual(3);
  });

  it('keeps every style at every position clear of a presenter in the centre of a landscape frame', () => {
    const frame = frameSizeOf(SHAPES[0]!);
    const presenter = layoutFor(frame, 'center', manifest);
    for (const style of OVERLAY_STYLES)
      for (const position of BOT_POSITIONS) {
        const [p] = placeTextOverlays(frame, [text(style, SAMPLES[style], position)], { presenter }, 10, INTER);
        expect(overlaps(p!.box, presenter), `${style} ${position}`).toBe(false);
      }
  });

  it('goes at its own position when it is free, and lets two overlays share a place at different times', () => {
    const frame = frameSizeOf(SHAPES[0]!);
    const presenter = layoutFor(frame, 'top-right', manifest);
    const [a, b] = placeTextOverlays(
      frame,
      [text('lower_third', 'First', 'bottom-left', 0, 3), text('lower_third', 'Second', 'bottom-left', 3, 6)],
      { presenter },
      10,
      INTER,
    );
    expect(a!.where).toBe('position');
    expect(b!.where).toBe('position');
    expect(b!.box).toMatchObject({ x: a!.box.x, y: a!.box.y + a!.box.height - b!.box.height });
  });

  it("cuts an end past the clip's to it, and leaves out an overlay that starts after the clip", () => {
    const frame = frameSizeOf(SHAPES[0]!);
    const presenter = layoutFor(frame, 'top-right', manifest);
    const placed = placeTextOverlays(frame, [text('title', 'A', 'center', 1, 99), text('title', 'B', 'center', 12)], { presenter }, 10, INTER);
    expect(placed.map((p) => [p.overlay.text, p.start, p.end])).toEqual([['A', 1, 10]]);
  });

  it('wraps long text to the box, between words and between CJK characters, and shrinks it to its lines', () => {
    expect(wrapLines('one two three four', INTER, 20, 130)).toEqual(['one two', 'three four']);
    const cjk = wrapLines('你好世界你好世界你好世界', INTER, 20, 100);
    expect(cjk.length).toBeGreaterThan(1);
    expect(cjk.join('')).toBe('你好世界你好世界你好世界');
    expect(wrapLines('a\nb', INTER, 20, 1000)).toEqual(['a', 'b']);
    const frame = frameSizeOf(SHAPES[0]!);
    const [p] = placeTextOverlays(
      frame,
      [text('title', 'The quarterly results of the whole team, with the plans for the year ahead', 'top-center')],
      { presenter: { x: 0, y: 700, width: 10, height: 10 } },
      10,
      INTER,
    );
    expect(p!.lines.length).toBeLessThanOrEqual(2);
    expect(p!.box.width).toBeLessThanOrEqual(safeArea(frame).right - safeArea(frame).left);
  });
});

describe('the ASS text of an overlay', () => {
  it('shows markup as written: override blocks, line breaks, hard spaces and drawings are escaped', () => {
    const hostile = '{\\b1}x\\N y {\\fnArial}\\h{\\p1}m 0 0 l 100 0 100 100{\\p0}\\';
    const escaped = assLiteral(hostile);
    // Every brace is escaped, and no backslash is followed by N, n, h or a brace, or ends the text.
    expect(escaped.replace(/\\[{}]/g, '')).not.toMatch(/[{}]/);
    expect(escaped.replace(/\\[{}]/g, '')).not.toMatch(/\\([Nnh{}]|$)/);
    // ...and nothing is lost: without the escapes it is the text again.
    expect(escaped.replace(/\\([{}])/g, '$1').replaceAll('\u2060', '')).toBe(hostile);
  });

  it('gives each run of Arabic and CJK its font, and the style font back after it', () => {
    expect(fontRuns('Hi مرحبا 1, 你好!', INTER).map((r) => [r.font.family, r.text])).toEqual([
      ['Inter SemiBold', 'Hi '],
      ['Noto Sans Arabic SemiBold', 'مرحبا 1, '],
      ['Noto Sans SC SemiBold', '你好!'],
    ]);
    // The neutral `{\` joins the Arabic run and `b1}` starts a Latin one: the backslash before our own `{\fn}`
    // gets its word joiner, so neither the caller's braces nor ours change meaning.
    const ass = assRuns('Hi مرحبا {\\b1}', INTER);
    expect(ass).toBe('Hi {\\fnNoto Sans Arabic SemiBold\\fscx115\\fscy115}مرحبا \\{\\\u2060{\\fn\\fscx100\\fscy100}b1\\}');
  });

  it('is an event of the theme colours, fading in and out within its window', () => {
    const frame = frameSizeOf(SHAPES[0]!);
    const presenter = layoutFor(frame, 'bottom-right', manifest);
    const placed = placeTextOverlays(frame, [text('lower_third', 'Ava {\\i1}\nHost', undefined, 1.5, 4)], { presenter }, 10, INTER);
    const event = overlayEvent(placed[0]!, INTER, frame);
    expect(event).toMatch(/^Dialogue: 1,0:00:01\.50,0:00:04\.00,lower_third,,0,0,0,,\{\\an7\\q2\\move\(/);
    expect(event).toContain('\\fad(300,300)');
    expect(event.endsWith('Ava \\{\\i1\\}\\N{\\fs27}Host')).toBe(true);
    const styles = overlayStyles({ font: 'montserrat', primaryColor: '#C2410C', textColor: '#FFF7ED' }, THEME_FONT_FILES.montserrat).join('\n');
    expect(styles).toContain('Style: lower_third,Montserrat SemiBold,48,&H00EDF7FF,&H00EDF7FF,&H000C41C2,');
    // The whole script: the captions in the theme's font and colour, the overlays after them.
    const place = placeCaptions(frame, presenter);
    const script = captionsScript([{ startSeconds: 0, endSeconds: 1, lines: ['Hello'] }], frame, place, {
      font: 'montserrat',
      primaryColor: '#C2410C',
      textColor: '#FFF7ED',
    });
    expect(script).toContain('Style: Caption,Montserrat SemiBold,');
    expect(script).toContain(',&H00EDF7FF,&H00EDF7FF,&H48000000,');
  });

  it('is laid out for a bot of every look', () => {
    // Guards the manifest used above: every built-in look has a canvas the layout can place.
    for (const bot of BUILT_IN_BOTS) expect(loadSprites(bot.look, 300).manifest.width).toBeGreaterThan(0);
  });
});
