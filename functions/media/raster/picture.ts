/**
 * A picture in memory: straight (not premultiplied) RGBA, row by row. The one pixel type of the render engine,
 * the look builders (functions/prepare) and the built-in art (infra/bot-art).
 */
export interface Picture {
  width: number;
  height: number;
  data: Buffer;
}

/** RGB to RGBA with one alpha for every pixel. */
export function rgbaOf(rgb: Buffer, alpha: number): Buffer {
  const out = Buffer.alloc((rgb.length / 3) * 4, alpha);
  for (let i = 0, o = 0; i < rgb.length; i += 3, o += 4) {
    out[o] = rgb[i]!;
    out[o + 1] = rgb[i + 1]!;
    out[o + 2] = rgb[i + 2]!;
  }
  return out;
}
