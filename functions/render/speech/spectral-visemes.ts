/**
 * The mouth of a recording without a transcript: which shape the lips make, read from the sound's spectrum. Each
 * 10 ms step's spectral envelope (linear prediction, the classic formant tracker's model of the vocal tract) gives
 * the first two formants: a low second formant is a rounded vowel (oo, o), a high one a spread vowel (ee), a high
 * first formant an open jaw (a); a noisy step without voicing is a consonant (s, sh, t), and the loudness gate of
 * lipsync.ts closes the lips in silences and stops. The shapes are lipsync.ts visemes, opened by the loudness as a
 * transcript's are.
 */
import type { Viseme, VisemeSpan } from '../engine/visemes.ts';

const STEP_SECONDS = 0.01;
const WINDOW_SECONDS = 0.025;
/** The envelope's detail: two poles per kHz of the 0-4 kHz band analysed, and two more for the glottis and lips. */
const LPC_ORDER = 10;
/** Analysed at 8 kHz: the first two formants lie below 3 kHz, and fewer poles fit them better. */
const ANALYSIS_RATE = 8_000;
const ENVELOPE_STEP_HZ = 20;
/** Below this share of the recording's loud steps' energy a step is not read (lipsync.ts closes the mouth there). */
const QUIET = 0.02;
/** More zero crossings than this per second, with little energy below 1 kHz: noise (a fricative), not a vowel. */
const NOISY_CROSSINGS_PER_SECOND = 3_000;

/**
 * A labial nasal's murmur (the "m" of "more": lips closed, the voice through the nose): voiced, a first formant under
 * 350 Hz and a second under 1,500 Hz, at least 4 dB under the loudest step within 80 ms each side (the vowels around
 * it) and 5 dB under the recording's loud steps, for at least 30 ms. The envelope cannot see what tells the nasals
 * apart (their antiresonance): an "n" (its second formant about 1,700 Hz against the m's 1,300, on the LibriVox
 * reader) and an "l" pass the bounds too, as often as an m does on readings they were not chosen on
 * (docs/your-voice.md).
 */
const MURMUR_F1_BELOW = 350;
const MURMUR_F2_BELOW = 1_500;
const MURMUR_DIP = 10 ** (-4 / 10);
const MURMUR_QUIET = 10 ** (-5 / 10);
const MURMUR_NEIGHBOURS = 8;
/** Lips meet for longer than this on an m; a shorter murmur is the envelope's slip and would flicker the lips shut. */
const MURMUR_MIN_STEPS = 3;

/** Formant bounds of the shapes, in Hz (the common vowel chart of adult speakers). */
const ROUND_F2_BELOW = 1_150;
const WIDE_F2_ABOVE = 1_900;
const OPEN_F1_ABOVE = 650;

/** A step's reading: its energy, and its first two formants when it is voiced. */
interface Step {
  energy: number;
  voiced: boolean;
  f1: number;
  f2: number;
}

/** The viseme of a voiced step from its formants. @internal Exported for its tests. */
export function visemeOfFormants(f1: number, f2: number): Viseme {
  if (f2 < ROUND_F2_BELOW) return f1 > OPEN_F1_ABOVE - 100 ? 'roundOpen' : 'round';
  if (f2 > WIDE_F2_ABOVE) return f1 > OPEN_F1_ABOVE - 50 ? 'wideOpen' : 'wide';
  return f1 > OPEN_F1_ABOVE ? 'open' : 'mid';
}

/**
 * The viseme spans of a recording (mono samples in -1..1 at `sampleRate`): one per run of steps with one shape;
 * quiet steps get none.
 */
export function spectralVisemes(samples: Float32Array, sampleRate: number): VisemeSpan[] {
  const pcm = downsample(samples, sampleRate, ANALYSIS_RATE);
  const steps = readSteps(pcm);
  const loud = [...steps.map((s) => s.energy)].sort((a, b) => a - b)[Math.floor(steps.length * 0.9)] ?? 0;
  const visemes = steps.map((step, i): Viseme | undefined => {
    if (loud === 0 || step.energy < QUIET * loud) return undefined;
    return !step.voiced ? 'consonant' : isLabialMurmur(steps, i, loud) ? 'closed' : visemeOfFormants(step.f1, step.f2);
  });
  // A murmur shorter than a closure lasts is the envelope's slip, not lips that met: the step keeps its formants' shape.
  for (let i = 0; i < visemes.length; ) {
    let end = i;
    while (visemes[end] === 'closed') end++;
    if (end - i < MURMUR_MIN_STEPS) for (let k = i; k < end; k++) visemes[k] = visemeOfFormants(steps[k]!.f1, steps[k]!.f2);
    i = Math.max(end, i + 1);
  }
  const spans: VisemeSpan[] = [];
  visemes.forEach((viseme, i) => {
    if (!viseme) return;
    const startSeconds = i * STEP_SECONDS;
    const last = spans[spans.length - 1];
    if (last && last.viseme === viseme && Math.abs(last.endSeconds - startSeconds) < 1e-6) last.endSeconds = startSeconds + STEP_SECONDS;
    else spans.push({ viseme, startSeconds, endSeconds: startSeconds + STEP_SECONDS });
  });
  return smooth(spans);
}

/** Whether voiced step `i` reads as a labial nasal's murmur (MURMUR_*): the lips closed on a sound. */
function isLabialMurmur(steps: readonly Step[], i: number, loud: number): boolean {
  const step = steps[i]!;
  if (step.f1 >= MURMUR_F1_BELOW || step.f2 >= MURMUR_F2_BELOW || step.energy > MURMUR_QUIET * loud) return false;
  let around = 0;
  for (let k = Math.max(0, i - MURMUR_NEIGHBOURS); k <= Math.min(steps.length - 1, i + MURMUR_NEIGHBOURS); k++)
    around = Math.max(around, steps[k]!.energy);
  return step.energy <= MURMUR_DIP * around;
}

/** A shape held for one step only joins the span before it, if any (a formant tracker's slip, not a lip move). */
function smooth(spans: VisemeSpan[]): VisemeSpan[] {
  const out: VisemeSpan[] = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    const short = span.endSeconds - span.startSeconds <= STEP_SECONDS + 1e-6;
    if (last && short && Math.abs(last.endSeconds - span.startSeconds) < 1e-6) last.endSeconds = span.endSeconds;
    else if (last && last.viseme === span.viseme && Math.abs(last.endSeconds - span.startSeconds) < 1e-6) last.endSeconds = span.endSeconds;
    else out.push({ ...span });
  }
  return out;
}

/** Box-filtered decimation: the band above the new Nyquist frequency is averaged away. */
function downsample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from <= to) return samples;
  const ratio = from / to;
  const out = new Float32Array(Math.floor(samples.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const a = Math.floor(i * ratio);
    const b = Math.min(samples.length, Math.floor((i + 1) * ratio));
    let sum = 0;
    for (let j = a; j < b; j++) sum += samples[j]!;
    out[i] = sum / Math.max(1, b - a);
  }
  return out;
}

// Hot loop over every 10 ms step of the recording (a 3-minute recording is 18,000 steps): plain arrays, no allocation per sample.
function readSteps(pcm: Float32Array): Step[] {
  const hop = Math.round(STEP_SECONDS * ANALYSIS_RATE);
  const size = Math.round(WINDOW_SECONDS * ANALYSIS_RATE);
  const hann = Float64Array.from({ length: size }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1)));
  const frame = new Float64Array(size);
  const steps: Step[] = [];
  for (let start = 0; start + hop <= pcm.length; start += hop) {
    let energy = 0;
    let crossings = 0;
    let low = 0;
    for (let i = 0; i < size; i++) {
      const x = pcm[start + i] ?? 0;
      const before = pcm[start + i - 1] ?? 0;
      energy += x * x;
      if (i > 0 && x >= 0 !== before >= 0) crossings++;
      // Pre-emphasis (first difference) flattens the voice's falling spectrum so the formants stand out.
      frame[i] = (x - 0.95 * before) * hann[i]!;
      // A two-sample average keeps the band below about 1 kHz at this rate's resolution: the voicing's share.
      low += ((x + before) / 2) ** 2;
    }
    const crossingRate = (crossings / size) * ANALYSIS_RATE;
    const voiced = crossingRate < NOISY_CROSSINGS_PER_SECOND && low > 0.5 * energy;
    const [f1, f2] = voiced ? formants(frame) : [0, 0];
    steps.push({ energy: energy / size, voiced: voiced && f1 > 0 && f2 > 0, f1, f2 });
  }
  return steps;
}

/** The first two formants of a windowed frame: the first two peaks of its linear-prediction envelope (0 if none). */
function formants(frame: Float64Array): [number, number] {
  const a = lpc(frame, LPC_ORDER);
  if (!a) return [0, 0];
  const peaks: number[] = [];
  let before = -Infinity;
  let here = envelopeAt(a, ENVELOPE_STEP_HZ);
  for (let hz = 2 * ENVELOPE_STEP_HZ; hz < ANALYSIS_RATE / 2 && peaks.length < 2; hz += ENVELOPE_STEP_HZ) {
    const after = envelopeAt(a, hz);
    const at = hz - ENVELOPE_STEP_HZ;
    if (here > before && here >= after && at >= 200) peaks.push(at);
    before = here;
    here = after;
  }
  return peaks.length === 2 ? [peaks[0]!, peaks[1]!] : [0, 0];
}

/** The envelope's power at `hz`: 1 / |A(e^jw)|². */
function envelopeAt(a: Float64Array, hz: number): number {
  const w = (2 * Math.PI * hz) / ANALYSIS_RATE;
  let re = 1;
  let im = 0;
  for (let k = 1; k < a.length; k++) {
    re += a[k]! * Math.cos(k * w);
    im -= a[k]! * Math.sin(k * w);
  }
  return 1 / (re * re + im * im);
}

/** Linear-prediction coefficients (a[0] = 1) by autocorrelation and Levinson-Durbin; undefined for a silent frame. */
function lpc(frame: Float64Array, order: number): Float64Array | undefined {
  const r = new Float64Array(order + 1);
  for (let lag = 0; lag <= order; lag++) {
    let sum = 0;
    for (let i = lag; i < frame.length; i++) sum += frame[i]! * frame[i - lag]!;
    r[lag] = sum;
  }
  if (r[0]! <= 1e-12) return undefined;
  const a = new Float64Array(order + 1);
  a[0] = 1;
  let error = r[0]!;
  for (let i = 1; i <= order; i++) {
    let acc = r[i]!;
    for (let j = 1; j < i; j++) acc += a[j]! * r[i - j]!;
    const k = -acc / error;
    const previous = a.slice();
    for (let j = 1; j < i; j++) a[j] = previous[j]! + k * previous[i - j]!;
    a[i] = k;
    error *= 1 - k * k;
    if (error <= 0) return undefined;
  }
  return a;
}
