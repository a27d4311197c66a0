/**
 * Dynamic time warping of two sounds' MFCC frames (10 ms each) inside a band around the straight line between their
 * ends: the warp of synthesis-alignment.ts.
 */
import { COEFFICIENTS } from './mfcc.ts';

/** 10-ms frames. */
const FRAMES_PER_SECOND = 100;

/**
 * The warping path may stray this far (seconds) from the straight line between the two sounds' ends: a reader's
 * pauses and pace differ from espeak-ng's by a few seconds over a minute.
 */
const BAND_SECONDS = 8;

/**
 * The most the back-pointers (one byte per band cell) may take: the work and memory are the synthesised frames times
 * the band's width, so the band narrows for long sounds. At the longest recording (600 s) against the longest reading
 * of espeak-ng's accepted for it (the pace at least 0.8: 750 s, 75,000 synthesised frames) it is still 6.7 s to
 * each side; at a reader's usual pace (1.0-1.8) 8-15 s.
 */
const MAX_WARP_BYTES = 100_000_000;

/**
 * The band's half-width (frames) for `n` synthesised and `m` recorded frames.
 * @internal Exported for its tests.
 */
export function bandOf(n: number, m: number): number {
  const wanted = Math.max(Math.round(BAND_SECONDS * FRAMES_PER_SECOND), Math.ceil(Math.abs(m - n) / 2) + 10);
  return Math.max(1, Math.min(wanted, Math.floor((MAX_WARP_BYTES / Math.max(1, n) - 1) / 2)));
}

/** The frames' coefficients in one flat array (COEFFICIENTS per frame). */
function flattened(frames: Float32Array[]): Float64Array {
  const values = new Float64Array(frames.length * COEFFICIENTS);
  for (let f = 0; f < frames.length; f++) values.set(frames[f]!, f * COEFFICIENTS);
  return values;
}

/** A frame scaled to length 1 (a frame of zeros stays zeros: unlike every frame, as in `unlikenessAt`). */
function unit(values: Float64Array, frame: number): Float64Array {
  const at = frame * COEFFICIENTS;
  let squares = 0;
  for (let k = 0; k < COEFFICIENTS; k++) squares += values[at + k]! * values[at + k]!;
  const scale = squares > 0 ? 1 / Math.sqrt(squares) : 0;
  return Float64Array.from({ length: COEFFICIENTS }, (_, k) => values[at + k]! * scale);
}

/** How unlike (1 - cosine) synthesised frame `i` is to recording frame `j`, whatever their scale (the match's score). */
function unlikenessAt(s: Float64Array, r: Float64Array, i: number, j: number): number {
  let [dot, ss, rr] = [0, 0, 0];
  for (let k = 0, a = i * COEFFICIENTS, b = j * COEFFICIENTS; k < COEFFICIENTS; k++, a++, b++) {
    dot += s[a]! * r[b]!;
    ss += s[a]! * s[a]!;
    rr += r[b]! * r[b]!;
  }
  return 1 - dot / Math.sqrt(ss * rr + 1e-12);
}

/** For each synthesised frame i, the recording frames first[i]..last[i] (both never decrease). */
interface Runs {
  first: Int32Array;
  last: Int32Array;
}

/** The band: `band` frames to each side of the straight line between the ends of `n` and `m` frames. */
function bandRuns(n: number, m: number, band: number): Runs {
  const first = new Int32Array(n);
  const last = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const centre = Math.round((i * (m - 1)) / Math.max(1, n - 1));
    first[i] = Math.max(0, centre - band);
    last[i] = Math.min(m - 1, centre + band);
  }
  return { first, last };
}

/**
 * The mean unlikeness of the band's frame pairs, the cost ratio's scale. Not summed cell by cell: 1 - cosine summed
 * over a row's run of recording frames is the run's length less the synthesised frame's unit vector dotted with the
 * sum of the run's unit vectors, read from their running sums.
 */
function meanUnlikeness(s: Float64Array, r: Float64Array, { first, last }: Runs): number {
  const m = r.length / COEFFICIENTS;
  const sums = new Float64Array((m + 1) * COEFFICIENTS);
  for (let f = 0; f < m; f++) {
    const u = unit(r, f);
    for (let k = 0; k < COEFFICIENTS; k++) sums[(f + 1) * COEFFICIENTS + k] = sums[f * COEFFICIENTS + k]! + u[k]!;
  }
  let [pairs, total] = [0, 0];
  for (let i = 0; i < first.length; i++) {
    const u = unit(s, i);
    let along = 0;
    for (let k = 0; k < COEFFICIENTS; k++) along += u[k]! * (sums[(last[i]! + 1) * COEFFICIENTS + k]! - sums[first[i]! * COEFFICIENTS + k]!);
    pairs += last[i]! - first[i]! + 1;
    total += last[i]! - first[i]! + 1 - along;
  }
  return total / pairs;
}

/**
 * The Euclidean distances of synthesised frame `i` to recording frames `lo..hi`, into `into`: the 12 coefficients
 * written out, the synthesised frame's held in locals (three times as fast as a loop over them on the 71-s bench
 * recording), summed in the same order as a loop.
 */
function rowDistances(s: Float64Array, r: Float64Array, i: number, lo: number, hi: number, into: Float64Array): void {
  const a = i * 12;
  const [x0, x1, x2, x3, x4, x5] = [s[a]!, s[a + 1]!, s[a + 2]!, s[a + 3]!, s[a + 4]!, s[a + 5]!];
  const [x6, x7, x8, x9, x10, x11] = [s[a + 6]!, s[a + 7]!, s[a + 8]!, s[a + 9]!, s[a + 10]!, s[a + 11]!];
  for (let j = lo; j <= hi; j++) {
    const b = j * 12;
    let t = x0 - r[b]!;
    let q = t * t;
    t = x1 - r[b + 1]!;
    q += t * t;
    t = x2 - r[b + 2]!;
    q += t * t;
    t = x3 - r[b + 3]!;
    q += t * t;
    t = x4 - r[b + 4]!;
    q += t * t;
    t = x5 - r[b + 5]!;
    q += t * t;
    t = x6 - r[b + 6]!;
    q += t * t;
    t = x7 - r[b + 7]!;
    q += t * t;
    t = x8 - r[b + 8]!;
    q += t * t;
    t = x9 - r[b + 9]!;
    q += t * t;
    t = x10 - r[b + 10]!;
    q += t * t;
    t = x11 - r[b + 11]!;
    q += t * t;
    into[j - lo] = Math.sqrt(q);
  }
}

/**
 * The cheapest path from (0, 0) to (n - 1, m - 1) through `runs` (steps right, down, diagonal; each cell its frames'
 * Euclidean distance; ties go diagonal, then down), as the run of recording frames it passes through in each
 * synthesised frame's row. Back-pointers take a byte a cell.
 */
function cheapestPath(s: Float64Array, r: Float64Array, { first, last }: Runs): Runs {
  const n = first.length;
  const starts = new Int32Array(n + 1);
  let widest = 0;
  for (let i = 0; i < n; i++) {
    starts[i + 1] = starts[i]! + last[i]! - first[i]! + 1;
    widest = Math.max(widest, last[i]! - first[i]! + 1);
  }
  const from = new Uint8Array(starts[n]!);
  let previous = new Float64Array(widest);
  let current = new Float64Array(widest);
  const distances = new Float64Array(widest);
  for (let i = 0; i < n; i++) {
    const lo = first[i]!;
    const hi = last[i]!;
    rowDistances(s, r, i, lo, hi, distances);
    // The previous row's run (none above the first row).
    const above = i > 0 ? first[i - 1]! : 1;
    const aboveLast = i > 0 ? last[i - 1]! : 0;
    const row = starts[i]!;
    // The cheapest way in, ties to the diagonal, then down: each neighbour replaces it only when strictly cheaper.
    let right = Number.POSITIVE_INFINITY;
    for (let j = lo, o = 0; j <= hi; j++, o++) {
      if (i === 0 && j === 0) {
        right = current[o] = distances[o]!;
        continue;
      }
      let best = j - 1 >= above && j - 1 <= aboveLast ? previous[j - 1 - above]! : Number.POSITIVE_INFINITY;
      let step = 0;
      const down = j >= above && j <= aboveLast ? previous[j - above]! : Number.POSITIVE_INFINITY;
      if (down < best) {
        best = down;
        step = 1;
      }
      if (right < best) {
        best = right;
        step = 2;
      }
      right = current[o] = best + distances[o]!;
      from[row + o] = step;
    }
    [previous, current] = [current, previous];
  }
  // Back from the two ends.
  const path: Runs = { first: new Int32Array(n), last: new Int32Array(n).fill(-1) };
  for (let i = n - 1, j = r.length / COEFFICIENTS - 1; i >= 0 && j >= 0; ) {
    if (path.last[i]! < 0) path.last[i] = j;
    path.first[i] = j;
    if (i === 0 && j === 0) break;
    const step = from[starts[i]! + j - first[i]!]!;
    if (step === 0) i--, j--;
    else if (step === 1) i--;
    else j--;
  }
  return path;
}

/** The warping path: for each synthesised frame, the first recording frame it is matched with; and its cost ratio. */
interface Warp {
  recordingFrameOf: Int32Array;
  costRatio: number;
}

/**
 * Dynamic time warping of `synth` onto `recording` (MFCC frames of COEFFICIENTS each) inside a band around the
 * straight line between their ends (bandOf): each synthesised frame's first recording frame on the cheapest path,
 * and the cost ratio, the path's mean unlikeness over the band's.
 */
export function warp(synth: Float32Array[], recording: Float32Array[]): Warp {
  if (synth.some((f) => f.length !== COEFFICIENTS) || recording.some((f) => f.length !== COEFFICIENTS))
    throw new Error(`the warp takes frames of ${COEFFICIENTS} coefficients`);
  const s = flattened(synth);
  const r = flattened(recording);
  const band = bandRuns(synth.length, recording.length, bandOf(synth.length, recording.length));
  const path = cheapestPath(s, r, band);
  let [steps, cost] = [0, 0];
  for (let i = 0; i < synth.length; i++) for (let j = path.first[i]!; j <= path.last[i]!; j++, steps++) cost += unlikenessAt(s, r, i, j);
  return { recordingFrameOf: path.first, costRatio: cost / steps / meanUnlikeness(s, r, band) };
}
