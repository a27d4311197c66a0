/** Text overlays are drawn over the image layers: they keep clear of the logo and of image overlays shown meanwhile. */
import { describe, expect, it } from 'vitest';
import { LOGO_DEFAULTS } from '#domain/choices';
import type { TextOverlay } from '#domain/overlays';
import { frameSizeOf } from '#domain/shape';
import { THEME_FONT_FILES } from '#functions/render/engine/fonts.ts';
import { imageBoxOf } from '#functions/render/engine/image-layers.ts';
import { placeTextOverlays, type Rect } from '#functions/render/engine/text-overlays.ts';

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const frame = frameSizeOf({ aspectRatio: '16:9', resolution: '720p' });
const presenter = { x: 40, y: 420, width: 260, height: 260 };
const logo = imageBoxOf(frame, { width: 400, height: 400 }, LOGO_DEFAULTS.position, LOGO_DEFAULTS.size);
const title = (start = 0, end?: number): TextOverlay => ({
  type: 'text',
  style: 'caption_box',
  text: 'Launch day',
  start,
  position: 'top-right',
  ...(end && { end }),
});

describe('text overlays and image layers', () => {
  it('a text overlay asked at the logo’s corner is moved clear of the logo', () => {
    const [p] = placeTextOverlays(frame, [title()], { presenter, images: [{ box: logo, start: 0, end: 10 }] }, 10, THEME_FONT_FILES.inter);
    expect(overlaps(p!.box, logo)).toBe(false);
    expect(p!.where).toBe('moved');
  });

  it('an image overlay counts only during its window', () => {
    const [p] = placeTextOverlays(frame, [title(5, 8)], { presenter, images: [{ box: logo, start: 0, end: 4 }] }, 10, THEME_FONT_FILES.inter);
    expect(p!.where).toBe('position');
  });
});
