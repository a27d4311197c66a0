/**
 * Dynamic time warping of two sounds' MFCC frames (10 ms each) inside a band around the straight line between their
 * ends: the warp of synthesis-alignment.ts.
 */

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

/** The frames' coefficients in one flat array (`dims` per frame). */
function flattened(frames: Float32Array[], dims: number): Float64Array {
  const values = new Float64Array(frames.length * dims);
  for (let f = 0; f < frames.length; f++) values.set(frames[f]!.subarray(0, dims), f * dims);
  return values;
}

/** A frame scaled to length 1 (a frame of zeros stays zeros: unlike everything, as in `unlikeness`). */
function unit(frame: Float32Array, dims: number): Float64Array {
  let squares = 0;
  for (let k = 0; k < dims; k++) squares += frame[k]! * frame[k]!;
  const scale = squares > 0 ? 1 / Math.sqrt(squares) : 0;
  return Float64Array.from({ length: dims }, (_, k) => frame[k]! * scale);
}

/**
 * The running sums of the recording's frames scaled to length 1: frame j's `dims` values at (j + 1) * dims are the
 * sum over frames 0..j, so the summed unlikeness of a synthesised frame to any run of recording frames is one dot
 * product.
 */
function unitPrefixSums(frames: Float32Array[], dims: number): Float64Array {
  const sums = new Float64Array((frames.length + 1) * dims);
  for (let f = 0; f < frames.length; f++) {
    const u = unit(frames[f]!, dims);
    for (let k = 0; k < dims; k++) sums[(f + 1) * dims + k] = sums[f * dims + k]! + u[k]!;
  }
  return sums;
}

/** 1 - cosine similarity: how unlike two frames' spectral shapes are whatever their scale (the match's score). */
function unlikeness(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let k = 0; k < a.length; k++) {
    dot += a[k]! * b[k]!;
    aa += a[k]! * a[k]!;
    bb += b[k]! * b[k]!;
  }
  return 1 - dot / Math.sqrt(aa * bb + 1e-12);
}

/** The warping path: for each synthesised frame, the first recording frame it is matched with; and its cost ratio. */
interface Warp {
  recordingFrameOf: Int32Array;
  costRatio: number;
}

/**
 * Dynamic time warping of `synth` onto `recording` inside a band around the straight line between their ends
 * (steps right, down, diagonal; each cell its frames' distance). Back-pointers are kept per band cell (1 byte), at
 * most MAX_WARP_BYTES of them.
 */
export function warp(synth: Float32Array[], recording: Float32Array[]): Warp {
  const n = synth.length;
  const m = recording.length;
  const band = bandOf(n, m);
  const width = 2 * band + 1;
  const centre = (i: number) => Math.round((i * (m - 1)) / Math.max(1, n - 1));
  const from = new Uint8Array(n * width);
  // Each cell's Euclidean distance (the warping's cost) in one pass over flat copies of the coefficients: the same
  // sums in the same order as frame by frame, so the same path. The mean unlikeness over the band's pairs (the
  // ratio's scale) is not summed cell by cell: 1 - cosine summed over a row's run of recording frames is the run's
  // length less the synthesised frame's unit vector dotted with the run's sum of unit vectors (unitPrefixSums).
  const dims = synth[0]?.length ?? 0;
  const s = flattened(synth, dims);
  const r = flattened(recording, dims);
  const runs = unitPrefixSums(recording, dims);
  let previous = new Float64Array(width).fill(Number.POSITIVE_INFINITY);
  let current = new Float64Array(width);
  let pairs = 0;
  let pairSum = 0;
  for (let i = 0; i < n; i++) {
    current.fill(Number.POSITIVE_INFINITY);
    const c = centre(i);
    const shift = i > 0 ? c - centre(i - 1) : 0;
    const [first, last] = [Math.max(0, c - band), Math.min(m - 1, c + band)];
    const u = unit(synth[i]!, dims);
    let along = 0;
    for (let k = 0; k < dims; k++) along += u[k]! * (runs[(last + 1) * dims + k]! - runs[first * dims + k]!);
    pairs += last - first + 1;
    pairSum += last - first + 1 - along;
    for (let o = first - (c - band); o <= last - (c - band); o++) {
      const j = c - band + o;
      let squared = 0;
      for (let k = 0, a = i * dims, b = j * dims; k < dims; k++, a++, b++) squared += (s[a]! - r[b]!) * (s[a]! - r[b]!);
      const d = Math.sqrt(squared);
      if (i === 0 && j === 0) {
        current[o] = d;
        continue;
      }
      // The neighbours: (i-1, j-1) diagonal, (i-1, j) down, (i, j-1) right; the previous row's band is `shift` behind.
      const diagonal = i > 0 && o + shift - 1 >= 0 && o + shift - 1 < width ? previous[o + shift - 1]! : Number.POSITIVE_INFINITY;
      const down = i > 0 && o + shift < width ? previous[o + shift]! : Number.POSITIVE_INFINITY;
      const right = o > 0 ? current[o - 1]! : Number.POSITIVE_INFINITY;
      const best = Math.min(diagonal, down, right);
      if (best === Number.POSITIVE_INFINITY) continue;
      current[o] = best + d;
      from[i * width + o] = best === diagonal ? 0 : best === down ? 1 : 2;
    }
    [previous, current] = [current, previous];
  }
  // Back from the two ends: the path's length and cost, and for each synthesised frame its first recording frame.
  const recordingFrameOf = new Int32Array(n);
  let i = n - 1;
  let j = m - 1;
  let steps = 0;
  let cost = 0;
  while (i >= 0 && j >= 0) {
    recordingFrameOf[i] = j;
    cost += unlikeness(synth[i]!, recording[j]!);
    steps++;
    if (i === 0 && j === 0) break;
    const o = j - centre(i) + band;
    const step = o >= 0 && o < width ? from[i * width + o]! : 0;
    if (step === 0) i--, j--;
    else if (step === 1) i--;
    else j--;
  }
  return { recordingFrameOf, costRatio: cost / steps / (pairSum / pairs) };
}
