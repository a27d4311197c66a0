/**
 * MFCCs of 16-kHz speech, the features the warp of synthesis-alignment.ts matches: Meyda's `mfcc` computation (a
 * Hamming window of 512 samples, the power spectrum through 40 triangular mel filters from 0 to 8 kHz, log(1 + each
 * band's energy), a DCT-II scaled by 2), so the refusal bars measured with Meyda hold. Computed here for speed: each
 * mel filter is kept as its few non-zero weights (Meyda multiplies all 256 bins by all 40 filters, most of them zero,
 * into 40 fresh arrays on every 10-ms frame), the spectrum comes from fft.js's real transform, and every buffer is
 * made once per sound. test/unit/render/mfcc.test.ts holds it to Meyda's output.
 */
import FFT from 'fft.js';

const SAMPLE_RATE = 16_000;
/** 10-ms steps of a 32-ms window. */
const HOP = 160;
const WINDOW = 512;
const BINS = WINDOW / 2;
const MEL_BANDS = 40;
/** The coefficients kept: Meyda's 13 less the first (loudness). */
export const COEFFICIENTS = 12;

/** Meyda's Hamming window (its formula: periodic, over the window's size). */
const hamming = Float32Array.from({ length: WINDOW }, (_, i) => 0.54 - 0.46 * Math.cos(2 * Math.PI * (i / WINDOW - 1)));

/** A triangular mel filter: the spectrum bins from `first`, with their weights. */
interface MelFilter {
  first: number;
  weights: Float32Array;
}

/** Meyda's mel filter bank (createMelFilterBank: edges evenly spaced in mel, on the floor of their FFT bin), sparse. */
function melFilters(): MelFilter[] {
  const toMel = (hz: number) => 1125 * Math.log(1 + hz / 700);
  const toHz = (mel: number) => 700 * (Math.exp(mel / 1125) - 1);
  const step = toMel(SAMPLE_RATE / 2) / (MEL_BANDS + 1);
  // Meyda keeps the edges in 32-bit floats before taking their bins.
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) => Math.floor(((WINDOW + 1) * Math.fround(toHz(Math.fround(i * step)))) / SAMPLE_RATE));
  return Array.from({ length: MEL_BANDS }, (_, j) => {
    const [low, centre, high] = [edges[j]!, edges[j + 1]!, Math.min(edges[j + 2]!, BINS)];
    const weights = new Float32Array(Math.max(0, high - low));
    for (let bin = low; bin < centre; bin++) weights[bin - low] = (bin - low) / (centre - low);
    for (let bin = centre; bin < high; bin++) weights[bin - low] = (edges[j + 2]! - bin) / (edges[j + 2]! - centre);
    return { first: low, weights };
  });
}

const filters = melFilters();
/** cos(π/40 (n + 0.5) k) for the kept coefficients k = 1..12, times the DCT's scale of 2. */
const dct = Float64Array.from({ length: COEFFICIENTS * MEL_BANDS }, (_, i) => {
  const k = Math.floor(i / MEL_BANDS) + 1;
  const n = i % MEL_BANDS;
  return 2 * Math.cos((Math.PI / MEL_BANDS) * (n + 0.5) * k);
});
const fft = new FFT(WINDOW);

/**
 * MFCCs of 16-kHz samples, one 12-vector (the first coefficient, loudness, left out) every 10 ms, each coefficient
 * less its mean over the sound: the recording's room and microphone and espeak-ng's formant voice differ by
 * a constant spectral tilt that the mean carries.
 */
export function mfccFrames(samples: Float32Array): Float32Array[] {
  const count = samples.length < HOP ? 0 : Math.floor((samples.length - HOP) / HOP) + 1;
  const all = new Float32Array(count * COEFFICIENTS);
  const windowed = new Float64Array(WINDOW);
  const spectrum = new Float64Array(2 * WINDOW);
  const power = new Float32Array(BINS);
  const bands = new Float32Array(MEL_BANDS);
  for (let f = 0; f < count; f++) {
    const start = f * HOP;
    const end = Math.min(samples.length, start + WINDOW);
    for (let i = 0; i < WINDOW; i++) windowed[i] = start + i < end ? Math.fround(samples[start + i]! * hamming[i]!) : 0;
    fft.realTransform(spectrum, windowed);
    for (let b = 0; b < BINS; b++) power[b] = spectrum[2 * b]! ** 2 + spectrum[2 * b + 1]! ** 2;
    for (let m = 0; m < MEL_BANDS; m++) {
      const { first, weights } = filters[m]!;
      let energy = 0;
      for (let w = 0; w < weights.length; w++) energy += weights[w]! * power[first + w]!;
      bands[m] = Math.log(energy + 1);
    }
    for (let k = 0; k < COEFFICIENTS; k++) {
      let sum = 0;
      for (let n = 0; n < MEL_BANDS; n++) sum += bands[n]! * dct[k * MEL_BANDS + n]!;
      all[f * COEFFICIENTS + k] = Number.isFinite(sum) ? sum : 0;
    }
  }
  const mean = new Float64Array(COEFFICIENTS);
  for (let i = 0; i < all.length; i++) mean[i % COEFFICIENTS]! += all[i]! / count;
  for (let i = 0; i < all.length; i++) all[i]! -= mean[i % COEFFICIENTS]!;
  return Array.from({ length: count }, (_, f) => all.subarray(f * COEFFICIENTS, (f + 1) * COEFFICIENTS));
}
