/**
 * A video bot's measures on its rendered frames (docs/video-bots.md#measured), shared by the measuring script
 * (infra/scripts/measure/video-bot-measures.ts, any recording) and the tests (the still-footage fixture, or a recording
 * named by VIDBOT_TEST_RECORDING): the m/b/p closures and "oo" against "ee" read by the landmark net on the
 * rendered frames, and, on the pixels, the seam's colour step, the mouth's stillness while a shape holds and the
 * jump at the loop's wrap, each against the same measure of the footage itself.
 */
import type { Point } from '#domain/face-space';
import { CLOSED_OPENING, type MouthMeasure } from '#functions/prepare/footage/mouth-measures.ts';
import type { TimedPhoneme } from '#functions/render/engine/types.ts';

/** The sentence: ten bilabials, four "oo" and three "ee". */
export const VISEME_SENTENCE = 'Mama bought a puppy. Peter, Bob and Pam. We see three. Who knew you too?';

const framesOf = (p: TimedPhoneme, fps: number, count: number) => {
  const frames: number[] = [];
  for (let f = Math.floor(p.startSeconds * fps); f <= Math.ceil(p.endSeconds * fps) - 1 && f < count; f++) frames.push(f);
  return frames;
};

/** Each m, b and p: its frames' smallest inner-lip opening (eye distances; undefined where no face was read). */
export function bilabialOpenings(phonemes: readonly TimedPhoneme[], measures: readonly (MouthMeasure | undefined)[], fps: number) {
  return phonemes
    .filter((p) => /^[mbp]$/.test(p.ipa))
    .map((p) => {
      const openings = framesOf(p, fps, measures.length)
        .map((f) => measures[f]?.opening)
        .filter((o): o is number => o !== undefined);
      return { ipa: p.ipa, atSeconds: p.startSeconds, opening: openings.length ? Math.min(...openings) : undefined };
    });
}

/**
 * How many of the bilabials show the lips closed: an inner-lip gap under `bar` on one of their frames (CLOSED_OPENING,
 * or the larger of it and the net's reading of the person's own closed lips).
 */
export const closedCount = (openings: ReturnType<typeof bilabialOpenings>, bar = CLOSED_OPENING) =>
  openings.filter((b) => b.opening !== undefined && b.opening < bar).length;

const median = (v: readonly number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? Number.NaN;

/** The inner lips' opening and width (medians over the sounds, at each sound's middle frame) on "oo" and on "ee". */
export function roundedAgainstSpread(phonemes: readonly TimedPhoneme[], measures: readonly (MouthMeasure | undefined)[], fps: number) {
  const at = (ipa: RegExp) =>
    phonemes
      .filter((p) => ipa.test(p.ipa))
      .map((p) => measures[Math.floor(((p.startSeconds + p.endSeconds) / 2) * fps)])
      .filter((m): m is MouthMeasure => !!m);
  const oo = at(/^uː?$/);
  const ee = at(/^iː?$/);
  const open = { oo: median(oo.map((m) => m.opening)), ee: median(ee.map((m) => m.opening)) };
  return {
    ...open,
    ratio: open.oo / open.ee,
    ooWidth: median(oo.map((m) => m.width)),
    eeWidth: median(ee.map((m) => m.width)),
    sounds: [oo.length, ee.length],
  };
}

/** An RGBA frame's colours alone (RGB), as the landmark net reads a frame. */
export function rgbOf(rgba: Buffer): Buffer {
  const rgb = Buffer.alloc((rgba.length / 4) * 3);
  for (let p = 0, q = 0; p < rgba.length; p += 4, q += 3) rgba.copy(rgb, q, p, p + 3);
  return rgb;
}

/** A box of a frame, px (inclusive-exclusive). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The mouth's box on a frame: the lips' landmarks (48-67) and `pad` eye distances around them. */
export function mouthBox(landmarks: readonly Point[], eyePx: number, width: number, height: number, pad = 0.25): Box {
  const lips = landmarks.slice(48, 68);
  const margin = pad * eyePx;
  return {
    x0: Math.max(0, Math.floor(Math.min(...lips.map((p) => p.x)) - margin)),
    y0: Math.max(0, Math.floor(Math.min(...lips.map((p) => p.y)) - margin)),
    x1: Math.min(width, Math.ceil(Math.max(...lips.map((p) => p.x)) + margin)),
    y1: Math.min(height, Math.ceil(Math.max(...lips.map((p) => p.y)) + margin)),
  };
}

/** Mean absolute difference of two RGBA frames' colours (0..255) over `box` (the whole frame without one). */
export function frameChange(a: Buffer, b: Buffer, width: number, height: number, box: Box = { x0: 0, y0: 0, x1: width, y1: height }): number {
  let sum = 0;
  let count = 0;
  for (let y = box.y0; y < box.y1; y++)
    for (let x = box.x0; x < box.x1; x++) {
      const p = (y * width + x) * 4;
      sum += Math.abs(a[p]! - b[p]!) + Math.abs(a[p + 1]! - b[p + 1]!) + Math.abs(a[p + 2]! - b[p + 2]!);
      count += 3;
    }
  return count ? sum / count : 0;
}

/**
 * The colour step across the blend's boundary on one frame: at each pixel where the mask is half on, the mean
 * absolute difference (0..255, all channels) between the pixel `reach` px inside the mask and the one `reach` px
 * outside, along the mask's gradient. The same pairs on the footage's own frame give the step that was there.
 */
export function seamStep(frame: Buffer, weights: Float32Array, width: number, height: number, reach: number): number {
  let sum = 0;
  let count = 0;
  const w = (x: number, y: number) => weights[y * width + x]!;
  for (let y = 1; y < height - 1; y += 2)
    for (let x = 1; x < width - 1; x += 2) {
      const m = w(x, y);
      if (m < 0.4 || m > 0.6) continue;
      const gx = w(x + 1, y) - w(x - 1, y);
      const gy = w(x, y + 1) - w(x, y - 1);
      const g = Math.hypot(gx, gy);
      if (g < 1e-4) continue;
      const ix = Math.round(x + (gx / g) * reach),
        iy = Math.round(y + (gy / g) * reach);
      const ox = Math.round(x - (gx / g) * reach),
        oy = Math.round(y - (gy / g) * reach);
      if ([ix, ox].some((v) => v < 0 || v >= width) || [iy, oy].some((v) => v < 0 || v >= height)) continue;
      const p = (iy * width + ix) * 4;
      const q = (oy * width + ox) * 4;
      sum += Math.abs(frame[p]! - frame[q]!) + Math.abs(frame[p + 1]! - frame[q + 1]!) + Math.abs(frame[p + 2]! - frame[q + 2]!);
      count += 3;
    }
  return count ? sum / count : 0;
}

/** The `q` quantile of a list of numbers. */
export const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] ?? Number.NaN;
};

/**
 * The drawn lower face's colour cast on each side of the mouth: per channel, the mean of `drawn` less `own` (the
 * footage's own frame) where the blend is at least half on (`weights` > 0.5) outside the lips' box (the cheeks, the
 * upper lip, the chin and the jaw: the lips differ by shape), the left half of the face (the box's centre) apart from
 * the right, so that a cast on one side and its opposite on the other do not cancel. (Only where the blend is fully
 * on, above the box's bottom, one side held no pixel at all on the recordings measured: the mask is fully on mostly
 * around the mouth.) A sample laid with the frame's colour gives about 0 on both sides; a patch of another tone, or a
 * jaw's shadow laid where the frame has none, gives its offset on its side.
 */
export function toneCast(drawn: Buffer, own: Buffer, weights: Float32Array, width: number, mouth: Box): { left: Rgb; right: Rgb } {
  const sums = [
    [0, 0, 0],
    [0, 0, 0],
  ];
  const counts = [0, 0];
  const middle = (mouth.x0 + mouth.x1) / 2;
  for (let p = 0; p < weights.length; p++) {
    if (weights[p]! <= 0.5) continue;
    const x = p % width;
    const y = (p - x) / width;
    if (x >= mouth.x0 && x < mouth.x1 && y >= mouth.y0 && y < mouth.y1) continue;
    const side = x < middle ? 0 : 1;
    for (let c = 0; c < 3; c++) sums[side]![c]! += drawn[4 * p + c]! - own[4 * p + c]!;
    counts[side]!++;
  }
  const cast = (side: number) => sums[side]!.map((s) => (counts[side] ? s / counts[side]! : 0)) as Rgb;
  return { left: cast(0), right: cast(1) };
}

/** A colour's red, green and blue. */
type Rgb = [number, number, number];
