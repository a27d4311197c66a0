/**
 * How long a video may last (limits.maxVideoSeconds), checked where its length is known: at create for what is
 * known then (kept clips' stored lengths, breaks, transitions), at assembly for the rest (a recording's length is
 * known only once it is fetched and probed, a synthesised clip's once it is spoken). Pure rules: no AWS here.
 */
import { type ClipSpec, TRANSITION_SECONDS } from './clip.ts';
import { InvalidRequestError } from './errors.ts';
import { limits } from './limits.ts';
import { parseSpeechMarkup } from './speech-markup.ts';

/** A kept clip's stored length in seconds, for a clip that names one (`reusedClipUid`); undefined otherwise. */
export type KeptSeconds = (clip: ClipSpec) => number | undefined;

/**
 * The seconds a clip lasts at least, known before anything is spoken: a kept clip's length, else its breaks and its
 * transitions (its words or its recording add to that, but how long they take is known only at its render).
 */
function knownClipSeconds(clip: ClipSpec, keptSeconds: number | undefined): number {
  if (keptSeconds !== undefined) return keptSeconds;
  const breaks = parseSpeechMarkup(clip.text).runs.reduce((sum, run) => sum + (run.kind === 'break' ? run.seconds : 0), 0);
  const transitions = (clip.transitions.entry ? TRANSITION_SECONDS : 0) + (clip.transitions.exit ? TRANSITION_SECONDS : 0);
  return breaks + transitions;
}

/** The seconds a video of `clips` lasts at least, as known at create. */
export const knownVideoSeconds = (clips: readonly ClipSpec[], keptSeconds: KeptSeconds): number =>
  clips.reduce((sum, clip) => sum + knownClipSeconds(clip, keptSeconds(clip)), 0);

/**
 * Refuses at create (400, `clips`) a video whose clips are known to last longer than limits.maxVideoSeconds, so the
 * caller hears it before any clip renders; a video whose length is not known yet is checked by videoTooLong at assembly.
 */
export function refuseVideoKnownTooLong(clips: readonly ClipSpec[], keptSeconds: KeptSeconds): void {
  const known = knownVideoSeconds(clips, keptSeconds);
  if (known <= limits.maxVideoSeconds) return;
  throw new InvalidRequestError([
    {
      path: 'clips',
      message: `a video lasts at most ${limits.maxVideoSeconds} s; these clips last at least ${known.toFixed(1)} s (their kept clips, breaks and transitions): make it two videos`,
    },
  ]);
}

/** Why a video of clips lasting `clipSeconds` (as rendered) is too long to assemble, or undefined. */
export function videoTooLong(clipSeconds: readonly number[]): string | undefined {
  const total = clipSeconds.reduce((sum, s) => sum + s, 0);
  if (total <= limits.maxVideoSeconds) return undefined;
  return `a video lasts at most ${limits.maxVideoSeconds} s; its clips last ${total.toFixed(1)} s together: make it two videos`;
}
