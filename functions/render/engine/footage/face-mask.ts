/**
 * The mask through which a video bot's mouth sample is laid on a frame (mouth-blend.ts): the union of the sample's
 * and the frame's lower face, its sides cut to the frame's cheeks above the chin, built on a grid of face space and
 * feathered; and, once the sample's colour is matched, beside the lips only where the sample agrees with the frame.
 */
import { invertSimilarity, JAW_POINTS, lowerFaceSize, type Point, type Similarity } from '#domain/face-space';
import type { MouthSample } from '#domain/look';

/** The mask's feather, and how far the jaw's bottom reaches below the chin, in eye distances. */
const FEATHER = 0.1;
const BELOW_CHIN = 0.14;
/** The mask's sides stay this far inside the jaw's line (the cheeks' edge is the frame's, before the background). */
const INSIDE_CHEEKS = 0.08;

/** The lips' corners widened by this much (eye distances): within them the sample is laid whole. */
const LIPS_MARGIN = 0.12;
/** Beyond that, over this far (eye distances), the sides come to show the frame where it and the sample disagree. */
const SIDE_RAMP = 0.12;
/** Beside the lips, a sample this much lighter or darker than the frame (levels of 255, after the colour match) starts to give way, and at the second wholly. */
const SIDE_DISAGREEMENT = { from: 14, to: 34 };

/** The first of the jaw's points (JAW_POINTS) on the chin, from either end: those before it are the cheeks'. */
const CHIN_FROM = 3;

/** The mask's outline in face space, from a face's landmarks there: its jaw line pulled in at the cheeks, down at the chin. */
function outline(jaw: readonly Point[], nose: Point, eyePx: number): Point[] {
  const centreX = (jaw[0]!.x + jaw[jaw.length - 1]!.x) / 2;
  const points = jaw.map((p, i) => {
    const chin = i >= CHIN_FROM && i <= jaw.length - 1 - CHIN_FROM;
    const inward = Math.sign(centreX - p.x) * INSIDE_CHEEKS * eyePx;
    return chin ? { x: p.x + inward * 0.5, y: p.y + BELOW_CHIN * eyePx } : { x: p.x + inward, y: p.y };
  });
  const top = nose.y + 0.1 * eyePx;
  const last = points[points.length - 1]!;
  return [...points, { x: last.x, y: Math.min(last.y, top) }, { x: points[0]!.x, y: Math.min(points[0]!.y, top) }];
}

/** Fills a polygon (even-odd, pixel centres) into `mask` (width x height) with 1. */
function fillPolygon(mask: Float32Array, width: number, height: number, polygon: readonly Point[]) {
  for (let y = 0; y < height; y++) {
    const xs = crossings(polygon, y + 0.5).sort((p, q) => p - q);
    for (let k = 0; k + 1 < xs.length; k += 2)
      for (let x = Math.max(0, Math.ceil(xs[k]! - 0.5)); x <= Math.min(width - 1, Math.floor(xs[k + 1]! - 0.5)); x++) mask[y * width + x] = 1;
  }
}

/** Where a polygon's edges cross the line y = `cy`, in the edges' order. */
function crossings(polygon: readonly Point[], cy: number): number[] {
  const xs: number[] = [];
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    if (a.y <= cy !== b.y <= cy) xs.push(a.x + ((cy - a.y) / (b.y - a.y)) * (b.x - a.x));
  }
  return xs;
}

/** Two box blurs of `radius` (about a Gaussian), rows then columns: a running sum along each line, outside counted 0. */
function feather(mask: Float32Array, width: number, height: number, radius: number) {
  const line = new Float32Array(Math.max(width, height));
  const span = 2 * radius + 1;
  // One line of `length` values, `stride` apart from `start`.
  const pass = (start: number, stride: number, length: number) => {
    let sum = 0;
    for (let k = 0; k <= radius && k < length; k++) sum += mask[start + k * stride]!;
    for (let k = 0; k < length; k++) {
      line[k] = sum / span;
      const add = k + radius + 1;
      const drop = k - radius;
      if (add < length) sum += mask[start + add * stride]!;
      if (drop >= 0) sum -= mask[start + drop * stride]!;
    }
    for (let k = 0; k < length; k++) mask[start + k * stride] = line[k]!;
  };
  for (let round = 0; round < 2; round++) {
    for (let y = 0; y < height; y++) pass(y * width, 1, width);
    for (let x = 0; x < width; x++) pass(x, width, height);
  }
}

/** The leftmost and rightmost crossing of a polygon's edges with each row's centre line (undefined: none). */
function rowSpans(polygon: readonly Point[], height: number): ({ from: number; to: number } | undefined)[] {
  return Array.from({ length: height }, (_, y) => {
    const xs = crossings(polygon, y + 0.5);
    return xs.length ? { from: Math.min(...xs), to: Math.max(...xs) } : undefined;
  });
}

/** The mask's grid: one value per MASK_STEP x MASK_STEP px of face space. */
const MASK_STEP = 2;

/** The blend's mask: weights 0 (the frame) to 1 (the sample) on a grid of face space, MASK_STEP px a cell. */
export interface FaceMask {
  values: Float32Array;
  /** The cells before feathering (the outline filled, the sides cut, the edges cleared) and the feather's radius. */
  raw: Float32Array;
  radius: number;
  width: number;
  height: number;
  /** Face-space y where the frame's chin begins (its cheeks end). */
  cheeksEnd: number;
  /** 1 on the cells of the frame's own lower face (inside its jaw's line, by its landmarks), 0 beyond it. */
  inFrame: Float32Array;
}

/**
 * The blend's mask over the lower face (lowerFaceSize): the union of the sample's and the frame's lower face, its
 * sides cut to the frame's cheeks (above the frame's chin), feathered, zero at the sample's edges. Built on a grid
 * of MASK_STEP px (a quarter of the cells to fill and feather on every frame) and read between the cells' centres
 * (maskAt), so the weight changes smoothly across a cell however large the face is drawn.
 */
export function blendMask(sample: MouthSample | undefined, frameInFace: readonly Point[], eyePx: number): FaceMask {
  const face = lowerFaceSize(eyePx);
  const width = Math.ceil(face.width / MASK_STEP);
  const height = Math.ceil(face.height / MASK_STEP);
  const onGrid = (p: Point) => ({ x: p.x / MASK_STEP, y: p.y / MASK_STEP });
  const mask = new Float32Array(width * height);
  const radius = Math.max(1, Math.round((FEATHER * eyePx) / MASK_STEP));
  const frameJaw = JAW_POINTS.map((j) => frameInFace[j]!);
  const frameOutline = outline(frameJaw, frameInFace[33]!, eyePx).map(onGrid);
  if (sample) fillPolygon(mask, width, height, outline(sample.jaw, sample.nose, eyePx).map(onGrid));
  fillPolygon(mask, width, height, frameOutline);
  // The frame's own lower face, to its jaw's line itself (not the outline's reach below the chin).
  const inFrame = new Float32Array(width * height);
  const top = frameInFace[33]!.y;
  fillPolygon(inFrame, width, height, [...frameJaw, { x: frameJaw.at(-1)!.x, y: top }, { x: frameJaw[0]!.x, y: top }].map(onGrid));
  // The cheeks' edge is the frame's: a sample cut from a face turned or lit otherwise is wider there (its cheek and
  // the backdrop beyond it laid over the frame's own: a fuller, shadowed jaw, a light rim beside it). Below the
  // cheeks, where an open mouth drops the sample's chin, the union stands, so the frame's chin never shows under it.
  const cheeksEnd = Math.min(frameJaw[CHIN_FROM]!.y, frameJaw[frameJaw.length - 1 - CHIN_FROM]!.y);
  for (const [y, span] of rowSpans(frameOutline, height).entries()) {
    if (!span || (y + 0.5) * MASK_STEP >= cheeksEnd) continue;
    for (let x = 0; x < width; x++) if (x + 0.5 < span.from || x + 0.5 > span.to) mask[y * width + x] = 0;
  }
  // Nothing within the feather of the sample's edge: the blur then ends inside the sample.
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (x < radius * 2 || y < radius * 2 || x >= width - radius * 2 || y >= height - radius * 2) mask[y * width + x] = 0;
  const raw = mask.slice();
  feather(mask, width, height, radius);
  return { values: mask, raw, radius, width, height, cheeksEnd, inFrame };
}

/** The mask's cell (x, y), 0 outside the grid. */
const cellAt = (mask: FaceMask, x: number, y: number) =>
  x < 0 || y < 0 || x >= mask.width || y >= mask.height ? 0 : mask.values[y * mask.width + x]!;

/** The mask's weight at (fx, fy) of face space: bilinear between the centres of its cells, 0 outside it. */
export function maskAt(mask: FaceMask, fx: number, fy: number): number {
  const gx = fx / MASK_STEP - 0.5;
  const gy = fy / MASK_STEP - 0.5;
  const x0 = Math.floor(gx);
  const y0 = Math.floor(gy);
  const tx = gx - x0;
  const ty = gy - y0;
  const top = cellAt(mask, x0, y0) + (cellAt(mask, x0 + 1, y0) - cellAt(mask, x0, y0)) * tx;
  const bottom = cellAt(mask, x0, y0 + 1) + (cellAt(mask, x0 + 1, y0 + 1) - cellAt(mask, x0, y0 + 1)) * tx;
  return top + (bottom - top) * ty;
}

/** Luma of RGB (Rec. 601). */
export const LUMA = [0.299, 0.587, 0.114] as const;

/**
 * The mask laid: beside the lips (past their corners and LIPS_MARGIN, over SIDE_RAMP), each cell of the mask gives
 * way to the frame as far as the sample, its colour matched, is lighter or darker than the frame there
 * (SIDE_DISAGREEMENT). A sample cut from a head turned or lit a little otherwise than the frame's has its jaw's shadow,
 * hair or the backdrop where the frame has its cheek, which laid there reads as a second jaw line; the frame's own
 * cheek stays instead. The lips and the chin under them are the sample's, whatever the frame shows there.
 */
export function sidesAgreeing(
  frame: { frame: Buffer; width: number; height: number; eyePx: number },
  placement: { mask: FaceMask; frameInFace: readonly Point[]; toFace: Similarity },
  matchedLuma: (fx: number, fy: number) => number,
): FaceMask {
  const { mask, frameInFace, toFace } = placement;
  const { frame: pixels, width: frameWidth, height: frameHeight, eyePx } = frame;
  const toFrame = invertSimilarity(toFace);
  const lipsLeft = frameInFace[48]!.x - LIPS_MARGIN * eyePx;
  const lipsRight = frameInFace[54]!.x + LIPS_MARGIN * eyePx;
  const ramp = SIDE_RAMP * eyePx;
  const raw = mask.raw.slice();
  let changed = false;
  const sideOf = (fx: number) => Math.min(1, Math.max(lipsLeft - fx, fx - lipsRight) / ramp);
  // Read on blocks of 2 x 2 cells, at the block's centre: the feather spreads the cut over several cells anyway.
  for (let y = 0; y < mask.height; y += 2)
    for (let x = 0; x < mask.width; x += 2) {
      const [fx, fy] = [(x + 1) * MASK_STEP, (y + 1) * MASK_STEP];
      if (sideOf(fx + MASK_STEP) <= 0 && sideOf(fx - MASK_STEP) <= 0) continue;
      const right = x + 1 < mask.width;
      const below = y + 1 < mask.height;
      const at = y * mask.width + x;
      if (!raw[at] && !(right && raw[at + 1]) && !(below && raw[at + mask.width]) && !(right && below && raw[at + mask.width + 1])) continue;
      // The frame's pixel under the block's centre.
      const px = Math.floor(toFrame.a * fx - toFrame.b * fy + toFrame.tx);
      const py = Math.floor(toFrame.b * fx + toFrame.a * fy + toFrame.ty);
      if (px < 0 || py < 0 || px >= frameWidth || py >= frameHeight) continue;
      const p = (py * frameWidth + px) * 4;
      const own = LUMA[0] * pixels[p]! + LUMA[1] * pixels[p + 1]! + LUMA[2] * pixels[p + 2]!;
      const difference = matchedLuma(fx, fy) - own;
      const giving = Math.max(0, Math.min(1, (Math.abs(difference) - SIDE_DISAGREEMENT.from) / (SIDE_DISAGREEMENT.to - SIDE_DISAGREEMENT.from)));
      if (giving === 0) continue;
      changed = true;
      for (let dy = 0; dy < 2 && y + dy < mask.height; dy++)
        for (let dx = 0; dx < 2 && x + dx < mask.width; dx++) {
          const cell = (y + dy) * mask.width + x + dx;
          // Below the frame's jaw (by its landmarks, which may sit inside the jaw's visible edge), only a sample
          // darker than the frame gives way (its hair or shadow on the frame's skin): a sample's jaw dropped below the
          // frame's is lighter than the neck and shadow it covers, and is laid, so the frame's chin never shows.
          if (!mask.inFrame[cell] && difference > 0) continue;
          const side = Math.max(0, sideOf((x + dx + 0.5) * MASK_STEP));
          raw[cell] = raw[cell]! * (1 - side * giving);
        }
    }
  if (!changed) return mask;
  const values = raw.slice();
  feather(values, mask.width, mask.height, mask.radius);
  return { ...mask, raw, values };
}
