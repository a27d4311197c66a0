/**
 * A video bot's loops (docs/video-bots.md, "How it is prepared"): where in the recording a clip of any length plays
 * over and over without a visible jump. The base loop is cut from the longest speaking stretch, the listening loop
 * from the longest listening one; each runs between the two frames whose head pose and picture are nearest.
 */
import { eyeDistance, type Point, STABLE_POINTS } from '#domain/face-space';
import { MIN_LOOP_SECONDS } from '#domain/look';
import { LONGEST_MATTED_LOOP } from './footage-matte.ts';

/**
 * The longest loop, frames: the matte's key frames stay at most a second apart on it, and what the matte costs
 * (ISNet on each key, every other frame carried) stays bounded whatever the recording's length.
 */
const MAX_LOOP_FRAMES = LONGEST_MATTED_LOOP;
/** The most start (and end) frames a loop search tries in a stretch: every second frame of a minute at 30 fps. */
const SEARCH_FRAMES = 900;
/** The frames of the loop's end crossfaded into those leading to its start (a third of a second). */
const WRAP_BLEND_FRAMES = 10;

/** A loop [from, to) of the recording's frames, `blend` of them crossfaded at its wrap. */
export interface LoopCut {
  from: number;
  to: number;
  blend: number;
}

/** How far apart two frames' head poses are: the stable landmarks' mean distance, in eye distances. */
function poseDistance(a: readonly Point[], b: readonly Point[]): number {
  let sum = 0;
  for (const i of STABLE_POINTS) sum += Math.hypot(a[i]!.x - b[i]!.x, a[i]!.y - b[i]!.y);
  return sum / STABLE_POINTS.length / eyeDistance(a);
}

const thumbDistance = (a: Uint8Array, b: Uint8Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length / 255;
};

/** The longest of `stretches` (or undefined), [from, to). */
const longest = (stretches: ReadonlyArray<[number, number]>) =>
  stretches.reduce<[number, number] | undefined>((a, b) => (!a || b[1] - b[0] > a[1] - a[0] ? b : a), undefined);

/**
 * The base loop: inside the longest stretch where the person speaks (or the whole recording), the pair of frames
 * at least MIN_LOOP_SECONDS and at most MAX_LOOP_FRAMES apart whose head pose and picture are nearest, so that
 * playing from `from` to `to - 1` and on from `from` again shows no jump.
 */
export function chooseLoop(
  track: readonly Point[][],
  thumbs: readonly Uint8Array[],
  listening: ReadonlyArray<[number, number]>,
  fps: number,
): LoopCut {
  const speaking: Array<[number, number]> = [];
  let start = 0;
  for (const [from, to] of [...listening, [track.length, track.length] as [number, number]]) {
    if (from > start) speaking.push([start, from]);
    start = to;
  }
  return loopWithin(track, thumbs, longest(speaking.filter(([a, b]) => b - a > MIN_LOOP_SECONDS * fps)) ?? [0, track.length], fps);
}

/**
 * The listening loop: the same search inside the longest listening stretch (each is at least a second of a closed,
 * still mouth), or undefined when the recording has none.
 */
export function chooseListenLoop(
  track: readonly Point[][],
  thumbs: readonly Uint8Array[],
  listening: ReadonlyArray<[number, number]>,
  fps: number,
): LoopCut | undefined {
  // A listening loop shorter than a speaking one would be seen repeating through a long <break>: none is kept.
  const stretch = longest(listening.filter(([a, b]) => b - a >= MIN_LOOP_SECONDS * fps));
  return stretch && loopWithin(track, thumbs, stretch, fps);
}

/**
 * The loop [from, to) inside frames [s, e) whose ends' head pose and picture are nearest (see chooseLoop).
 * @internal Exported for its tests.
 */
export function loopWithin(track: readonly Point[][], thumbs: readonly Uint8Array[], [s, e]: [number, number], fps: number): LoopCut {
  const length = e - s;
  const shortest = Math.min(MIN_LOOP_SECONDS * fps, Math.floor(length * 0.6));
  const most = Math.min(length, MAX_LOOP_FRAMES);
  let best = { from: s, to: s + most, cost: Infinity };
  // Every second frame, or sparser past SEARCH_FRAMES candidates: the search is quadratic in the stretch's length.
  const step = Math.max(2, Math.ceil(length / SEARCH_FRAMES));
  for (let a = s; a < s + Math.max(1, length - shortest); a += step)
    for (let b = a + shortest; b < e && b - a <= most; b += step) {
      const cost = poseDistance(track[a]!, track[b]!) * 10 + thumbDistance(thumbs[a]!, thumbs[b]!) - (b - a) / most / 100;
      if (cost < best.cost) best = { from: a, to: b, cost };
    }
  // The wrap's crossfade takes the frames before `from`: as many as there are, up to WRAP_BLEND_FRAMES.
  return { from: best.from, to: best.to, blend: Math.min(WRAP_BLEND_FRAMES, best.from, Math.floor((best.to - best.from) / 4)) };
}
