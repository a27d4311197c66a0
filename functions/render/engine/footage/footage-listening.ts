/**
 * When a video bot listens: on every frame of a silence of at least MIN_LISTEN_SECONDS (a `<break>`, the lead-in
 * before the first word, the end after the last) it shows its listening loop, mouth still and closed; while it
 * speaks, its speaking loop. Each switch is crossfaded over SWITCH_FRAMES, as the loop's own wrap is, and ends
 * before the next word starts, so no word is said by a face still fading in.
 */
import type { TimedWord } from '#domain/captions';
import type { ClipTiming } from '../clip-timeline.ts';
import { FPS, type SpeechResult } from '../types.ts';

/** A shorter silence is a breath inside speech: switching to listening and back would show a restless body. */
const MIN_LISTEN_SECONDS = 1;
/** The listening loop starts fading in this long after the last word ends, and is gone this long before the next. */
const MARGIN_SECONDS = 0.1;
/**
 * The switch's crossfade, frames: the loop wrap's third of a second.
 * @internal Exported for its tests.
 */
export const SWITCH_FRAMES = 10;

/**
 * For each frame of the clip, how much of the listening loop it shows: 0 speaking, 1 listening, a ramp between.
 * A silence that starts the clip is listened from frame 0; one that ends it, to the last frame.
 * @internal Exported for its tests.
 */
export function listeningWeights(words: readonly Pick<TimedWord, 'startSeconds' | 'endSeconds'>[], timing: ClipTiming): Float32Array {
  const weights = new Float32Array(timing.frames);
  const said = [...words].sort((a, b) => a.startSeconds - b.startSeconds);
  const entry = timing.entrySeconds;
  const silences: Array<[number, number]> = [];
  let quietFrom = 0;
  for (const word of said) {
    silences.push([quietFrom, entry + word.startSeconds]);
    quietFrom = Math.max(quietFrom, entry + word.endSeconds);
  }
  silences.push([quietFrom, timing.totalSeconds]);
  const ramp = SWITCH_FRAMES + 1;
  for (const [from, to] of silences) {
    if (to - from < MIN_LISTEN_SECONDS) continue;
    const atStart = from <= 0;
    const atEnd = to >= timing.totalSeconds;
    // Frames [first, last) are where the listening loop is on screen at all.
    const first = atStart ? 0 : Math.ceil((from + MARGIN_SECONDS) * FPS);
    const last = atEnd ? timing.frames : Math.floor((to - MARGIN_SECONDS) * FPS);
    for (let f = Math.max(0, first); f < Math.min(timing.frames, last); f++) {
      const fadeIn = atStart ? 1 : (f - first + 1) / ramp;
      const fadeOut = atEnd ? 1 : (last - f) / ramp;
      weights[f] = Math.min(1, fadeIn, fadeOut);
    }
  }
  return weights;
}

/**
 * The listening weights of a clip's speech. A recording spoken without its transcript has no words to place its
 * pauses (its mouth follows the sound's spectrum): the bot speaks throughout, where its empty word list would read
 * as one long silence.
 */
export function listeningOf(speech: Pick<SpeechResult, 'words' | 'spectralVisemes'>, timing: ClipTiming): Float32Array {
  return speech.spectralVisemes ? new Float32Array(timing.frames) : listeningWeights(speech.words, timing);
}
