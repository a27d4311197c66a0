/**
 * Forced alignment for the languages no acoustic model here knows, by the method of the aeneas aligner: espeak-ng
 * speaks the transcript, with its own word and phoneme times; dynamic time warping of the two sounds' MFCCs (Meyda)
 * maps every synthesised moment onto the recording, and so every word and sound. How far the two sounds stay
 * apart along the warping path, against how far apart their frames are on average, tells a transcript that is not
 * what the recording says (TranscriptMismatchError).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import Meyda from 'meyda';
import { speechScriptOf } from '#domain/lexicon';
import { runFfmpeg } from '#media/media';
import { readWav } from '#media/wav';
import type { TimedPhoneme } from '../engine/types.ts';
import { type Alignment, TranscriptMismatchError, type TranscriptWord, withGapsShared } from './alignment.ts';
import { EspeakSpeechEngine } from './espeak.ts';

const SAMPLE_RATE = 16_000;
/** 10-ms steps of a 32-ms window (Meyda's buffers are powers of two). */
const HOP = 160;
const WINDOW = 512;
const FRAMES_PER_SECOND = SAMPLE_RATE / HOP;
const COEFFICIENTS = 13;

/**
 * The warping path may stray this far (seconds) from the straight line between the two sounds' ends: a reader's
 * pauses and pace differ from espeak-ng's by a few seconds over a minute; the band keeps the work linear in length.
 */
const BAND_SECONDS = 8;

/**
 * Above this ratio of the path's mean frame unlikeness (1 - cosine) to the mean over the band's frame pairs, the
 * transcript is not what was said. Measured (docs/your-voice.md) on real readers with espeak-ng's voice of their
 * language: their own transcripts 0.31-0.49 (English, French, Danish, Finnish); another sentence's, or English
 * words on a French recording, 0.50-0.67.
 */
const MAX_PATH_COST_RATIO = 0.495;
/** The recording's length over espeak-ng's outside these bounds: not this transcript (measured 1.0-1.8 for one's own). */
const MIN_PACE = 0.8;
const MAX_PACE = 2.5;

/**
 * MFCCs of 16-kHz samples, one 12-vector (the first coefficient, loudness, left out) every 10 ms, each coefficient
 * less its mean over the sound: the recording's room and microphone and espeak-ng's formant voice differ by
 * a constant spectral tilt that the mean carries.
 * @internal Exported for its tests.
 */
export function mfccFrames(samples: Float32Array): Float32Array[] {
  Meyda.bufferSize = WINDOW;
  Meyda.sampleRate = SAMPLE_RATE;
  Meyda.melBands = 40;
  Meyda.numberOfMFCCCoefficients = COEFFICIENTS;
  Meyda.windowingFunction = 'hamming';
  const frames: Float32Array[] = [];
  const window = new Float32Array(WINDOW);
  for (let start = 0; start + HOP <= samples.length; start += HOP) {
    window.fill(0);
    window.set(samples.subarray(start, Math.min(samples.length, start + WINDOW)));
    const mfcc = Meyda.extract('mfcc', window) as unknown as number[];
    frames.push(Float32Array.from(mfcc.slice(1), (v) => (Number.isFinite(v) ? v : 0)));
  }
  const mean = new Float32Array(COEFFICIENTS - 1);
  for (const f of frames) for (let k = 0; k < mean.length; k++) mean[k]! += f[k]! / frames.length;
  for (const f of frames) for (let k = 0; k < mean.length; k++) f[k]! -= mean[k]!;
  return frames;
}

/** Euclidean distance: the warping's cost. */
function distance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let k = 0; k < a.length; k++) {
    const d = a[k]! - b[k]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
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
 * (steps right, down, diagonal; each cell its frames' distance). Back-pointers are kept per band cell (1 byte).
 * @internal Exported for its tests.
 */
export function warp(synth: Float32Array[], recording: Float32Array[]): Warp {
  const n = synth.length;
  const m = recording.length;
  const band = Math.max(Math.round(BAND_SECONDS * FRAMES_PER_SECOND), Math.ceil(Math.abs(m - n) / 2) + 10);
  const width = 2 * band + 1;
  const centre = (i: number) => Math.round((i * (m - 1)) / Math.max(1, n - 1));
  const from = new Uint8Array(n * width);
  let previous = new Float64Array(width).fill(Number.POSITIVE_INFINITY);
  let current = new Float64Array(width);
  let pairs = 0;
  let pairSum = 0;
  for (let i = 0; i < n; i++) {
    current.fill(Number.POSITIVE_INFINITY);
    const c = centre(i);
    const shift = i > 0 ? c - centre(i - 1) : 0;
    for (let o = 0; o < width; o++) {
      const j = c - band + o;
      if (j < 0 || j >= m) continue;
      const d = distance(synth[i]!, recording[j]!);
      pairs++;
      pairSum += unlikeness(synth[i]!, recording[j]!);
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

/** 16-kHz mono samples of a WAV file espeak-ng wrote (at its own rate). */
async function resampled(wavPath: string, workDir: string): Promise<Float32Array> {
  const out = join(workDir, 'transcript-16k.wav');
  await runFfmpeg(
    ['-protocol_whitelist', 'file', '-f', 'wav', '-i', wavPath, '-ac', '1', '-ar', String(SAMPLE_RATE), '-c:a', 'pcm_s16le', '-y', out],
    {
      budgetSeconds: 60,
    },
  );
  return readWav(out).samples;
}

/**
 * Aligns `words` (of `text`) to `pcm` (16 kHz mono samples in -1..1) through espeak-ng's `espeakVoice` speaking
 * `text`. Throws TranscriptMismatchError when the recording does not say the transcript.
 */
export async function alignBySynthesis(
  pcm: Float32Array,
  text: string,
  words: TranscriptWord[],
  espeakVoice: string,
  workDir: string,
): Promise<Alignment> {
  const dir = join(workDir, 'transcript-spoken');
  await mkdir(dir, { recursive: true });
  const spoken = await new EspeakSpeechEngine().synthesize(speechScriptOf(text), { id: espeakVoice }, dir);
  const synth = mfccFrames(await resampled(spoken.wavPath, dir));
  const recording = mfccFrames(pcm);
  if (synth.length < 2 || recording.length < 2) throw new TranscriptMismatchError(undefined);
  const { recordingFrameOf, costRatio } = warp(synth, recording);
  // The recording's length against espeak-ng's (at 175 words a minute): a reader takes 1.0-1.8 times as long.
  const pace = recording.length / synth.length;
  if (costRatio > MAX_PATH_COST_RATIO || pace < MIN_PACE || pace > MAX_PACE) throw new TranscriptMismatchError(1 - costRatio);
  const toRecording = (seconds: number) =>
    recordingFrameOf[Math.max(0, Math.min(synth.length - 1, Math.round(seconds * FRAMES_PER_SECOND)))]! / FRAMES_PER_SECOND;
  const timed = words.map((w) => {
    // espeak-ng's word that holds this transcript word (its words are whole tokens: "Canada." for "Canada").
    const said = spoken.words.find((s) => s.start <= w.start && s.end >= w.end) ?? spoken.words.find((s) => s.end > w.start && s.start < w.end);
    return said && { startSeconds: toRecording(said.startSeconds), endSeconds: toRecording(said.endSeconds) };
  });
  const phonemes: TimedPhoneme[] = (spoken.phonemes ?? []).map((p) => ({
    ...p,
    startSeconds: toRecording(p.startSeconds),
    endSeconds: toRecording(p.endSeconds),
  }));
  return { words: withGapsShared(timed, pcm.length / SAMPLE_RATE), phonemes, meanPosterior: 1 - costRatio };
}
