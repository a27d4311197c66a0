/**
 * Forced alignment for the languages no acoustic model here knows, by the method of the aeneas aligner: espeak-ng
 * speaks the transcript, with its own word and phoneme times; dynamic time warping of the two sounds' MFCCs (mfcc.ts)
 * maps every synthesised moment onto the recording, and so every word and sound. How far the two sounds stay
 * apart along the warping path, against how far apart their frames are on average, and against the same for the
 * transcript's words in a shuffled order, tells a transcript that is not what the recording says
 * (TranscriptMismatchError).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type SpeechScript, speechScriptOf } from '#domain/lexicon';
import { readWav } from '#media/wav';
import type { TimedPhoneme } from '../engine/types.ts';
import { type Alignment, TranscriptMismatchError, type TranscriptWord, withGapsShared } from './alignment.ts';
import { warp } from './dtw.ts';
import { EspeakSpeechEngine } from './espeak.ts';
import { mfccFrames } from './mfcc.ts';
import { resample } from './resample.ts';

const SAMPLE_RATE = 16_000;
/**
 * espeak-ng reads transcripts in its thread's kept instance, started from the same copy of its memory each time: a
 * fresh instance per reading cost about half a second of CPU, more than reading a sentence, and the copy gives the
 * same reading for the same text, so a retry aligns the same.
 */
const readings = new EspeakSpeechEngine(true);
/** The warp's frames: 10 ms (mfcc.ts). */
const FRAMES_PER_SECOND = 100;

/**
 * Above this ratio of the path's mean frame unlikeness (1 - cosine) to the mean over the band's frame pairs, the
 * transcript is not what was said. Measured (docs/your-voice.md) on real readers with espeak-ng's voice of their
 * language (English, French, German, Spanish, Danish, Finnish: the only languages this path takes,
 * domain/recordings.ts SYNTHESIS_ALIGNMENT_LANGUAGES): their own transcripts 0.30-0.49; another sentence's or another
 * language's words mostly 0.50-0.67, but some under it (German words on a Finnish or a Spanish recording, 0.45-0.46),
 * which the shuffled baseline (MAX_SHUFFLED_RATIO) refuses.
 */
const MAX_PATH_COST_RATIO = 0.495;
/**
 * Above this ratio of the path ratio to the path ratio of the transcript's words shuffled (the same sounds in an
 * order nobody said), the transcript is not what was said: the absolute bar alone took a German transcript on a
 * Finnish recording (0.454) and a Danish reader's own words shuffled (0.459). Measured (docs/your-voice.md): own
 * transcripts 0.70-0.87, another sentence's or another language's 0.90-1.12.
 */
const MAX_SHUFFLED_RATIO = 0.885;
/** A shuffled copy of fewer words is too near the transcript to be its baseline (measured from 13 words up). */
const MIN_SHUFFLED_WORDS = 12;
/** The recording's length over espeak-ng's outside these bounds: not this transcript (measured 1.0-1.8 for one's own). */
const MIN_PACE = 0.8;
const MAX_PACE = 2.5;
/** The longest reading of a transcript a recording of `seconds` may be aligned with (a longer one is refused by pace). */
const longestReading = (seconds: number) => seconds / MIN_PACE;

/**
 * The words of the script as espeak-ng reads them (markup read, lexicon applied), in an order fixed by a seeded
 * generator, so a render and its retry compute the same baseline. Undefined when there are too few words.
 * @internal Exported for the measuring script.
 */
export function shuffledTranscript(script: SpeechScript): string | undefined {
  const words = script.parts.flatMap((part) => (part.kind === 'speech' ? part.text.replace(/[<>&]/g, ' ').split(/\s+/).filter(Boolean) : []));
  if (words.length < MIN_SHUFFLED_WORDS) return undefined;
  let seed = 7;
  for (let i = words.length - 1; i > 0; i--) {
    // Past 2^53 the product is rounded, so this is not exactly the C library's generator; it is the same order on every
    // run and platform (IEEE doubles), and the bars were measured with these orders: the exact generator (Math.imul)
    // moved a French reader's own sentence to 0.899, over MAX_SHUFFLED_RATIO (docs/your-voice.md#not-done-yet).
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [words[i], words[j]] = [words[j]!, words[i]!];
  }
  return words.join(' ');
}

/** The path ratio of espeak-ng's reading of `script` warped onto the recording's frames. */
async function pathRatio(
  script: SpeechScript,
  espeakVoice: string,
  recording: { frames: Float32Array[]; seconds: number },
  dir: string,
): Promise<number | undefined> {
  await mkdir(dir, { recursive: true });
  const spoken = await readings.synthesize(script, { id: espeakVoice }, dir, { stopAfterSeconds: longestReading(recording.seconds) });
  // The same words as the transcript without its pauses, read past the bound the transcript's reading kept to: refused.
  if (spoken.stopped) throw new TranscriptMismatchError(undefined);
  const synth = mfccFrames(resampled(spoken.wavPath));
  return synth.length < 2 ? undefined : warp(synth, recording.frames).costRatio;
}

/** 16-kHz mono samples of a WAV file espeak-ng wrote (at its own rate). */
function resampled(wavPath: string): Float32Array {
  const { samples, sampleRate } = readWav(wavPath);
  return resample(samples, sampleRate, SAMPLE_RATE);
}

/**
 * Aligns `words` (of `script.shown`) to `pcm` (16 kHz mono samples in -1..1) through espeak-ng's `espeakVoice`
 * speaking `script`: the clip's script as parsed once, its markup read and its lexicon applied, so espeak-ng's word
 * offsets are the transcript's. Throws TranscriptMismatchError when the recording does not say the transcript.
 */
export async function alignBySynthesis(
  pcm: Float32Array,
  script: SpeechScript,
  words: TranscriptWord[],
  espeakVoice: string,
  workDir: string,
): Promise<Alignment> {
  const dir = join(workDir, 'transcript-spoken');
  await mkdir(dir, { recursive: true });
  const recordingSeconds = pcm.length / SAMPLE_RATE;
  // Read no further than a reading the pace below refuses: a transcript read far longer than it looks (a sentence a
  // letter, "a! a! ...", pauses 0.5 s at each mark) costs no more than the recording's own length.
  const spoken = await readings.synthesize(script, { id: espeakVoice }, dir, { stopAfterSeconds: longestReading(recordingSeconds) });
  // The recording's length against espeak-ng's (at 175 words a minute): a reader takes 1.0-1.8 times as long. Refused
  // here, before the MFCCs and the warp, whose work grows with the reading's length.
  const pace = recordingSeconds / spoken.durationSeconds;
  // A reading cut at the bound is refused as it stands (its length is only a little over the bound).
  if (spoken.stopped || !(pace >= MIN_PACE && pace <= MAX_PACE)) throw new TranscriptMismatchError(undefined);
  const synth = mfccFrames(resampled(spoken.wavPath));
  const recording = mfccFrames(pcm);
  if (synth.length < 2 || recording.length < 2) throw new TranscriptMismatchError(undefined);
  const { recordingFrameOf, costRatio } = warp(synth, recording);
  if (costRatio > MAX_PATH_COST_RATIO) throw new TranscriptMismatchError(1 - costRatio);
  const shuffled = shuffledTranscript(script);
  const baseline =
    shuffled &&
    (await pathRatio(speechScriptOf(shuffled), espeakVoice, { frames: recording, seconds: recordingSeconds }, join(workDir, 'transcript-shuffled')));
  if (baseline && costRatio / baseline > MAX_SHUFFLED_RATIO) throw new TranscriptMismatchError(1 - costRatio);
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
