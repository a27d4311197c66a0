/**
 * The lower face of one frame of a video bot's footage replaced by a mouth sample of its atlas (Video Rewrite's
 * blend): the sample, cut in face space, is carried onto the frame by the inverse of the similarity that brings
 * the frame's face onto the reference (its eyes and nose), colour-matched to the frame along the seam (a plane
 * fitted to their difference), and laid over it through a feathered mask. The mask covers the sample's jaw and the
 * frame's own (their union), so the frame's chin never shows below the sample's, but its sides stay within the frame's
 * cheeks, so the face keeps its own width; beside the lips it lays the sample only where the two agree (sidesAgreeing).
 *
 * A documented hot loop: it runs on every pixel of the lower face of every frame.
 */

import { PNG } from 'pngjs';
import { applySimilarity, invertSimilarity, JAW_POINTS, lowerFaceSize, type Point, type Similarity, toReference } from '#domain/face-space';
import type { MouthSample } from '#domain/look';
import { SeamFit } from './seam-fit.ts';
import { SeamMembrane } from './seam-membrane.ts';

/** The atlas's sheet, decoded: RGB. */
export interface AtlasSheet {
  rgb: Buffer;
  width: number;
  height: number;
}

/** The atlas's sheet from its PNG (pngjs, as the sprites: the render image carries no sharp). */
export function atlasSheetOf(png: Buffer): AtlasSheet {
  const atlas = PNG.sync.read(png);
  const rgb = Buffer.alloc(atlas.width * atlas.height * 3);
  for (let p = 0, q = 0; p < atlas.data.length; p += 4, q += 3) atlas.data.copy(rgb, q, p, p + 3);
  return { rgb, width: atlas.width, height: atlas.height };
}

/** The mask's feather, and how far the jaw's bottom reaches below the chin, in eye distances. */
const FEATHER = 0.1;
const BELOW_CHIN = 0.14;
/** The mask's sides stay this far inside the jaw's line (the cheeks' edge is the frame's, before the background). */
const INSIDE_CHEEKS = 0.08;
/** The largest colour shift the seam's match may apply, per channel. */
const MAX_SHIFT = 28;

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
interface FaceMask {
  values: Float32Array;
  /** The cells before feathering (the outline filled, the sides cut, the edges cleared) and the feather's radius. */
  raw: Float32Array;
  radius: number;
  width: number;
  height: number;
  /** Face-space y where the frame's chin begins (its cheeks end). */
  cheeksEnd: number;
}

/**
 * The blend's mask over the lower face (lowerFaceSize): the union of the sample's and the frame's lower face, its
 * sides cut to the frame's cheeks (above the frame's chin), feathered, zero at the sample's edges. Built on a grid
 * of MASK_STEP px (a quarter of the cells to fill and feather on every frame) and read between the cells' centres
 * (maskAt), so the weight changes smoothly across a cell however large the face is drawn.
 */
function blendMask(sample: MouthSample | undefined, frameInFace: readonly Point[], eyePx: number): FaceMask {
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
  return { values: mask, raw, radius, width, height, cheeksEnd };
}

/** Bilinear RGB of the sheet at (x, y), clamped to the sample's tile. */
function sampleAt(sheet: AtlasSheet, tile: { x: number; y: number; width: number; height: number }, x: number, y: number, out: number[]) {
  const sx = Math.min(tile.width - 1.001, Math.max(0, x - 0.5));
  const sy = Math.min(tile.height - 1.001, Math.max(0, y - 0.5));
  const x0 = Math.floor(sx),
    y0 = Math.floor(sy);
  const fx = sx - x0,
    fy = sy - y0;
  const a = ((tile.y + y0) * sheet.width + tile.x + x0) * 3;
  const b = a + sheet.width * 3;
  const rgb = sheet.rgb;
  for (let c = 0; c < 3; c++) {
    const top = rgb[a + c]! + (rgb[a + 3 + c]! - rgb[a + c]!) * fx;
    const bottom = rgb[b + c]! + (rgb[b + 3 + c]! - rgb[b + c]!) * fx;
    out[c] = top + (bottom - top) * fy;
  }
}

export interface BlendInput {
  /** The frame, RGBA, changed in place. */
  frame: Buffer;
  width: number;
  height: number;
  /** The frame's 68 landmarks, px of the frame. */
  landmarks: readonly Point[];
  reference: readonly Point[];
  eyePx: number;
  sheet: AtlasSheet;
  sample: MouthSample;
  /** A second sample mixed in by `amount` (a change of mouth shown over two frames). */
  toward?: { sample: MouthSample; amount: number };
  /** How much of the blend is laid, 0 to 1 (1 unless given): the laid mouth fading out over the frame's own. */
  strength?: number;
}

/** Where the sample lands on the frame: the similarity to face space, the mask there, and the frame's box it covers. */
function placementOf(input: Pick<BlendInput, 'width' | 'height' | 'landmarks' | 'reference' | 'eyePx'> & { sample?: MouthSample }) {
  const { width, height, eyePx, sample } = input;
  const toFace: Similarity = toReference(input.landmarks, input.reference);
  const frameInFace = input.landmarks.map((p) => applySimilarity(toFace, p));
  const mask = blendMask(sample, frameInFace, eyePx);
  const size = lowerFaceSize(eyePx);
  // The frame's pixels the lower face covers: the face box's corners carried back to the frame.
  const corners = [
    { x: 0, y: 0 },
    { x: size.width, y: 0 },
    { x: 0, y: size.height },
    { x: size.width, y: size.height },
  ].map((p) => applySimilarity(invertSimilarity(toFace), p));
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p.x))));
  const x1 = Math.min(width - 1, Math.ceil(Math.max(...corners.map((p) => p.x))));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p.y))));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(...corners.map((p) => p.y))));
  const weightAt = (fx: number, fy: number) => maskAt(mask, fx, fy);
  return { toFace, frameInFace, size, mask, x0, x1, y0, y1, weightAt };
}

/** Every second pixel of the frame (each way) where the mask is partly on: the seam, in frame and face space. */
function forEachSeamPoint(placement: ReturnType<typeof placementOf>, visit: (x: number, y: number, fx: number, fy: number) => void) {
  const { toFace, mask, x0, x1, y0, y1 } = placement;
  const { a, b, tx, ty } = toFace;
  for (let y = y0; y <= y1; y += 2) {
    let fx = a * (x0 + 0.5) - b * (y + 0.5) + tx;
    let fy = b * (x0 + 0.5) + a * (y + 0.5) + ty;
    for (let x = x0; x <= x1; x += 2, fx += 2 * a, fy += 2 * b) {
      const m = maskAt(mask, fx, fy);
      if (m > 0.1 && m < 0.9) visit(x, y, fx, fy);
    }
  }
}

/**
 * How far the seam's points spread across their narrower way (SeamFit's spread; under MIN_SEAM_SPREAD the colour
 * match is the mean difference alone): what infra/scripts/measure/video-bot-measures.ts reports.
 * @internal Exported for the measuring script.
 */
export function seamSpread(input: Pick<BlendInput, 'width' | 'height' | 'landmarks' | 'reference' | 'eyePx' | 'sample'>): number {
  const placement = placementOf(input);
  const fit = new SeamFit(placement.size.width, placement.size.height);
  forEachSeamPoint(placement, (_x, _y, fx, fy) => fit.add(fx, fy, 0, 0, 0));
  return fit.spread();
}

/**
 * How badly each of `samples` meets this frame along the seam once its colour is matched: the root mean square, over
 * the seam's points and channels, of what the colour match's plane leaves (levels of 255; the plane within the
 * blend's MAX_SHIFT). A sample whose shading or
 * jaw line differs from the frame's across the seam leaves more; the rig lays the one that leaves least. All are
 * scored on the same points, the seam of the frame's own lower face (the blend's mask adds each sample's jaw),
 * SCORED_SEAM_POINTS to twice that of them on a face drawn large.
 */
export function seamMismatches(input: Omit<BlendInput, 'sample' | 'toward' | 'strength'>, samples: readonly MouthSample[]): number[] {
  const placement = placementOf(input);
  const { frame, width } = input;
  const seam: number[] = [];
  forEachSeamPoint(placement, (x, y, fx, fy) => seam.push((y * width + x) * 4, fx, fy));
  // A face drawn large has thousands of seam points; thinned evenly to between SCORED_SEAM_POINTS and twice that,
  // they score a sample as well (a smaller seam is scored whole).
  const every = Math.max(1, Math.floor(seam.length / 3 / SCORED_SEAM_POINTS));
  const points: number[] = [];
  for (let k = 0; k < seam.length; k += 3 * every) {
    const p = seam[k]!;
    points.push(seam[k + 1]!, seam[k + 2]!, frame[p]!, frame[p + 1]!, frame[p + 2]!);
  }
  const count = points.length / 5;
  if (!count) return samples.map(() => Number.POSITIVE_INFINITY);
  const colour = [0, 0, 0];
  const differences = new Float64Array(points.length);
  return samples.map((sample) => {
    const tile = { x: sample.x, y: sample.y, ...placement.size };
    const fit = new SeamFit(placement.size.width, placement.size.height);
    for (let k = 0; k < points.length; k += 5) {
      sampleAt(input.sheet, tile, points[k]!, points[k + 1]!, colour);
      for (let c = 0; c < 3; c++) differences[k + 2 + c] = points[k + 2 + c]! - colour[c]!;
      fit.add(points[k]!, points[k + 1]!, differences[k + 2]!, differences[k + 3]!, differences[k + 4]!);
    }
    const plane = fit.solve();
    let sum = 0;
    // The plane within MAX_SHIFT, as the blend clamps it (there with the membrane's share added): a sample that needs
    // more keeps the rest as a cast.
    for (let k = 0; k < points.length; k += 5)
      for (let c = 0; c < 3; c++) {
        const shift = Math.max(-MAX_SHIFT, Math.min(MAX_SHIFT, fit.at(plane, points[k]!, points[k + 1]!, c)));
        sum += (differences[k + 2 + c]! - shift) ** 2;
      }
    return Math.sqrt(sum / count / 3);
  });
}

/** Seam points a sample is scored on (seamMismatches): a seam of more than twice this many is thinned evenly to 1-2 times it. */
const SCORED_SEAM_POINTS = 800;

/** The mask's cell (x, y), 0 outside the grid. */
const cellAt = (mask: FaceMask, x: number, y: number) =>
  x < 0 || y < 0 || x >= mask.width || y >= mask.height ? 0 : mask.values[y * mask.width + x]!;

/** The mask's weight at (fx, fy) of face space: bilinear between the centres of its cells, 0 outside it. */
function maskAt(mask: FaceMask, fx: number, fy: number): number {
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

const LUMA = [0.299, 0.587, 0.114] as const;

/**
 * The mask laid: beside the lips (past their corners and LIPS_MARGIN, over SIDE_RAMP), each cell of the mask gives
 * way to the frame as far as the sample, its colour matched, is lighter or darker than the frame there
 * (SIDE_DISAGREEMENT). A sample cut from a head turned or lit a little otherwise than the frame's has its jaw's shadow,
 * hair or the backdrop where the frame has its cheek, which laid there reads as a second jaw line; the frame's own
 * cheek stays instead. The lips and the chin under them are the sample's, whatever the frame shows there.
 */
function sidesAgreeing(input: Omit<BlendInput, 'strength'>, placement: Placement, matchedLuma: (fx: number, fy: number) => number): FaceMask {
  const { mask, frameInFace, toFace } = placement;
  const { frame, width: frameWidth, height: frameHeight, eyePx } = input;
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
      const own = LUMA[0] * frame[p]! + LUMA[1] * frame[p + 1]! + LUMA[2] * frame[p + 2]!;
      const apart = Math.abs(matchedLuma(fx, fy) - own);
      const giving = Math.max(0, Math.min(1, (apart - SIDE_DISAGREEMENT.from) / (SIDE_DISAGREEMENT.to - SIDE_DISAGREEMENT.from)));
      if (giving === 0) continue;
      changed = true;
      for (let dy = 0; dy < 2 && y + dy < mask.height; dy++)
        for (let dx = 0; dx < 2 && x + dx < mask.width; dx++) {
          const cell = (y + dy) * mask.width + x + dx;
          const side = Math.max(0, sideOf((x + dx + 0.5) * MASK_STEP));
          raw[cell] = raw[cell]! * (1 - side * giving);
        }
    }
  if (!changed) return mask;
  const values = raw.slice();
  feather(values, mask.width, mask.height, mask.radius);
  return { ...mask, raw, values };
}

type Placement = ReturnType<typeof placementOf>;

/**
 * A blend of the sample onto the frame, before anything is laid: where it lands, the sample's colour as matched at any
 * point of face space (`matched` writes RGB into `out`), and the mask laid.
 */
function blendOf(input: Omit<BlendInput, 'strength'>) {
  const { frame, width, sheet, sample } = input;
  const placement = placementOf(input);
  const { size, mask } = placement;
  const tile = { x: sample.x, y: sample.y, ...size };
  const other = input.toward && input.toward.amount > 0 ? { x: input.toward.sample.x, y: input.toward.sample.y, ...size } : undefined;
  const amount = input.toward?.amount ?? 0;
  const colour = [0, 0, 0];
  const second = [0, 0, 0];
  const sampled = (fx: number, fy: number) => {
    sampleAt(sheet, tile, fx, fy, colour);
    if (!other) return;
    sampleAt(sheet, other, fx, fy, second);
    for (let c = 0; c < 3; c++) colour[c] = colour[c]! + (second[c]! - colour[c]!) * amount;
  };
  // The seam's colour: the frame's less the sample's colour where the mask is partly on, fitted by least squares as a
  // plane over face space (an offset and a slope across and down, per channel), so a sample lit from a little
  // further left or right than the frame is matched on both cheeks, not only on average.
  const fit = new SeamFit(size.width, size.height);
  const seam: number[] = [];
  forEachSeamPoint(placement, (x, y, fx, fy) => {
    sampled(fx, fy);
    const p = (y * width + x) * 4;
    const [dr, dg, db] = [frame[p]! - colour[0]!, frame[p + 1]! - colour[1]!, frame[p + 2]! - colour[2]!];
    fit.add(fx, fy, dr, dg, db);
    seam.push(fx, fy, dr, dg, db);
  });
  const plane = fit.solve();
  const planeAt = (fx: number, fy: number, c: number) => fit.at(plane, fx, fy, c);
  // What the plane leaves along the seam above the frame's chin, carried inward as a membrane (seam-membrane.ts).
  // Below it the seam crosses the jaw's line, where the frame's shadow under the chin and the sample's chin differ
  // by where each jaw is, not by the light: there the membrane is left free.
  const membrane = new SeamMembrane(size.width, size.height);
  for (let k = 0; k < seam.length; k += 5) {
    const [fx, fy] = [seam[k]!, seam[k + 1]!];
    if (fy >= mask.cheeksEnd) continue;
    membrane.add(fx, fy, seam[k + 2]! - planeAt(fx, fy, 0), seam[k + 3]! - planeAt(fx, fy, 1), seam[k + 4]! - planeAt(fx, fy, 2));
  }
  membrane.solve(placement.weightAt);
  const local = [0, 0, 0];
  const matched = (fx: number, fy: number, out: number[]) => {
    sampled(fx, fy);
    membrane.at(fx, fy, local);
    for (let c = 0; c < 3; c++)
      out[c] = Math.min(255, Math.max(0, colour[c]! + Math.max(-MAX_SHIFT, Math.min(MAX_SHIFT, planeAt(fx, fy, c) + local[c]!))));
  };
  const rgb = [0, 0, 0];
  const laid = sidesAgreeing(input, placement, (fx, fy) => {
    matched(fx, fy, rgb);
    return LUMA[0] * rgb[0]! + LUMA[1] * rgb[1]! + LUMA[2] * rgb[2]!;
  });
  return { placement, matched, laid };
}

/**
 * The blend's weight (0 the frame .. 1 the sample) of every pixel of `input.frame`, as blendMouth would lay `sample`
 * on it (the frame as it was before): what the seam's measure reads.
 */
export function blendWeights(input: Omit<BlendInput, 'toward' | 'strength'>): Float32Array {
  const { placement, laid } = blendOf(input);
  const { toFace, x0, x1, y0, y1 } = placement;
  const weights = new Float32Array(input.width * input.height);
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const f = applySimilarity(toFace, { x: x + 0.5, y: y + 0.5 });
      weights[y * input.width + x] = maskAt(laid, f.x, f.y);
    }
  return weights;
}

/**
 * Replaces the frame's lower face by the sample (see the module's comment). The frame's pixel (x, y) is carried to
 * face space by stepping the similarity along each row (a per column, b per row), without a point per pixel.
 */
export function blendMouth(input: BlendInput): void {
  const { frame, width } = input;
  const { placement, matched, laid } = blendOf(input);
  const { x0, x1, y0, y1 } = placement;
  const { a, b, tx, ty } = placement.toFace;
  const strength = input.strength ?? 1;
  const shifted = [0, 0, 0];
  for (let y = y0; y <= y1; y++) {
    let fx = a * (x0 + 0.5) - b * (y + 0.5) + tx;
    let fy = b * (x0 + 0.5) + a * (y + 0.5) + ty;
    for (let x = x0; x <= x1; x++, fx += a, fy += b) {
      const m = maskAt(laid, fx, fy) * strength;
      if (m <= 0.002) continue;
      matched(fx, fy, shifted);
      const p = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) frame[p + c] = Math.round(frame[p + c]! + (shifted[c]! - frame[p + c]!) * m);
    }
  }
}
