/**
 * The lower face of one frame of a video bot's footage replaced by a mouth sample of its atlas (Video Rewrite's
 * blend): the sample, cut in face space, is carried onto the frame by the inverse of the similarity that brings
 * the frame's face onto the reference (its eyes and nose), colour-matched to the frame along the seam (a plane
 * fitted to their difference), and laid over it through a feathered mask (face-mask.ts). The mask covers the sample's jaw and the
 * frame's own (their union), so the frame's chin never shows below the sample's, but its sides stay within the frame's
 * cheeks, so the face keeps its own width; beside the lips it lays the sample only where the two agree (sidesAgreeing).
 *
 * A documented hot loop: it runs on every pixel of the lower face of every frame.
 */

import { PNG } from 'pngjs';
import { applySimilarity, invertSimilarity, lowerFaceSize, type Point, type Similarity, toReference } from '#domain/face-space';
import type { MouthSample } from '#domain/look';
import { blendMask, LUMA, maskAt, sidesAgreeing } from './face-mask.ts';
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

/** The largest colour shift the seam's match may apply, per channel. */
const MAX_SHIFT = 28;

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

/** A seam point whose weight fell under this share of its own when the sides gave way is not matched on again. */
const KEPT_WEIGHT = 0.9;
/** The share of the seam's points gone from which the colour matched again starts to be used, and is used wholly. */
const REMATCH = { from: 0.02, to: 0.1 };

/**
 * The sample's colour matched to the frame from the seam's differences (fx, fy, dr, dg, db each): a plane fitted by
 * least squares over face space (an offset and a slope across and down, per channel), so a sample lit from a little
 * further left or right than the frame is matched on both cheeks, not only on average; and what the plane leaves
 * along the seam above the frame's chin, carried inward as a membrane (seam-membrane.ts). Below it the seam crosses
 * the jaw's line, where the frame's shadow under the chin and the sample's chin differ by where each jaw is, not by
 * the light: there the membrane is left free.
 */
function colourMatch(
  seam: readonly number[],
  size: { width: number; height: number },
  cheeksEnd: number,
  weightAt: (fx: number, fy: number) => number,
) {
  const fit = new SeamFit(size.width, size.height);
  for (let k = 0; k < seam.length; k += 5) fit.add(seam[k]!, seam[k + 1]!, seam[k + 2]!, seam[k + 3]!, seam[k + 4]!);
  const plane = fit.solve();
  const planeAt = (fx: number, fy: number, c: number) => fit.at(plane, fx, fy, c);
  const membrane = new SeamMembrane(size.width, size.height);
  for (let k = 0; k < seam.length; k += 5) {
    const [fx, fy] = [seam[k]!, seam[k + 1]!];
    if (fy >= cheeksEnd) continue;
    membrane.add(fx, fy, seam[k + 2]! - planeAt(fx, fy, 0), seam[k + 3]! - planeAt(fx, fy, 1), seam[k + 4]! - planeAt(fx, fy, 2));
  }
  membrane.solve(weightAt);
  return { planeAt, membrane };
}

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
  // The seam's colour: the frame's less the sample's colour where the mask is partly on, each point with its
  // difference (fx, fy, dr, dg, db).
  const seam: number[] = [];
  forEachSeamPoint(placement, (x, y, fx, fy) => {
    sampled(fx, fy);
    const p = (y * width + x) * 4;
    seam.push(fx, fy, frame[p]! - colour[0]!, frame[p + 1]! - colour[1]!, frame[p + 2]! - colour[2]!);
  });
  const first = colourMatch(seam, size, mask.cheeksEnd, placement.weightAt);
  // The match used, and the colour matched again without the seam's points that gave way mixed in by its share.
  let used = first;
  let again: { match: ReturnType<typeof colourMatch>; share: number } | undefined;
  const [local, localAgain] = [
    [0, 0, 0],
    [0, 0, 0],
  ];
  const matched = (fx: number, fy: number, out: number[]) => {
    sampled(fx, fy);
    used.membrane.at(fx, fy, local);
    if (again) again.match.membrane.at(fx, fy, localAgain);
    for (let c = 0; c < 3; c++) {
      let shift = used.planeAt(fx, fy, c) + local[c]!;
      if (again) shift += (again.match.planeAt(fx, fy, c) + localAgain[c]! - shift) * again.share;
      out[c] = Math.min(255, Math.max(0, colour[c]! + Math.max(-MAX_SHIFT, Math.min(MAX_SHIFT, shift))));
    }
  };
  const rgb = [0, 0, 0];
  const laid = sidesAgreeing(input, placement, (fx, fy) => {
    matched(fx, fy, rgb);
    return LUMA[0] * rgb[0]! + LUMA[1] * rgb[1]! + LUMA[2] * rgb[2]!;
  });
  if (laid !== mask) {
    // The seam's points where the sample is no longer laid read its hair or shadow against the frame's cheek, which
    // shifted the whole lower face lighter or darker: the colour is matched again without them, and used as far as
    // they are a share of the seam (none under REMATCH.from, wholly from REMATCH.to), so that a cell or two giving
    // way on one frame and not the next does not switch the colour of a held mouth.
    const kept: number[] = [];
    const weightOfLaid = (fx: number, fy: number) => maskAt(laid, fx, fy);
    for (let k = 0; k < seam.length; k += 5)
      if (weightOfLaid(seam[k]!, seam[k + 1]!) >= KEPT_WEIGHT * placement.weightAt(seam[k]!, seam[k + 1]!)) kept.push(...seam.slice(k, k + 5));
    const gone = seam.length ? 1 - kept.length / seam.length : 0;
    const share = Math.max(0, Math.min(1, (gone - REMATCH.from) / (REMATCH.to - REMATCH.from)));
    const match = share > 0 ? colourMatch(kept, size, mask.cheeksEnd, weightOfLaid) : undefined;
    // Wholly the second: the first is not read again on every pixel.
    if (match && share >= 1) used = match;
    else if (match) again = { match, share };
  }
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
