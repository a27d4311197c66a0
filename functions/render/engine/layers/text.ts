/**
 * The text layer: a clip's burned captions and its text overlays, drawn by one `ass` filter from one script in the
 * theme's font and colours: the captions placed clear of the presenter, the overlays clear of both and of the
 * image layers. The script and a folder holding only the fonts it needs (libass loads every file of `fontsdir`)
 * are written into the work directory. No layer when there is nothing to draw.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THEME, type TextOverlay } from '#domain/overlays';
import { CAPTION_CHAR_WIDTH, captionBlockOf, captionsScript, placeCaptions } from '../burned-captions.ts';
import { fontFilePath, fontsFor, THEME_FONT_FILES } from '../fonts.ts';
import { imageBoxOf } from '../image-layers.ts';
import type { Scene } from '../scene.ts';
import { overlayEvent, overlayStyles, placeTextOverlays } from '../text-overlays.ts';
import { type LayerKind, under } from './layer.ts';

export const textLayers: LayerKind = (scene) => {
  const filter = burnText(scene);
  return filter ? [{ draw: (graph, below) => graph.chain(under(below), filter) }] : [];
};

function burnText({ input, frame, presenter, images, timing, ...scene }: Scene): string | undefined {
  const { workDir } = input;
  const cues = scene.burnCaptions ? scene.cues : [];
  const clipSeconds = timing.totalSeconds;
  const theme = input.theme ?? DEFAULT_THEME;
  const font = THEME_FONT_FILES[theme.font];
  const texts = (input.overlays ?? []).filter((o): o is TextOverlay => o.type === 'text');
  const charWidth = (CAPTION_CHAR_WIDTH * font.charWidth) / THEME_FONT_FILES.inter.charWidth;
  const longest = Math.max(0, ...cues.flatMap((cue) => cue.lines.map((line) => [...line].length)));
  const place = placeCaptions(frame, presenter.place, longest || undefined, presenter.head, charWidth);
  const boxes = images.map((l) => ({ box: imageBoxOf(frame, l.image, l.position, l.size), start: l.start ?? 0, end: l.end ?? clipSeconds }));
  // A full presenter is the picture: text goes over its bust as on television, clear of its face.
  const keepClear = {
    presenter: input.botSize === 'full' ? presenter.head : presenter.place,
    images: boxes,
    ...(cues.length && { captions: captionBlockOf(place) }),
  };
  const placed = placeTextOverlays(frame, texts, keepClear, clipSeconds, font);
  if (!cues.length && !placed.length) return undefined;
  const script = join(workDir, 'text.ass');
  const overlays = { styles: placed.length ? overlayStyles(theme, font) : [], events: placed.map((p) => overlayEvent(p, font, frame)) };
  writeFileSync(script, captionsScript(cues, frame, place, theme, overlays));
  const fonts = join(workDir, 'fonts');
  mkdirSync(fonts, { recursive: true });
  for (const file of fontsFor([...cues.flatMap((c) => c.lines), ...placed.flatMap((p) => p.lines)], font))
    symlinkSync(fontFilePath(file), join(fonts, file.file));
  // Filter option values: the work directory is ours (letters, digits, / _ . -), never a caller's string.
  for (const path of [script, fonts]) if (!/^[\w/.-]+$/.test(path)) throw new Error(`unexpected characters in work path ${path}`);
  return `ass=filename=${script}:fontsdir=${fonts}`;
}
