/**
 * A clip with `footage: "as_recorded"`: a video bot's recording played from its start, once, saying the clip's text
 * (docs/video-bots.md). It lasts as long as its speech, so the speech may last at most as long as the recording.
 * How long words take to say is known only once spoken; at create the clip's least length is known (its breaks and
 * transitions, and its words at a rate no voice of ours reaches), and a clip that cannot fit even so is a 400 there.
 * The render checks the spoken length (render_failure `speech_longer_than_recording`).
 */
import { kindOfSource, type ResolvedBot } from './account-bot.ts';
import { type ClipInput, TRANSITION_SECONDS } from './clip.ts';
import type { FieldProblem } from './errors.ts';
import { parseSpeechMarkup, shownText } from './speech-markup.ts';

/**
 * Seconds a word takes at least: 300 words a minute, faster than any voice of the catalog speaks (espeak-ng's
 * default is 175, Polly's voices about 150 to 180), so a clip refused by this bound is too long whatever the voice.
 */
const LEAST_SECONDS_PER_WORD = 0.2;

/**
 * The seconds a clip lasts at least, known before it is spoken: its breaks, its transitions and its words at the fastest rate.
 * @internal Exported for its tests.
 */
export function leastClipSeconds(input: Pick<ClipInput, 'text' | 'transitions'>): number {
  const text = input.text ?? '';
  const breaks = parseSpeechMarkup(text).runs.reduce((sum, run) => sum + (run.kind === 'break' ? run.seconds : 0), 0);
  const words = shownText(text).match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  const transitions = (input.transitions.entry ? TRANSITION_SECONDS : 0) + (input.transitions.exit ? TRANSITION_SECONDS : 0);
  return breaks + transitions + words * LEAST_SECONDS_PER_WORD;
}

/** Why a clip's `footage: "as_recorded"` cannot be, or undefined: the bot is not a video bot, or the text surely outlasts the recording. */
export function asRecordedProblem(input: ClipInput, index: number, found: ResolvedBot): FieldProblem | undefined {
  if (input.footage !== 'as_recorded') return undefined;
  const path = `clips[${index}].footage`;
  if (!found.own || kindOfSource(found.own.source) !== 'video')
    return { path, message: `"as_recorded" plays a video bot's recording; bot "${found.bot.uid}" is not a video bot` };
  const recorded = found.own.look?.recordingSeconds;
  const least = leastClipSeconds(input);
  if (recorded !== undefined && least > recorded)
    return {
      path,
      message: `the clip lasts at least ${least.toFixed(1)} s (its words, breaks and transitions) and bot "${found.own.uid}"'s recording ${recorded.toFixed(1)} s: shorten the text or leave footage out (the loop covers any length)`,
    };
  return undefined;
}

/**
 * Why a clip's `remove_bot_background: true` cannot be, or undefined: a video bot's matte covers its loops (made at
 * preparation, docs/video-bots.md), not the whole recording that `as_recorded` plays, and a look prepared without
 * one has none to show.
 */
export function backgroundRemovalProblem(input: ClipInput, index: number, found: ResolvedBot): FieldProblem | undefined {
  if (!input.remove_bot_background || !found.own || kindOfSource(found.own.source) !== 'video') return undefined;
  const path = `clips[${index}].remove_bot_background`;
  if (input.footage === 'as_recorded')
    return {
      path,
      message: `with footage "as_recorded" bot "${found.own.uid}"'s recording is shown whole, with its own backdrop; leave one of the two out`,
    };
  if (!found.own.look?.cutout)
    return { path, message: `bot "${found.own.uid}" was prepared without a matte of its footage; PUT the bot again to have one made` };
  return undefined;
}
