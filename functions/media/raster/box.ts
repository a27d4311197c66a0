/** One box type (a rectangle in px: x, y, width, height) and what the engine, the look builders and the art do with boxes. */
import type { Picture } from './picture.ts';

/** A rectangle, px. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
export const EMPTY_BOX: Box = { x: 0, y: 0, width: 0, height: 0 };

/** The box (in the frames' px) of the pixels where any frame differs from the reference (undefined when none does). */
export function differingBox(reference: Picture, frames: Picture[]): Box | undefined {
  const r = reference.data;
  const boxes = frames.map((frame) => {
    const f = frame.data;
    let x0 = frame.width,
      y0 = frame.height,
      x1 = -1,
      y1 = -1;
    for (let y = 0; y < frame.height; y++) {
      for (let x = 0; x < frame.width; x++) {
        const i = (y * frame.width + x) * 4;
        if (f[i] === r[i] && f[i + 1] === r[i + 1] && f[i + 2] === r[i + 2] && f[i + 3] === r[i + 3]) continue;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
    return x1 < 0 ? undefined : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
  });
  return unionOf(boxes);
}

export const sizeOf = (picture: Picture) => ({ width: picture.width, height: picture.height });

/** `box` grown by `by` px on every side. */
export const widenBox = (box: Box, by: number): Box => ({ x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by });

/** The part of `box` inside `within` (at least 1x1, so a region always has a pixel). */
export function clipTo(box: Box, within: Box): Box {
  const x0 = Math.max(box.x, within.x),
    y0 = Math.max(box.y, within.y);
  const x1 = Math.min(box.x + box.width, within.x + within.width),
    y1 = Math.min(box.y + box.height, within.y + within.height);
  return { x: x0, y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

/** `into` (the region's size) = the region's part of `src` (whose pixel (0,0) is the canvas's). */
export function cropInto(into: Picture, src: Picture, region: Box): void {
  for (let y = 0; y < region.height; y++) {
    const from = ((region.y + y) * src.width + region.x) * 4;
    src.data.copy(into.data, y * region.width * 4, from, from + region.width * 4);
  }
}

/** The smallest box around the given ones (undefined when there are none). */
export function unionOf(boxes: (Box | undefined)[]): Box | undefined {
  const some = boxes.filter((b): b is Box => b !== undefined);
  if (!some.length) return undefined;
  const x = Math.min(...some.map((b) => b.x)),
    y = Math.min(...some.map((b) => b.y));
  return { x, y, width: Math.max(...some.map((b) => b.x + b.width)) - x, height: Math.max(...some.map((b) => b.y + b.height)) - y };
}

/** The bounding box of a picture's non-transparent pixels (undefined when it has none). */
export function boundsOf(picture: Picture): Box | undefined {
  let x0 = picture.width,
    y0 = picture.height,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < picture.height; y++) {
    for (let x = 0; x < picture.width; x++) {
      if (!picture.data[(y * picture.width + x) * 4 + 3]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? undefined : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}
