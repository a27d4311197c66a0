/**
 * What a photo bot's open mouth shows, painted over its warped face: an opening with depth (the lips' inner surface
 * at the edge, darkening inward to the throat), the tongue on its floor, the lower teeth's edge along the lower lip,
 * the upper teeth as a thin band under the upper lip only when the mouth is open wide (or over a shape's share of
 * its opening), and, for rounded lips pushed forward, their shadow on the face around them.
 */
import type { Picture } from '#media/raster/picture';
import type { Point } from './faces.ts';
import { signedDistance, smoothLoop } from './mesh-warp.ts';

type Rgb = readonly [number, number, number];

/** The lips' inner surface where the opening starts, and the throat at its deepest. */
const LIP_INSIDE: Rgb = [124, 56, 58];
const THROAT: Rgb = [34, 11, 14];
const TONGUE: Rgb = [178, 84, 88];
const TOOTH: Rgb = [232, 226, 214];

const mix = (a: readonly number[], b: readonly number[], t: number): number[] => a.map((v, n) => v + (b[n]! - v) * t);
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** The y of a contour (ordered left to right or right to left) at x, linearly between its points. */
function contourAt(chain: Point[], x: number, fallback: number): number {
  for (let i = 0; i + 1 < chain.length; i++) {
    const a = chain[i]!,
      b = chain[i + 1]!;
    if ((x >= a.x && x <= b.x) || (x >= b.x && x <= a.x)) return a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x || 1);
  }
  return fallback;
}

/**
 * The open mouth's inside, within the inner-lip contour (60-67, warped, smoothed) or a shape's `opening` (its upper
 * lip's 17 points from the left, then the lower lip's back). A shape's `teeth` is the share of its opening's height
 * the upper teeth fill (1: the upper teeth resting on the lower lip, as for f and v).
 */
export function paintMouth(picture: Picture, to: Point[], faceWidth: number, moved: Uint8Array, shape?: { opening: Point[]; teeth: number }): void {
  const poly = shape?.opening ?? smoothLoop([60, 61, 62, 63, 64, 65, 66, 67].map((i) => to[i]!));
  const split = shape ? 16 : 4 * 6;
  const upper = poly.slice(0, split + 1);
  const lower = [...poly.slice(split), poly[0]!];
  const top = Math.min(...poly.map((p) => p.y));
  const bottom = Math.max(...poly.map((p) => p.y));
  const gap = bottom - top;
  if (gap < 1) return;
  // Open wide, a level shows the upper teeth's edge, a thin band; the lower teeth's edge and the tongue show once
  // the mouth is open more than a slit.
  const upperTeeth = shape ? gap * shape.teeth : gap > faceWidth * 0.1 ? Math.min(gap * 0.12, faceWidth * 0.016) : 0;
  const lowerTeeth = gap > faceWidth * 0.06 ? Math.min(gap * 0.1, faceWidth * 0.013) : 0;
  const tongue = gap > faceWidth * 0.05 && (shape?.teeth ?? 0) < 0.6;
  // How far in from the lips the inside reaches the throat's darkness.
  const depth = Math.max(1.5, gap * 0.42);
  const x0 = Math.max(0, Math.floor(Math.min(...poly.map((p) => p.x))) - 1);
  const x1 = Math.min(picture.width - 1, Math.ceil(Math.max(...poly.map((p) => p.x))) + 1);
  const cx = (x0 + x1) / 2,
    half = (x1 - x0) / 2 || 1;
  const d = picture.data;
  for (let y = Math.max(0, Math.floor(top) - 1); y <= Math.min(picture.height - 1, Math.ceil(bottom) + 1); y++) {
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5,
        py = y + 0.5;
      const inside = signedDistance(poly, px, py);
      const cover = clamp01(0.5 + inside / 1.4);
      if (cover <= 0) continue;
      const across = Math.abs(px - cx) / half;
      const yu = contourAt(upper, px, top),
        yl = contourAt(lower, px, bottom);
      // From the lips' inner surface at the edge to the throat, deeper towards the middle.
      let colour = mix(LIP_INSIDE, THROAT, clamp01((Math.max(0, inside) / depth) ** 0.8 * (0.8 + 0.2 * (1 - across * across))));
      if (tongue) {
        // An arch rising from the lower lip, highest in the middle; lit at its tip, darker towards the throat.
        const rise = (yl - yu) * 0.4 * Math.max(0, 1 - (across / 0.8) ** 2);
        const into = py - (yl - rise);
        if (rise > 0.5 && into > -1.5) colour = mix(colour, mix(THROAT, TONGUE, 0.35 + 0.5 * clamp01(into / rise)), 0.9 * clamp01((into + 1.5) / 3));
      }
      if (lowerTeeth > 0 && across < 0.45) {
        const above = yl - py;
        if (above >= -1 && above < lowerTeeth) {
          const soft = clamp01((lowerTeeth - above) / 1.5) * clamp01((0.45 - across) * 6);
          colour = mix(colour, TOOTH, 0.6 * soft).map((c) => c * (0.78 + 0.1 * (1 - across / 0.45)));
        }
      }
      if (upperTeeth > 0 && across < 0.8) {
        const below = py - yu;
        if (below >= -1 && below < upperTeeth) {
          const shade = 0.62 + 0.3 * (1 - across / 0.8) - 0.15 * Math.max(0, below / upperTeeth);
          const soft = clamp01((upperTeeth - below) / 2) * clamp01((0.8 - across) * 6);
          colour = mix(
            colour,
            TOOTH.map((c) => c * shade),
            soft,
          );
        }
      }
      const o = (y * picture.width + x) * 4;
      for (let n = 0; n < 3; n++) d[o + n] = Math.round(d[o + n]! + (colour[n]! - d[o + n]!) * cover);
      d[o + 3] = Math.max(d[o + 3]!, Math.round(255 * cover));
      moved[y * picture.width + x] = 1;
    }
  }
}

/**
 * Rounded lips pushed forward (`round` 0..1) cast a soft shadow on the face around them: under the lower lip on the
 * chin most, at the drawn-in corners, a little above the upper lip. Outside the outer lip contour (48-59, warped)
 * only, fading over a few hundredths of the face's width.
 */
export function paintPucker(picture: Picture, to: Point[], faceWidth: number, moved: Uint8Array, round: number): void {
  if (round <= 0) return;
  const lips = smoothLoop([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59].map((i) => to[i]!));
  const reach = faceWidth * 0.045;
  const xs = lips.map((p) => p.x),
    ys = lips.map((p) => p.y);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2,
    cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const half = (Math.max(...xs) - Math.min(...xs)) / 2 || 1;
  const d = picture.data;
  for (let y = Math.max(0, Math.floor(Math.min(...ys) - reach)); y <= Math.min(picture.height - 1, Math.ceil(Math.max(...ys) + reach)); y++) {
    for (let x = Math.max(0, Math.floor(Math.min(...xs) - reach)); x <= Math.min(picture.width - 1, Math.ceil(Math.max(...xs) + reach)); x++) {
      const outside = -signedDistance(lips, x + 0.5, y + 0.5);
      if (outside <= -1 || outside >= reach) continue;
      const across = Math.min(1, Math.abs(x + 0.5 - cx) / half);
      // Below the lips (their shadow on the chin) and at the corners; none above. Rising from the lips' edge over a
      // pixel or two and fading outward, so the lips get no drawn outline.
      const where = y + 0.5 > cy ? 1 : across ** 3;
      const t = (outside + 1) / (reach + 1);
      const shadow = 0.6 * round * where * t * (1 - t) ** 2;
      if (shadow < 0.005) continue;
      const o = (y * picture.width + x) * 4;
      for (let n = 0; n < 3; n++) d[o + n] = Math.round(d[o + n]! * (1 - shadow));
      moved[y * picture.width + x] = 1;
    }
  }
}
