/**
 * Fields: a 0..1 value per pixel (a mask, a weight, a hole), row by row, of a picture whose width and height are
 * passed beside them. What the look builders and the mouth's teeth removal do with them.
 */
import type { Box } from './box.ts';

/** Square dilation of a 0/1 mask into a 0/1 field. */
export function dilate(mask: Uint8Array, width: number, height: number, radius: number): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      for (let dy = -radius; dy <= radius; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -radius; dx <= radius; dx++) {
          const xx = x + dx;
          if (xx >= 0 && xx < width) out[yy * width + xx] = 1;
        }
      }
    }
  }
  return out;
}

/** Separable box blur of a 0..1 field. */
export function boxBlur(field: Float32Array, width: number, height: number, radius: number): Float32Array {
  const tmp = new Float32Array(width * height);
  const out = new Float32Array(width * height);
  const n = 2 * radius + 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let k = -radius; k <= radius; k++) s += field[y * width + Math.min(width - 1, Math.max(0, x + k))]!;
      tmp[y * width + x] = s / n;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let k = -radius; k <= radius; k++) s += tmp[Math.min(height - 1, Math.max(0, y + k)) * width + x]!;
      out[y * width + x] = s / n;
    }
  }
  return out;
}

/** The box of a field's non-zero entries (undefined when it has none). */
export function fieldBounds(field: ArrayLike<number>, width: number): Box | undefined {
  let x0 = width,
    y0 = Infinity,
    x1 = 0,
    y1 = 0;
  for (let i = 0; i < field.length; i++) {
    if (field[i]! <= 0) continue;
    const x = i % width,
      y = (i - x) / width;
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x + 1);
    y1 = Math.max(y1, y + 1);
  }
  return x1 === 0 ? undefined : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
