/**
 * Forced alignment of a transcript to a recording: when each of its words and sounds is said. SoundSwallower
 * (PocketSphinx's aligner in WebAssembly, with its US English acoustic model inside the npm package) aligns
 * English; other languages go through espeak-ng (synthesis-alignment.ts). A transcript that is not what the recording says is told by the alignment's word
 * posteriors (TranscriptMismatchError), never answered with drifting times.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Decoder, SoundSwallowerModule } from 'soundswallower';
import type { AlignmentLanguage } from '#domain/recordings';
import type { TimedPhoneme } from '../engine/types.ts';

/** The acoustic model of each alignment language, by its directory in the package. */
const MODELS: Record<AlignmentLanguage, string> = { en: 'en-us' };

/**
 * Below these word posteriors the transcript is not what was said. Measured on the LibriVox sentences of Debian's
 * pocketsphinx-testdata (docs/your-voice.md): each with its own transcript scored a mean of 0.955-0.971 and a least
 * word of 0.845 or more; with another sentence's, or half of another's, a mean of 0.793-0.927 or no alignment.
 */
const MIN_MEAN_WORD_POSTERIOR = 0.94;
const MIN_WORD_POSTERIOR = 0.8;

/**
 * The longest recording the acoustic model aligns (seconds); a longer one goes through espeak-ng's voice of its
 * language (synthesis-alignment.ts). On the LibriVox sentences looped to a length (docs/your-voice.md#long-recordings),
 * SoundSwallower's mean word posterior falls with the length: 0.955-0.971 for each sentence alone, 0.940 at 65 s
 * (the refusal's bar), 0.938-0.939 at 120 and 180 s, so a reader's own longer transcript would be refused; and its
 * search's table grows with the length times the transcript's (10 minutes asked for 1.15 GB and failed).
 */
export const MAX_MODEL_ALIGNMENT_SECONDS = 60;

/** The transcript does not match the recording (other words, another language). */
export class TranscriptMismatchError extends Error {
  constructor(readonly meanPosterior: number | undefined) {
    super('the transcript does not match the recording');
    this.name = 'TranscriptMismatchError';
  }
}

/** A word of the transcript: its text and where it stands in the shown text. */
export interface TranscriptWord {
  text: string;
  start: number;
  end: number;
}

export interface Alignment {
  /** One per transcript word, in order: when it is said. */
  words: { startSeconds: number; endSeconds: number }[];
  phonemes: TimedPhoneme[];
  meanPosterior: number;
}

/** The words of a transcript with their offsets in it (letters, digits and inner apostrophes or hyphens). */
export function transcriptWords(text: string): TranscriptWord[] {
  return [...text.matchAll(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

/**
 * The aligner's module, with its WebAssembly and models beside it: `<dir>/soundswallower/` in the render image
 * (infra/scripts/bundle-render.ts copies them there; esbuild makes import.meta.url the bundle's), else the package.
 */
function soundSwallowerEntry(): string {
  const bundled = fileURLToPath(new URL('./soundswallower/soundswallower.node.js', import.meta.url));
  return existsSync(bundled) ? bundled : createRequire(import.meta.url).resolve('soundswallower');
}

const decoders = new Map<AlignmentLanguage, Promise<Decoder>>();

/** One decoder per language, made once per process (loading a model takes a second or two). */
function decoderFor(language: AlignmentLanguage): Promise<Decoder> {
  let decoder = decoders.get(language);
  if (!decoder) {
    decoder = (async () => {
      const entry = soundSwallowerEntry();
      const { default: createModule } = (await import(pathToFileURL(entry).href)) as { default: (m?: object) => Promise<SoundSwallowerModule> };
      const modelBase = `${join(dirname(entry), 'model')}/`;
      const module = await createModule({ modelBase, defaultModel: MODELS[language] });
      const made = new module.Decoder({ samprate: 16_000, loglevel: 'FATAL' });
      await made.initialize();
      return made;
    })();
    decoders.set(language, decoder);
    decoder.catch(() => decoders.delete(language));
  }
  return decoder;
}

/**
 * Aligns `words` to `pcm` (16 kHz mono samples in -1..1). Words the model's dictionary lacks are left out of the
 * alignment and given the time between their neighbours. Throws TranscriptMismatchError when the recording does
 * not say the transcript.
 */
export async function alignTranscript(pcm: Float32Array, words: TranscriptWord[], language: AlignmentLanguage): Promise<Alignment> {
  const decoder = await decoderFor(language);
  const known = words.map((w) => {
    const key = w.text.toLowerCase().replace(/’/g, "'");
    return decoder.lookup_word(key) ? key : undefined;
  });
  const spoken = known.filter((k): k is string => k !== undefined);
  if (!spoken.length) throw new TranscriptMismatchError(undefined);
  decoder.set_align_text(spoken.join(' '));
  decoder.start();
  decoder.process_audio(pcm, false, true);
  decoder.stop();
  let segments: AlignedSegment[];
  try {
    segments = (decoder.get_alignment({ align_level: 1 }).w ?? []).filter((s) => !s.t.startsWith('<') && !s.t.startsWith('['));
  } catch {
    // No path through the transcript reaches the end of the recording.
    throw new TranscriptMismatchError(undefined);
  }
  if (segments.length !== spoken.length) throw new TranscriptMismatchError(undefined);
  const posteriors = segments.map((s) => s.p);
  const meanPosterior = posteriors.reduce((a, b) => a + b, 0) / posteriors.length;
  if (meanPosterior < MIN_MEAN_WORD_POSTERIOR || Math.min(...posteriors) < MIN_WORD_POSTERIOR) throw new TranscriptMismatchError(meanPosterior);
  return { words: timesOfAll(known, segments, pcm.length / 16_000), phonemes: segments.flatMap(phonemesOf), meanPosterior };
}

interface AlignedSegment {
  t: string;
  b: number;
  d: number;
  p: number;
  w?: AlignedSegment[];
}

/** Every transcript word's time: the aligned ones as aligned, the others shared out between their neighbours. */
function timesOfAll(known: (string | undefined)[], segments: AlignedSegment[], totalSeconds: number) {
  let next = 0;
  const times = known.map((k) => {
    if (k === undefined) return undefined;
    const segment = segments[next++]!;
    return { startSeconds: segment.b, endSeconds: segment.b + segment.d };
  });
  return withGapsShared(times, totalSeconds);
}

/** Words without a time of their own (`undefined`) share the time between their timed neighbours. */
export function withGapsShared(times: ({ startSeconds: number; endSeconds: number } | undefined)[], totalSeconds: number) {
  for (let i = 0; i < times.length; ) {
    if (times[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < times.length && !times[j]) j++;
    const from = times[i - 1]?.endSeconds ?? 0;
    const to = times[j]?.startSeconds ?? totalSeconds;
    const step = (to - from) / (j - i);
    for (let k = i; k < j; k++) times[k] = { startSeconds: from + step * (k - i), endSeconds: from + step * (k - i + 1) };
    i = j;
  }
  return times as { startSeconds: number; endSeconds: number }[];
}

/** CMU ARPAbet (the en-us model's phones) in IPA, enough for the mouth (lipsync.ts visemes). */
const ARPABET_IPA: Record<string, string> = {
  AA: 'ɑ',
  AE: 'æ',
  AH: 'ʌ',
  AO: 'ɔ',
  AW: 'aʊ',
  AY: 'aɪ',
  EH: 'ɛ',
  ER: 'ɚ',
  EY: 'eɪ',
  IH: 'ɪ',
  IY: 'i',
  OW: 'oʊ',
  OY: 'ɔɪ',
  UH: 'ʊ',
  UW: 'u',
  B: 'b',
  CH: 'tʃ',
  D: 'd',
  DH: 'ð',
  F: 'f',
  G: 'ɡ',
  HH: 'h',
  JH: 'dʒ',
  K: 'k',
  L: 'l',
  M: 'm',
  N: 'n',
  NG: 'ŋ',
  P: 'p',
  R: 'ɹ',
  S: 's',
  SH: 'ʃ',
  T: 't',
  TH: 'θ',
  V: 'v',
  W: 'w',
  Y: 'j',
  Z: 'z',
  ZH: 'ʒ',
};

function phonemesOf(word: AlignedSegment): TimedPhoneme[] {
  return (word.w ?? []).map((phone) => ({
    ipa: ARPABET_IPA[phone.t] ?? phone.t.toLowerCase(),
    startSeconds: phone.b,
    endSeconds: phone.b + phone.d,
    stress: 0,
  }));
}
