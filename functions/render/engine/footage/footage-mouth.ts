/**
 * The mouth a video bot shows on each frame: the lip sync of every bot (../mouth-track.ts), with the closures made
 * firm. A drawn mouth may start opening on the frame of an m, b or p (the next shape mixed in, the lips a frame
 * ahead of the sound); a real mouth laid from a recording must show the lips together while the sound is made, or
 * the eye reads a "p" said with an open mouth. So every frame inside a bilabial's sound that plans closed lips
 * shows them closed, unmixed, and a bilabial none of whose frames is closed gets its middle frame closed.
 *
 * A drawn bot's loud "oo" opens to its "o" (r2); a person's "oo" said loudly stays a small rounded opening (the jaw
 * opens for "o", not for "oo"), and the atlas's r2 is the person's own "o". So a rounded sound (oo, w, sh, r) shows
 * the atlas's r1 on its frames.
 */
import type { BotManifest } from '#domain/look';
import type { MouthFrame } from '../animation.ts';
import type { ClipTiming } from '../clip-timeline.ts';
import { LEAD_SECONDS, visemeOfPhoneme, visemesOfPhonemes, visemesOfPolly } from '../lipsync.ts';
import { clipMouthFrames, speechLoudness } from '../mouth-track.ts';
import { FPS, type SpeechResult } from '../types.ts';

/** The bilabials' sounds, seconds of the speech: espeak-ng's phonemes, or Polly's `p` visemes. */
function bilabials(speech: SpeechResult): { startSeconds: number; endSeconds: number }[] {
  if (speech.phonemes?.length) return speech.phonemes.filter((p) => visemeOfPhoneme(p.ipa) === 'closed');
  const marks = [...(speech.visemes ?? [])].sort((a, b) => a.timeMs - b.timeMs);
  return marks.flatMap((mark, i) =>
    mark.value === 'p' ? [{ startSeconds: mark.timeMs / 1000, endSeconds: (marks[i + 1]?.timeMs ?? mark.timeMs + 80) / 1000 }] : [],
  );
}

/** The mouth of every frame of a video bot's clip (see the module's comment). */
export const footageMouthFrames = (speech: SpeechResult, timing: ClipTiming, manifest: BotManifest): MouthFrame[] =>
  firmClosures(smallRoundings(clipMouthFrames(speech, timing, manifest, speechLoudness(speech)), speech, timing), speech, timing);

/**
 * `planned` with every frame of a rounded sound that plans the open rounded mouth (r2) showing the small one (r1),
 * mixes included: the frames the lip sync gives the sound (its time, the lips LEAD_SECONDS ahead).
 * @internal Exported for its tests.
 */
export function smallRoundings(planned: readonly MouthFrame[], speech: SpeechResult, timing: ClipTiming): MouthFrame[] {
  const spans = speech.phonemes?.length ? visemesOfPhonemes(speech.phonemes) : visemesOfPolly(speech.visemes ?? [], speech.durationSeconds);
  const mouth = [...planned];
  const small = (frame: string) => (frame === 'r2' ? 'r1' : frame);
  for (const span of spans) {
    if (span.viseme !== 'round') continue;
    const first = timing.entryFrames + Math.max(0, Math.ceil((span.startSeconds - LEAD_SECONDS) * FPS - 0.5));
    const end = Math.min(mouth.length, timing.entryFrames + Math.ceil((span.endSeconds - LEAD_SECONDS) * FPS - 0.5));
    for (let f = first; f < end; f++) {
      const m = mouth[f]!;
      mouth[f] = { frame: small(m.frame), ...(m.toward && { toward: { ...m.toward, frame: small(m.toward.frame) } }) };
    }
  }
  return mouth;
}

/**
 * `planned` (a clip's mouth frames) with every bilabial closed on its own frames.
 * @internal Exported for its tests.
 */
export function firmClosures(planned: readonly MouthFrame[], speech: SpeechResult, timing: ClipTiming): MouthFrame[] {
  const mouth = [...planned];
  for (const sound of bilabials(speech)) {
    const first = timing.entryFrames + Math.floor(sound.startSeconds * FPS);
    const last = Math.min(mouth.length - 1, timing.entryFrames + Math.ceil(sound.endSeconds * FPS) - 1);
    if (first > last) continue;
    let closed = false;
    for (let f = first; f <= last; f++)
      if (mouth[f]?.frame === 'm0') {
        mouth[f] = { frame: 'm0' };
        closed = true;
      }
    if (!closed) mouth[Math.min(last, timing.entryFrames + Math.floor(((sound.startSeconds + sound.endSeconds) / 2) * FPS))] = { frame: 'm0' };
  }
  return mouth;
}
