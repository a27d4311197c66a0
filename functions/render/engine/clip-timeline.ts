/**
 * A clip's timeline, the one place that knows when things happen: how long the clip lasts, in whole frames, with
 * its transitions; how each transition moves, wipes, fades or zooms the picture and fades the sound; when a
 * windowed layer shows and fades. Layers (./layers/) and the soundtrack ask it; none computes a time itself.
 */
import { TRANSITION_SECONDS, type Transitions } from '#domain/clip';
import type { FrameSize } from '#domain/shape';
import { filterNumber } from './filter-graph.ts';
import { FPS } from './types.ts';

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

const f = filterNumber;
const easeOut = (p: string) => `(1-pow(1-(${p}),3))`;
const easeIn = (p: string) => `pow(${p},3)`;
const exitStartOf = (timing: ClipTiming) => timing.totalSeconds - timing.exitSeconds;

/**
 * Overlay x/y expressions of a picture at (x0, y0), `w` wide, for the slide transitions (ffmpeg evaluates them per
 * frame): from and to the frame's edges. `animated` says whether they change at all.
 */
export function slideExpressions(transitions: Transitions, timing: ClipTiming, frame: FrameSize, x0: number, y0: number, w: number) {
  let x = `${x0}`;
  let y = `${y0}`;
  const T = TRANSITION_SECONDS;
  const outStart = exitStartOf(timing);
  const pIn = `t/${f(T)}`;
  const pOut = `(t-${f(outStart)})/${f(T)}`;
  const from = (start: number, end: number, ease: string) => `${start}+${end - start}*${ease}`;
  switch (transitions.exit) {
    case 'slide_out_left':
      x = `if(gt(t,${f(outStart)}),${from(x0, -w, easeIn(pOut))},${x})`;
      break;
    case 'slide_out_right':
      x = `if(gt(t,${f(outStart)}),${from(x0, frame.width, easeIn(pOut))},${x})`;
      break;
    case 'slide_out_down':
      y = `if(gt(t,${f(outStart)}),${from(y0, frame.height, easeIn(pOut))},${y})`;
      break;
    default:
      break;
  }
  switch (transitions.entry) {
    case 'slide_in_left':
      x = `if(lt(t,${f(T)}),${from(-w, x0, easeOut(pIn))},${x})`;
      break;
    case 'slide_in_right':
      x = `if(lt(t,${f(T)}),${from(frame.width, x0, easeOut(pIn))},${x})`;
      break;
    case 'slide_in_up':
      y = `if(lt(t,${f(T)}),${from(frame.height, y0, easeOut(pIn))},${y})`;
      break;
    default:
      break;
  }
  return { x, y, animated: x !== `${x0}` || y !== `${y0}` };
}

/** Scale of the presenter on frame `frame` for zoom_in (a springy pop from nothing) and zoom_out (shrinks away). */
export function zoomFactor(frame: number, transitions: Transitions, timing: ClipTiming): number {
  if (transitions.entry === 'zoom_in' && frame < timing.entryFrames) {
    const p = frame / timing.entryFrames;
    const c = 1.70158;
    return 1 + (c + 1) * (p - 1) ** 3 + c * (p - 1) ** 2;
  }
  const exitStart = timing.frames - timing.exitFrames;
  if (transitions.exit === 'zoom_out' && frame >= exitStart) {
    const p = (frame - exitStart + 1) / timing.exitFrames;
    return Math.max(0, 1 - p * p);
  }
  return 1;
}

/** A black card sweeping over the picture: its source (a frame-sized colour for its time) and its overlay. */
interface Wipe {
  source: string;
  overlay: string;
}

/** The wipes of a clip, in order (entry, exit): black uncovering the picture left to right, and covering it again. */
export function wipesOf(transitions: Transitions, timing: ClipTiming, frame: FrameSize): Wipe[] {
  const T = TRANSITION_SECONDS;
  const outStart = exitStartOf(timing);
  const wipes: Wipe[] = [];
  if (transitions.entry === 'wipe_in')
    wipes.push({
      source: `color=c=black:s=${frame.width}x${frame.height}:r=${FPS}:d=${f(T)}`,
      overlay: `overlay=x='W*${easeOut(`t/${f(T)}`)}':y=0:eval=frame:eof_action=pass`,
    });
  if (transitions.exit === 'wipe_out')
    wipes.push({
      source: `color=c=black:s=${frame.width}x${frame.height}:r=${FPS}:d=${f(T + 0.1)},setpts=PTS+${f(outStart)}/TB`,
      overlay: `overlay=x='-W+W*${easeIn(`min(1,(t-${f(outStart)})/${f(T)})`)}':y=0:eval=frame:eof_action=pass`,
    });
  return wipes;
}

/** The picture's fades from and to black, in order (entry, exit); `audio` gives the sound's. */
export function fadesOf(transitions: Transitions, timing: ClipTiming, audio = false): string[] {
  const T = TRANSITION_SECONDS;
  const fade = audio ? 'afade' : 'fade';
  const fades: string[] = [];
  if (transitions.entry === 'fade_in') fades.push(`${fade}=t=in:st=0:d=${f(T)}`);
  if (transitions.exit === 'fade_out') fades.push(`${fade}=t=out:st=${f(exitStartOf(timing))}:d=${f(T)}`);
  return fades;
}

/** How long a layer with a window fades in at its start and out at its end. */
const WINDOW_FADE_SECONDS = 0.3;

/**
 * A still layer shown from `start` to `end` seconds (either absent: the clip's first or last frame): the filters
 * that repeat its one frame and fade its alpha in and out (`steps`), and the overlay option that blends it only
 * inside its window (`enable`). Undefined for a layer without a window: it is drawn on every frame.
 */
export function layerWindow(start: number | undefined, end: number | undefined): { steps: string[]; enable: string } | undefined {
  if (start === undefined && end === undefined) return undefined;
  // A window fades the picture's alpha in and out over time, so the frame is repeated for the fade to act on.
  const steps = ['loop=loop=-1:size=1:start=0', `settb=1/${FPS}`, `setpts=N/${FPS}/TB`];
  const from = start ?? 0;
  const to = end ?? Number.POSITIVE_INFINITY;
  const fade = Math.min(WINDOW_FADE_SECONDS, (to - from) / 2);
  // It fades in at a start inside the clip and out at an end inside it (not at the clip's own first frame).
  if (from > 0) steps.push(`fade=t=in:st=${f(from)}:d=${f(fade)}:alpha=1`);
  if (Number.isFinite(to)) steps.push(`fade=t=out:st=${f(to - fade)}:d=${f(fade)}:alpha=1`);
  // Outside its window the layer is not blended at all.
  return { steps, enable: `:enable='between(t,${f(from)},${Number.isFinite(to) ? f(to) : '1e9'})'` };
}

/** The speech starts after the entry transition: its delay in whole milliseconds. */
export const speechDelayMs = (timing: ClipTiming) => Math.round(timing.entrySeconds * 1000);
