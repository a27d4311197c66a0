/**
 * A caller's recording brought to -16 LUFS integrated with a true peak of at most -1.5 dBTP (docs/your-voice.md):
 * measured by ffmpeg's EBU R128 meter (`ebur128`: ITU-R BS.1770 gated loudness, true peak at 4 times
 * oversampling), raised by one gain, the peaks that gain lifts held under a ceiling by ffmpeg's look-ahead limiter
 * (`alimiter`), and measured again on what is written, in the same run. A run that misses -16 by more than the
 * tolerance is made again with the gain corrected by the miss, while a correction still moves the loudness (a limiter
 * that takes what the gain gives ends it). The limiter works on samples, and speech's peaks between them can stand a
 * decibel over its ceiling: a true peak over the bound is then written again with the limiter at four times the
 * sample rate, where it sees them (a little more CPU), and the corrections go on from there; whatever is still over
 * is taken off by a gain after the limiter, which lowers every peak by as much: the file is never published over the
 * bound.
 */
import { MediaToolError, runFfmpeg } from './media.ts';

/**
 * The published loudness: integrated LUFS within `tolerance` LU; a true peak of at most `truePeak` dBTP, as the meter
 * reads it at most `truePeakReading` (it prints tenths: -1.5 may be -1.46). The limiter works on samples; its
 * ceiling stands `ceilingMargin` dB under the bound for the peaks between samples.
 */
const LOUDNESS = { integrated: -16, tolerance: 0.5, truePeak: -1.5, truePeakReading: -1.6, ceilingMargin: 0.5 } as const;
/**
 * How many runs at most bring the loudness within its tolerance, each corrected by the measure of the last (the run
 * that turns to the oversampled limiter besides).
 */
const LOUDNESS_RUNS = 3;
/** A correction that moves the loudness by less than this share of what it asked is the last (the limiter took it). */
const LEAST_MOVE = 0.25;
/** The limiter's look-ahead. alimiter (ffmpeg 4.1) delays its input by its look-ahead less one sample. */
const LIMITER_ATTACK_MS = 5;
/** The rate the oversampled limiter works at, a multiple of the sound's. */
const OVERSAMPLING = 4;
/** What ffmpeg's EBU R128 meter reports for a sound with nothing above its absolute gate. */
const SILENCE_LOUDNESS = -70;

/** ffmpeg's EBU R128 meter, its summary (integrated loudness, true peak) alone in the log. */
export const LOUDNESS_METER = 'ebur128=peak=true:framelog=verbose';

/** The meter's summary: integrated loudness (LUFS) and true peak (dBTP). */
export interface Loudness {
  integrated: number;
  truePeak: number;
}

/**
 * The samples alimiter at `rate` delays its input by (its look-ahead, the whole samples in its attack, less one): the
 * sound is lengthened by as many before the limiter and they are cut from its front after it (media/recording.ts).
 * Whole for the rates the recordings are made at (48 kHz: 239); any other rate is refused, not rounded.
 */
export function limiterLatency(rate: number): number {
  const latency = (LIMITER_ATTACK_MS * rate) / 1000 - 1;
  if (!Number.isInteger(latency)) throw new Error(`the limiter's delay at ${rate} Hz is not a whole number of samples`);
  return latency;
}

/**
 * The meter's summary in an ffmpeg log, or undefined for silence (no finite loudness or peak). One filter graph a
 * run: a graph rebuilt mid-stream (a chained Ogg) prints a summary for each part, and the decode check refuses such
 * a recording before this reads its log.
 */
export function loudnessReport(stderr: string): Loudness | undefined {
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const integrated = Number(/I:\s+(-?\d+(?:\.\d+)?) LUFS/.exec(summary)?.[1]);
  const truePeak = Number(/Peak:\s+(-?\d+(?:\.\d+)?) dBFS/.exec(summary)?.[1]);
  return Number.isFinite(integrated) && Number.isFinite(truePeak) && integrated > SILENCE_LOUDNESS ? { integrated, truePeak } : undefined;
}

/** The loudness of the sound file at `path`, by the meter; for the tests and the measuring scripts. */
export async function loudnessOf(path: string): Promise<Loudness | undefined> {
  const { stderr } = await runFfmpeg(['-i', path, '-af', LOUDNESS_METER, '-f', 'null', '-'], { budgetSeconds: 120, logLevel: 'info' });
  return loudnessReport(stderr);
}

/** One run: the gain before the limiter, its ceiling (dBFS), whether it works oversampled, the gain after it (dB). */
export interface LoudnessSetting {
  gain: number;
  ceiling: number;
  oversampled: boolean;
  after: number;
}

/**
 * The filters of a run on a sound at `rate`: gain, limiter, gain after. Oversampled, the limiter works at
 * OVERSAMPLING times the rate between two resamplings (ffmpeg's, which keep the sound's timing), with a look-ahead of
 * as many of those samples as makes the same delay (limiterLatency) in the sound's own, so the same cut takes it off.
 */
export function loudnessFilters({ gain, ceiling, oversampled, after }: LoudnessSetting, rate: number): string {
  const limit = (10 ** (ceiling / 20)).toFixed(4);
  const limiter = (attackMs: number) => `alimiter=limit=${limit}:attack=${attackMs.toFixed(5)}:level=0`;
  // alimiter's look-ahead is the whole samples in `attack`: one more than the delay, plus a tenth against rounding.
  const oversampledAttackMs = () => ((OVERSAMPLING * limiterLatency(rate) + 1.1) / (OVERSAMPLING * rate)) * 1000;
  const limited = oversampled ? `aresample=${OVERSAMPLING * rate},${limiter(oversampledAttackMs())},aresample=${rate}` : limiter(LIMITER_ATTACK_MS);
  return `volume=${gain.toFixed(2)}dB,${limited},volume=${after.toFixed(2)}dB`;
}

/**
 * Brings a sound measured at `measured` to the published loudness: `run` writes it with a setting and answers the
 * meter's reading of what it wrote (undefined: nothing measurable, which cannot follow a finite measure). Answers
 * the reading of what was written last.
 */
export async function normaliseLoudness(measured: Loudness, run: (setting: LoudnessSetting) => Promise<Loudness | undefined>): Promise<Loudness> {
  const measuredRun = async (setting: LoudnessSetting) => {
    const reading = await run(setting);
    if (!reading) throw new MediaToolError('the normalised recording has no loudness to measure', null, '');
    return reading;
  };
  let setting: LoudnessSetting = {
    gain: LOUDNESS.integrated - measured.integrated,
    ceiling: LOUDNESS.truePeak - LOUDNESS.ceilingMargin,
    oversampled: false,
    after: 0,
  };
  let reading = await measuredRun(setting);
  let stalled = false;
  for (let corrections = 0; ; ) {
    if (!setting.oversampled && reading.truePeak > LOUDNESS.truePeakReading) {
      // Peaks between the samples: the limiter oversampled sees them; what it takes of the loudness is corrected next.
      setting = { ...setting, oversampled: true };
      reading = await measuredRun(setting);
      // What the plain limiter would not give back, the oversampled one may: a stall is forgotten (the corrections
      // already made still count against the bound).
      stalled = false;
      continue;
    }
    const off = LOUDNESS.integrated - reading.integrated;
    if (Math.abs(off) <= LOUDNESS.tolerance || stalled || corrections === LOUDNESS_RUNS - 1) break;
    corrections++;
    setting = { ...setting, gain: setting.gain + off };
    const next = await measuredRun(setting);
    // The limiter took most of what the gain gave: another correction would only press the peaks harder.
    stalled = Math.abs(next.integrated - reading.integrated) < LEAST_MOVE * Math.abs(off);
    reading = next;
  }
  const over = reading.truePeak - LOUDNESS.truePeakReading;
  if (over > 0) {
    // A gain after the limiter lowers every peak by itself: the reading lands a tenth under the bound.
    reading = await measuredRun({ ...setting, after: -(over + 0.1) });
    if (reading.truePeak > LOUDNESS.truePeakReading)
      throw new MediaToolError(`the normalised recording's true peak reads ${reading.truePeak} dBTP after its correction`, null, '');
  }
  return reading;
}
