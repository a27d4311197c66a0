/**
 * A `full` presenter's card carried to the frame's edges (layout.ts carriesBackdrop): the frame's backdrop is the
 * look's own (a built-in card's studio light, a photo's filled-in background), not the default gradient around a
 * card. Inside the card it is the card's pixels; outside, each pixel continues the card's nearest edge (its
 * figure's shoulders included, so a bust cut by the card's side goes on) and softens into a blur of that with the
 * distance, so no seam shows where the card ended.
 */

import type { FrameSize } from '#domain/shape';
import { coverageOf, outsideRoundedBox, type RoundedBox } from '#media/raster/card';
import type { Picture } from '#media/raster/picture';
import type { BotBox } from './layout.ts';

/** The card's rim (a light stroke on the built-in cards), canvas units: kept out of what is carried. */
const RIM = 3;
/** The blur's radius as a share of the frame's height, and the distance over which the carried edge turns into it. */
const BLUR_SHARE = 0.08;
const SOFTEN_RADII = 4;

export interface CarriedCard {
  /** The card alone (its canvas's panel layer), and the card with the figure at rest over it. */
  panel: Picture;
  withFigure: Picture;
  /** The card on that canvas, px, and canvas pixels per canvas unit. */
  card: RoundedBox;
  scale: number;
}

/** The backdrop, RGB rows of the frame's size, with the presenter's canvas at `place`. */
export function carriedBackdrop(frame: FrameSize, place: BotBox, carried: CarriedCard): Buffer {
  const { width, height } = frame;
  const rim = RIM * carried.scale;
  const { x0, y0, x1, y1, radius } = carried.card;
  const inner: RoundedBox = { x0: x0 + rim, y0: y0 + rim, x1: x1 - rim, y1: y1 - rim, radius: Math.max(0, radius - rim) };
  const edge = edgeSampler(carried.withFigure, inner);
  const base = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) edge(x - place.x, y - place.y, base, (y * width + x) * 3);
  }
  const radiusPx = Math.max(1, Math.round(height * BLUR_SHARE));
  const blurred = boxBlur(base, width, height, radiusPx);
  const out = Buffer.alloc(width * height * 3);
  const soften = SOFTEN_RADII * radiusPx;
  const panel = carried.panel;
  for (let y = 0; y < height; y++) {
    const cy = y - place.y;
    for (let x = 0; x < width; x++) {
      const cx = x - place.x;
      const o = (y * width + x) * 3;
      const outside = outsideRoundedBox(cx + 0.5, cy + 0.5, inner);
      const t = smoothstep(Math.max(0, outside) / soften);
      const a = coverageOf(outside);
      const p = a > 0 ? (cy * panel.width + cx) * 4 : 0;
      for (let c = 0; c < 3; c++) {
        const around = base[o + c]! + (blurred[o + c]! - base[o + c]!) * t;
        out[o + c] = Math.round(a > 0 ? panel.data[p + c]! * a + around * (1 - a) : around);
      }
    }
  }
  return out;
}

const smoothstep = (t: number) => (t >= 1 ? 1 : t * t * (3 - 2 * t));

/**
 * Writes the colour of the card's nearest point inside `inner` to (canvas x, y): clamped to its straight edges,
 * and onto the arc at a rounded corner, so what is carried is always the card's (never its shadow or its corner).
 */
function edgeSampler(picture: Picture, inner: RoundedBox) {
  const { x0, y0, x1, y1, radius: r } = inner;
  return (x: number, y: number, into: Buffer, at: number) => {
    let sx = Math.min(x1 - 1, Math.max(x0, x));
    let sy = Math.min(y1 - 1, Math.max(y0, y));
    // The centre of the corner's arc nearest the point (the point itself along a straight edge).
    const cx = Math.min(x1 - r, Math.max(x0 + r, sx));
    const cy = Math.min(y1 - r, Math.max(y0 + r, sy));
    const dx = sx - cx;
    const dy = sy - cy;
    const d = Math.hypot(dx, dy);
    if (d > r - 1 && d > 0) {
      sx = cx + (dx * (r - 1)) / d;
      sy = cy + (dy * (r - 1)) / d;
    }
    const i = (Math.round(sy) * picture.width + Math.round(sx)) * 4;
    into[at] = picture.data[i]!;
    into[at + 1] = picture.data[i + 1]!;
    into[at + 2] = picture.data[i + 2]!;
  };
}

/** Three passes of a box blur in each direction (close to a Gaussian), RGB rows, edges clamped. */
function boxBlur(rgb: Buffer, width: number, height: number, radius: number): Buffer {
  const a = Buffer.from(rgb);
  const b = Buffer.alloc(rgb.length);
  for (let pass = 0; pass < 3; pass++) {
    blurLines(a, b, height, width, width * 3, 3, radius);
    blurLines(b, a, width, height, 3, width * 3, radius);
  }
  return a;
}

/** A box blur along `length` pixels `step` bytes apart, for `lines` lines `stride` bytes apart. */
function blurLines(src: Buffer, dst: Buffer, lines: number, length: number, stride: number, step: number, radius: number): void {
  const span = 2 * radius + 1;
  for (let line = 0; line < lines; line++) {
    const start = line * stride;
    for (let c = 0; c < 3; c++) {
      const at = (i: number) => src[start + Math.min(length - 1, Math.max(0, i)) * step + c]!;
      let sum = 0;
      for (let i = -radius; i <= radius; i++) sum += at(i);
      for (let i = 0; i < length; i++) {
        dst[start + i * step + c] = Math.round(sum / span);
        sum += at(i + radius + 1) - at(i - radius);
      }
    }
  }
}
