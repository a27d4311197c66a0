/**
 * Band-limited resampling in the process, for espeak-ng's reading of a transcript (22,050 Hz) to the 16 kHz of the
 * warp's MFCCs: a child ffmpeg for it cost more CPU in its start (the spawn of a large process) than in its work.
 * The filter is the one ffmpeg's resampler uses by default, which the refusal bars were measured with: a windowed
 * sinc 32 zero crossings long (16 a side), cut at 0.97 of the lower rate's Nyquist, Kaiser window β 9, normalised to
 * a gain of 1; its output stays within 0.001 of ffmpeg's (test/integration/render/speech-features.test.ts). It is computed once per pair of rates, one phase for each output position within their ratio (320 for
 * 22,050 → 16,000). WebAssembly libsamplerate (@alexanderolsen/libsamplerate-js) took 50-200 ms of CPU for 5 s of
 * audio here; this takes a few.
 */

/** Zero crossings of the sinc kept on each side of an output sample's place. */
const ZERO_CROSSINGS = 16;
const CUTOFF = 0.97;
const KAISER_BETA = 9;

/** The zeroth-order modified Bessel function of the first kind (its series), for the Kaiser window. */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50 && term > 1e-12 * sum; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
}

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/** The filter for one pair of rates: `phases` rows of `taps` weights, the row for output position p of `phases`. */
interface Filter {
  up: number;
  down: number;
  taps: number;
  weights: Float64Array;
}
const filters = new Map<string, Filter>();

function filterFor(from: number, to: number): Filter {
  const key = `${from}>${to}`;
  const known = filters.get(key);
  if (known) return known;
  const divisor = gcd(from, to);
  const up = to / divisor;
  const down = from / divisor;
  const factor = Math.min(1, to / from) * CUTOFF;
  // Input samples either side of the output's place, out to the sinc's last zero crossing kept.
  const half = Math.ceil(ZERO_CROSSINGS / factor);
  const taps = 2 * half;
  const weights = new Float64Array(up * taps);
  for (let p = 0; p < up; p++) {
    const offset = ((p * down) % up) / up;
    let sum = 0;
    for (let k = 0; k < taps; k++) {
      const d = k - half + 1 - offset;
      const x = Math.PI * factor * d;
      const sinc = x === 0 ? 1 : Math.sin(x) / x;
      const edge = d / half;
      const window = Math.abs(edge) >= 1 ? 0 : besselI0(KAISER_BETA * Math.sqrt(1 - edge * edge));
      weights[p * taps + k] = sinc * window;
      sum += sinc * window;
    }
    for (let k = 0; k < taps; k++) weights[p * taps + k]! /= sum;
  }
  const filter = { up, down, taps, weights };
  filters.set(key, filter);
  return filter;
}

/** `samples` at `from` Hz as samples at `to` Hz (the same sound, without aliasing when `to` is lower). */
export function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples;
  const { up, down, taps, weights } = filterFor(from, to);
  const half = taps / 2;
  const out = new Float32Array(Math.ceil((samples.length * up) / down));
  for (let n = 0; n < out.length; n++) {
    // The output's place in input samples: a whole part and the phase of its fraction.
    const whole = Math.floor((n * down) / up);
    const row = (n % up) * taps;
    const first = whole - half + 1;
    let sum = 0;
    for (let k = Math.max(0, -first), end = Math.min(taps, samples.length - first); k < end; k++) sum += samples[first + k]! * weights[row + k]!;
    out[n] = sum;
  }
  return out;
}
