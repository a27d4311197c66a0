/**
 * Which of the atlas's samples a video bot's frames show (docs/video-bots.md, the lip sync): for each mouth frame the
 * lip sync plans, the sample of that shape (or of its stand-in) that meets the frame where the shape starts best
 * along the seam, held while the shape holds so the mouth is as still as the person's own; on a change of shape the
 * sample mixed in is the one then held.
 */
import type { MouthSample } from '#domain/look';

/** Which mouth frames stand in for one the atlas lacks, nearest first (then `m0`, which every atlas has). */
const STAND_INS: Record<string, string[]> = {
  m1: ['m2'],
  m2: ['m1', 'm3'],
  m3: ['m2', 'm4'],
  m4: ['m3', 'm2'],
  r1: ['r2', 'm1'],
  r2: ['r1', 'm3'],
  w1: ['w2', 'm2'],
  w2: ['w1', 'm3'],
  fv: ['m1'],
};

/** How badly each candidate meets the frame being drawn (lower is better): mouth-blend.ts seamMismatches on it. */
export type SampleScore = (candidates: readonly MouthSample[]) => number[];

/**
 * The samples of `frame`, or of the first of its stand-ins the atlas has: the one `score` finds best, or the only
 * one (not scored).
 * @internal Exported for its tests.
 */
export function pickSample(samples: readonly MouthSample[], frame: string, score: SampleScore): MouthSample {
  for (const name of [frame, ...(STAND_INS[frame] ?? []), 'm0']) {
    const candidates = samples.filter((s) => s.frame === name);
    if (!candidates.length) continue;
    if (candidates.length === 1) return candidates[0]!;
    const mismatches = score(candidates);
    // The least, the first of equals (a score that is not a number is passed over, never returned as nothing).
    let best = 0;
    for (let k = 1; k < candidates.length; k++) if (mismatches[k]! < mismatches[best]!) best = k;
    return candidates[best]!;
  }
  return samples[0]!;
}

/** The samples shown frame after frame: held while a shape holds, chosen afresh on the frame a shape starts. */
export class MouthSampleChoice {
  private held?: { frame: string; sample: MouthSample };
  /** The sample mixed in toward the next mouth frame, held once that frame comes. */
  private next?: { frame: string; sample: MouthSample };

  constructor(private readonly samples: readonly MouthSample[]) {}

  /** The sample of `frame` on this frame: the one held, or for a new shape the one mixed in before it, or the best. */
  shown(frame: string, score: SampleScore): MouthSample {
    if (this.held?.frame !== frame) {
      this.held = { frame, sample: this.toward(frame, score) };
      this.next = undefined;
    }
    return this.held.sample;
  }

  /** The sample of `frame` mixed in on a change of shape toward it: kept, to be held when that frame comes. */
  toward(frame: string, score: SampleScore): MouthSample {
    if (this.next?.frame !== frame) this.next = { frame, sample: pickSample(this.samples, frame, score) };
    return this.next.sample;
  }

  /** Nothing was laid on this frame (the person's own mouth, or no face): the next laid frame chooses afresh. */
  forget(): void {
    this.held = undefined;
    this.next = undefined;
  }
}
