/** The presenter's mouth on each frame of a clip: the sounds' shapes, opened by the loudness (lipsync.ts). */
import type { BotManifest } from '#domain/look';
import { readWav } from '#media/wav';
import type { MouthFrame } from './animation.ts';
import type { ClipTiming } from './clip-timeline.ts';
import { loudnessPerFrame, mouthFrames, mouthLevelsFromLoudness, visemesOfPhonemes, visemesOfPolly } from './lipsync.ts';
import { FPS, type SpeechResult } from './types.ts';

/**
 * The mouth of every frame of the clip (closed during the transitions): shaped by the sounds the engine made
 * (espeak-ng's phonemes, Polly's visemes, a recording's spectrum), opened by the loudness; by the loudness alone if
 * there are none.
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
      : speech.spectralVisemes?.length
        ? speech.spectralVisemes
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
