/**
 * Drawing one picture over another (straight alpha), with an optional coverage mask, fast where the source is
 * opaque; and mixing two pictures. The compositor's inner loops: they run for every frame of every clip.
 */
import type { Picture } from './picture.ts';

/**
 * Where a sprite has pixels to draw, row by row: runs of fully opaque pixels (drawn by a plain copy) and of
 * partly transparent ones (blended pixel by pixel); fully transparent pixels are in neither. Flat
 * [y, x0, x1, opaque] quadruples, found once per sprite: most of a bot's head and body is opaque, so a frame
 * is mostly memory copies and only the anti-aliased edges are blended in JavaScript.
 */
const spriteRuns = new WeakMap<Buffer, Int32Array>();

function runsOf(src: Picture): Int32Array {
  let runs = spriteRuns.get(src.data);
  if (runs) return runs;
  const out: number[] = [];
  const s = src.data;
  for (let y = 0; y < src.height; y++) {
    let x = 0;
    while (x < src.width) {
      const a = s[(y * src.width + x) * 4 + 3]!;
      if (a === 0) {
        x++;
        continue;
      }
      const opaque = a === 255;
      const start = x;
      while (x < src.width) {
        const b = s[(y * src.width + x) * 4 + 3]!;
        if (b === 0 || (b === 255) !== opaque) break;
        x++;
      }
      out.push(y, start, x, opaque ? 1 : 0);
    }
  }
  runs = Int32Array.from(out);
  spriteRuns.set(src.data, runs);
  return runs;
}

/**
 * A coverage mask and, per row, the columns [full[2y], full[2y+1]) where it is 255 (empty when it is nowhere
 * 255 on that row): there an opaque run of a sprite is copied without looking at the mask.
 */
export interface Mask {
  coverage: Uint8Array;
  full: Int32Array;
}

/** @internal Exported for its tests. */
export function maskOf(coverage: Uint8Array, width: number, height: number): Mask {
  const full = new Int32Array(height * 2);
  for (let y = 0; y < height; y++) {
    let x0 = 0;
    while (x0 < width && coverage[y * width + x0] !== 255) x0++;
    let x1 = x0;
    while (x1 < width && coverage[y * width + x1] === 255) x1++;
    full[2 * y] = x0;
    full[2 * y + 1] = x1;
  }
  return { coverage, full };
}

/** Blends pixels [x0, x1) of row `y` of `src` over `dst` at row `dy` (straight alpha), pixel by pixel. */
function blendPixels(dst: Picture, src: Picture, y: number, dy: number, x0: number, x1: number, ox: number, mask?: Uint8Array): void {
  const d = dst.data;
  const s = src.data;
  let si = (y * src.width + (x0 - ox)) * 4;
  let di = (dy * dst.width + x0) * 4;
  let mi = dy * dst.width + x0;
  for (let x = x0; x < x1; x++, si += 4, di += 4, mi++) {
    let sa = s[si + 3]!;
    if (sa === 0) continue;
    if (mask) {
      const m = mask[mi]!;
      if (m === 0) continue;
      if (m !== 255) sa = (sa * m + 127) / 255;
    }
    const da = d[di + 3]!;
    if (sa >= 255 || da === 0) {
      d[di] = s[si]!;
      d[di + 1] = s[si + 1]!;
      d[di + 2] = s[si + 2]!;
      d[di + 3] = sa >= 255 ? 255 : Math.round(sa);
      continue;
    }
    const a = sa / 255;
    if (da === 255) {
      d[di] = d[di]! + (s[si]! - d[di]!) * a;
      d[di + 1] = d[di + 1]! + (s[si + 1]! - d[di + 1]!) * a;
      d[di + 2] = d[di + 2]! + (s[si + 2]! - d[di + 2]!) * a;
      continue;
    }
    // General straight-alpha "over".
    const b = (da / 255) * (1 - a);
    const oa = a + b;
    d[di] = (s[si]! * a + d[di]! * b) / oa;
    d[di + 1] = (s[si + 1]! * a + d[di + 1]! * b) / oa;
    d[di + 2] = (s[si + 2]! * a + d[di + 2]! * b) / oa;
    d[di + 3] = oa * 255;
  }
}

/**
 * Blends `src` (straight alpha) over `dst` at (ox, oy), clipped to dst; `mask` (0..255 per dst pixel) optionally
 * limits src. Opaque runs where the mask is full are copied; everything else is blended per pixel.
 * @internal Exported for its tests.
 */
export function blendOver(dst: Picture, src: Picture, ox: number, oy: number, mask?: Mask): void {
  const runs = runsOf(src);
  const d = dst.data;
  const s = src.data;
  const coverage = mask?.coverage;
  for (let r = 0; r < runs.length; r += 4) {
    const y = runs[r]!;
    const dy = y + oy;
    if (dy < 0 || dy >= dst.height) continue;
    const x0 = Math.max(0, runs[r + 1]! + ox);
    const x1 = Math.min(dst.width, runs[r + 2]! + ox);
    if (x0 >= x1) continue;
    if (!runs[r + 3]) {
      blendPixels(dst, src, y, dy, x0, x1, ox, coverage);
      continue;
    }
    // Opaque: copied where the mask is full, blended (against the mask) on either side of that.
    const f0 = mask ? Math.min(x1, Math.max(x0, mask.full[2 * dy]!)) : x0;
    const f1 = mask ? Math.max(f0, Math.min(x1, mask.full[2 * dy + 1]!)) : x1;
    if (f0 > x0) blendPixels(dst, src, y, dy, x0, f0, ox, coverage);
    if (f1 > f0) s.copy(d, (dy * dst.width + f0) * 4, (y * src.width + (f0 - ox)) * 4, (y * src.width + (f1 - ox)) * 4);
    if (x1 > f1) blendPixels(dst, src, y, dy, f1, x1, ox, coverage);
  }
}

/** Forget a picture's runs: its pixels are about to change (a recycled buffer, a mix redrawn). */
export const forgetRuns = (picture: Picture | Buffer) => spriteRuns.delete(Buffer.isBuffer(picture) ? picture : picture.data);

/**
 * `out` = `a` blended toward `b` by `t` (straight RGBA of the same size), with premultiplied alpha, so a pixel
 * that is transparent in one frame takes the other's colour rather than going dark.
 */
export function mixInto(out: Buffer, a: Buffer, b: Buffer, t: number): void {
  const s = 1 - t;
  for (let i = 0; i < out.length; i += 4) {
    const aa = a[i + 3]! * s;
    const ba = b[i + 3]! * t;
    const alpha = aa + ba;
    if (alpha < 0.5) {
      out[i + 3] = 0;
      continue;
    }
    out[i] = (a[i]! * aa + b[i]! * ba) / alpha;
    out[i + 1] = (a[i + 1]! * aa + b[i + 1]! * ba) / alpha;
    out[i + 2] = (a[i + 2]! * aa + b[i + 2]! * ba) / alpha;
    out[i + 3] = alpha;
  }
}
