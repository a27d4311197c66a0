/**
 * Which atlas sample a video bot's frames show (functions/render/engine/footage/mouth-samples.ts): the best-scored
 * sample of the planned shape or of its stand-in, held while the shape holds, the one mixed in on a change of shape
 * held after it, and chosen afresh after frames where nothing was laid.
 */
import { describe, expect, it } from 'vitest';
import type { MouthSample } from '#domain/look';
import { MouthSampleChoice, pickSample, type SampleScore } from '#functions/render/engine/footage/mouth-samples.ts';

const sample = (frame: string, sourceFrame: number): MouthSample => ({
  frame,
  x: 0,
  y: 0,
  sourceFrame,
  roll: 0,
  opening: 0,
  width: 0,
  jaw: [],
  nose: { x: 0, y: 0 },
});
const atlas = [sample('m0', 1), sample('m0', 2), sample('m2', 3), sample('m2', 4), sample('m2', 5), sample('w1', 6), sample('r2', 7)];

/** Scores each candidate by `table[sourceFrame]`, counting the calls. */
function scorer(table: Record<number, number>) {
  const calls: number[][] = [];
  const score: SampleScore = (candidates) => {
    calls.push(candidates.map((c) => c.sourceFrame));
    return candidates.map((c) => table[c.sourceFrame] ?? 99);
  };
  return { score, calls };
}

describe("the atlas sample a video bot's frame shows", () => {
  it("takes the shape's best-scored sample, and a shape's only sample unscored", () => {
    const { score, calls } = scorer({ 3: 7, 4: 2, 5: 9 });
    expect(pickSample(atlas, 'm2', score).sourceFrame).toBe(4);
    expect(calls).toEqual([[3, 4, 5]]);
    expect(pickSample(atlas, 'w1', score).sourceFrame).toBe(6);
    expect(calls).toHaveLength(1);
  });

  it('falls through to the nearest stand-in the atlas has, then to the closed mouth', () => {
    const { score } = scorer({ 1: 5, 2: 1, 3: 1, 4: 8, 5: 8 });
    // r1 is missing: its first stand-in, r2 (one sample).
    expect(pickSample(atlas, 'r1', score).sourceFrame).toBe(7);
    // m1 is missing: m2, best-scored.
    expect(pickSample(atlas, 'm1', score).sourceFrame).toBe(3);
    // fv is missing, and so is its stand-in m1 (then m2 is not one of fv's): the closed mouth, best-scored.
    expect(pickSample(atlas, 'fv', score).sourceFrame).toBe(2);
  });

  it('holds a sample while its shape holds, and holds the one mixed in on a change of shape when that shape comes', () => {
    const choice = new MouthSampleChoice(atlas);
    let table: Record<number, number> = { 1: 1, 2: 2, 3: 1, 4: 2, 5: 3 };
    const score: SampleScore = (candidates) => candidates.map((c) => table[c.sourceFrame] ?? 99);
    expect(choice.shown('m0', score).sourceFrame).toBe(1);
    // The frame changes under the held shape: the sample stays.
    table = { 1: 9, 2: 1, 3: 1, 4: 2, 5: 3 };
    expect(choice.shown('m0', score).sourceFrame).toBe(1);
    // A change of shape toward m2, mixed in on m0's last frame: sample 3.
    expect(choice.toward('m2', score).sourceFrame).toBe(3);
    // On the next frame the scores favour sample 5, but the one mixed in is held: no jump between the two frames.
    table = { 1: 9, 2: 1, 3: 8, 4: 8, 5: 1 };
    expect(choice.shown('m2', score).sourceFrame).toBe(3);
    expect(choice.shown('m2', score).sourceFrame).toBe(3);
  });

  it('chooses afresh after a frame where nothing was laid', () => {
    const choice = new MouthSampleChoice(atlas);
    let table: Record<number, number> = { 1: 1, 2: 2 };
    const score: SampleScore = (candidates) => candidates.map((c) => table[c.sourceFrame] ?? 99);
    expect(choice.shown('m0', score).sourceFrame).toBe(1);
    choice.forget();
    table = { 1: 3, 2: 1 };
    expect(choice.shown('m0', score).sourceFrame).toBe(2);
  });
});
