/**
 * A clip's timeline: how long it lasts, in whole frames, with its transitions; and the bot's mouth on each of its
 * frames (the sounds' shapes, opened by the loudness: lipsync.ts).
 */
import { TRANSITION_SECONDS, type Transitions } from '#domain/clip';
import type { BotManifest } from '#domain/look';
import { readWav } from '#media/wav';
import type { MouthFrame } from './animation.ts';
import { loudnessPerFrame, mouthFrames, mouthLevelsFromLoudness, visemesOfPhonemes, visemesOfPolly } from './lipsync.ts';
import { FPS, type SpeechResult } from './types.ts';

export interface ClipTiming {
  entrySeconds: number;
  exitSeconds: number;
  speechSeconds: number;
  totalSeconds: number;
  frames: number;
  entryFrames: number;
  exitFrames: number;
}

/** A clip lasts as long as its speech plus TRANSITION_SECONDS per transition; the entry plays before the speech. */
export function clipTiming(speechSeconds: number, transitions: Transitions): ClipTiming {
  const entrySeconds = transitions.entry ? TRANSITION_SECONDS : 0;
  const exitSeconds = transitions.exit ? TRANSITION_SECONDS : 0;
  const totalSeconds = entrySeconds + speechSeconds + exitSeconds;
  return {
    entrySeconds,
    exitSeconds,
    speechSeconds,
    totalSeconds,
    // ffmpeg writes every frame that starts before the end (-t), so the bot must cover ceil(), not round(). The
    // picture so ends on or after the sound: clips joined by stream copy then start on a frame.
    frames: Math.ceil(totalSeconds * FPS - 1e-6),
    entryFrames: Math.round(entrySeconds * FPS),
    exitFrames: Math.round(exitSeconds * FPS),
  };
}

/**
 * The mouth of every frame of the clip (closed during the transitions): shaped by the sounds the engine made
 * (espeak-ng's phonemes, Polly's visemes), opened by the loudness; by the loudness alone if the engine timed none.
 * @internal Exported for its tests.
 */
export function clipMouthFrames(
  speech: SpeechResult,
  timing: ClipTiming,
  look: Pick<BotManifest, 'mouthLevels' | 'mouthShapes'>,
  loudness = speechLoudness(speech),
): MouthFrame[] {
  const visemes = speech.phonemes?.length
    ? visemesOfPhonemes(speech.phonemes)
    : speech.visemes?.length
      ? visemesOfPolly(speech.visemes, speech.durationSeconds)
      : undefined;
  const speaking: MouthFrame[] = visemes
    ? mouthFrames(visemes, loudness, FPS, look)
    : mouthLevelsFromLoudness(loudness, look.mouthLevels).map((level) => ({ frame: `m${level}` }));
  return Array.from({ length: timing.frames }, (_, i) => speaking[i - timing.entryFrames] ?? { frame: 'm0' });
}

/** The speech's loudness per video frame (lipsync.ts loudnessPerFrame), from its WAV. */
export function speechLoudness(speech: SpeechResult): number[] {
  const pcm = readWav(speech.wavPath);
  return loudnessPerFrame(pcm.samples, pcm.sampleRate, FPS, Math.ceil(speech.durationSeconds * FPS));
}
