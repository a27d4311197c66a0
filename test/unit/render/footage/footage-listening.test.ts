import { describe, expect, it } from 'vitest';
import { clipTiming } from '#functions/render/engine/clip-timeline.ts';
import { listeningOf, listeningWeights, SWITCH_FRAMES } from '#functions/render/engine/footage/footage-listening.ts';

const word = (startSeconds: number, endSeconds: number) => ({ startSeconds, endSeconds });

describe('when a video bot listens', () => {
  it('listens through a break of a second or more, crossfading in after the word and out before the next', () => {
    // Two words, a 2-s break, two words: 5 s of speech, no transitions.
    const timing = clipTiming(5, {});
    const weights = listeningWeights([word(0, 0.5), word(0.6, 1.2), word(3.2, 3.8), word(3.9, 5)], timing);
    // Speaking while the words are said (and the 0.1-s gap between two words is no listening).
    for (const f of [0, 10, 20, 35, 100, 110, 140]) expect(weights[f], `frame ${f}`).toBe(0);
    // In the break's middle the listening loop alone.
    for (let f = 50; f <= 80; f++) expect(weights[f]).toBe(1);
    // The fade in starts 0.1 s after the word (frame 39) and rises by even steps to 1 in SWITCH_FRAMES + 1 frames.
    expect(weights[38]).toBe(0);
    for (let k = 0; k < SWITCH_FRAMES; k++) expect(weights[39 + k]).toBeCloseTo((k + 1) / (SWITCH_FRAMES + 1), 5);
    // The fade out ends before the next word (3.2 s = frame 96): its last listening frame is 0.1 s earlier.
    expect(weights[93]).toBe(0);
    expect(weights[92]).toBeCloseTo(1 / (SWITCH_FRAMES + 1), 5);
    // Each step is at most one ramp's step: no frame jumps from one loop to the other.
    for (let f = 1; f < weights.length; f++) expect(Math.abs(weights[f]! - weights[f - 1]!)).toBeLessThanOrEqual(1 / (SWITCH_FRAMES + 1) + 1e-6);
  });

  it('starts and ends a clip listening when its speech starts or ends with a silence of a second or more, a shorter pause never', () => {
    const timing = clipTiming(6, { entry: 'fade_in', exit: 'fade_out' });
    const weights = listeningWeights([word(1.2, 2), word(2.5, 4.6)], timing);
    // The entry (0.5 s) and the 1.2 s before the first word: listening from the first frame, no fade in.
    expect(weights[0]).toBe(1);
    expect(weights[20]).toBe(1);
    // The 0.5-s pause between the words is no listening.
    expect(weights.slice(Math.round(2.6 * 30), Math.round(2.9 * 30)).every((w) => w === 0)).toBe(true);
    // After the last word (5.1 s of the clip) the 1.4 s to the end: listening to the last frame.
    expect(weights[timing.frames - 1]).toBe(1);
    expect(weights[Math.round(5.1 * 30)]).toBe(0);
  });

  it('listens through a clip without words (a break alone), and never while the words run on', () => {
    const silent = clipTiming(2, {});
    expect(listeningWeights([], silent).every((w) => w === 1)).toBe(true);
    const talk = clipTiming(3, {});
    expect(listeningWeights([word(0, 1), word(1.05, 2), word(2.1, 3)], talk).every((w) => w === 0)).toBe(true);
  });

  it('speaks through a recording without its transcript (no words, its mouth from the spectrum), listens through a break alone', () => {
    const timing = clipTiming(20, {});
    const recording = listeningOf({ words: [], spectralVisemes: [{ viseme: 'open', startSeconds: 0, endSeconds: 20 }] }, timing);
    expect(recording.every((w) => w === 0)).toBe(true);
    expect(listeningOf({ words: [] }, timing).every((w) => w === 1)).toBe(true);
  });
});
