/**
 * Where a presenter's figure may be drawn on its canvas: anti-aliased coverage (0..255) per canvas pixel. On its
 * card: the card's rounded rectangle, so the figure never leaves it. Without the card the bust is cut straight at
 * the card's bottom: that edge lies on the frame's bottom edge ('flush'), or the lower part of the bust fades out
 * ('fade') so that a presenter higher up in the frame does not end in a hard cut.
 */
import { type Mask, maskOf } from '#media/raster/blend';
import { coverageOf, outsideRoundedBox } from '#media/raster/card';
import type { BotSprites } from '../sprites.ts';

/** How the bust ends at the bottom: inside its card, on the frame's bottom edge, or fading out. */
export type BotBottom = 'card' | 'flush' | 'fade';
/** Share of the card's height over which a floating bust fades out. */
const FADE_FRACTION = 0.22;

export function figureMask(sprites: BotSprites, bottom: BotBottom): Mask {
  const { width, height, scale } = sprites;
  const p = sprites.manifest.panel;
  const card = { x0: p.x * scale, y0: p.y * scale, x1: (p.x + p.width) * scale, y1: (p.y + p.height) * scale, radius: p.radius * scale };
  const { y0, y1 } = card;
  const fadeFrom = y1 - (y1 - y0) * FADE_FRACTION;
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = x + 0.5,
        py = y + 0.5;
      let coverage: number;
      if (bottom === 'card') coverage = coverageOf(outsideRoundedBox(px, py, card));
      else {
        // No card to stay inside, but the sprite ends at the card's bottom: cut straight there.
        coverage = Math.min(1, Math.max(0, y1 - py + 0.5));
        if (bottom === 'fade' && py > fadeFrom) {
          const t = Math.min(1, (py - fadeFrom) / (y1 - fadeFrom));
          coverage *= 1 - t * t * (3 - 2 * t); // smoothstep down to transparent
        }
      }
      mask[y * width + x] = Math.round(coverage * 255);
    }
  }
  return maskOf(mask, width, height);
}
