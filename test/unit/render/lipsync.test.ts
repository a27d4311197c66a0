/** Phonemes to mouths: which shape each sound takes, closures however short, changes over two frames. */
import { describe, expect, it } from 'vitest';
import { mouthFrames, visemeOfPhoneme, visemesOfPolly } from '#functions/render/engine/lipsync.ts';

const ALL_SHAPES = { mouthLevels: 5, mouthShapes: ['round', 'wide', 'fv'] as ('round' | 'wide' | 'fv')[] };
/** A steady voice at a speaking level (the 90th percentile is the utterance's loud level: a steady one sits at 0.6 of it). */
const loud = (frames: number) => Array.from({ length: frames }, (_, i) => (i % 10 === 0 ? 1 : 0.6));

describe('visemes', () => {
  it('maps IPA to the lips in every language: closed, lip to teeth, rounded, wide, open, mid', () => {
    expect(['m', 'b', 'p'].map(visemeOfPhoneme)).toEqual(['closed', 'closed', 'closed']);
    expect(['f', 'v'].map(visemeOfPhoneme)).toEqual(['fv', 'fv']);
    expect(['uː', 'ʊ', 'w', 'y', 'ʃ'].map(visemeOfPhoneme)).toEqual(['round', 'round', 'round', 'round', 'round']);
    expect(['oʊ', 'ɔː', 'ø'].map(visemeOfPhoneme)).toEqual(['roundOpen', 'roundOpen', 'roundOpen']);
    expect(['iː', 'ɪ', 'j'].map(visemeOfPhoneme)).toEqual(['wide', 'wide', 'wide']);
    expect(['ɑː', 'aɪ', 'aʊ'].map(visemeOfPhoneme)).toEqual(['open', 'open', 'open']);
    expect(['ə', 'ɛ', 'e'].map(visemeOfPhoneme)).toEqual(['mid', 'mid', 'mid']);
    expect(['t', 'k', 's', 'n'].map(visemeOfPhoneme)).toEqual(['consonant', 'consonant', 'consonant', 'consonant']);
  });

  it('closes the lips on a bilabial shorter than a frame, and shows a shape change on two frames', () => {
    // "a" 0-0.3 s, a 15 ms "p" at 0.3 s, "a" again: 20 frames at 30 fps.
    const spans = [
      { viseme: 'open' as const, startSeconds: 0, endSeconds: 0.3 },
      { viseme: 'closed' as const, startSeconds: 0.3, endSeconds: 0.315 },
      { viseme: 'open' as const, startSeconds: 0.315, endSeconds: 0.8 },
    ];
    const mouths = mouthFrames(spans, loud(20), 30, ALL_SHAPES);
    const closed = mouths.map((m, i) => (m.frame === 'm0' && !m.toward ? i : -1)).filter((i) => i >= 0);
    expect(closed.length).toBeGreaterThanOrEqual(1);
    expect(closed.every((i) => i >= 7 && i <= 9)).toBe(true);
    // The frame after the closure starts opening toward the vowel: both mouths, the vowel's most.
    const after = mouths[closed.at(-1)! + 1]!;
    expect(after.frame).toBe('m0');
    expect(after.toward?.amount).toBeGreaterThan(0.5);
  });

  it("uses the look's shapes when it has them and its nearest open level when not", () => {
    const spans = [
      { viseme: 'round' as const, startSeconds: 0, endSeconds: 0.2 },
      { viseme: 'wide' as const, startSeconds: 0.2, endSeconds: 0.4 },
      { viseme: 'fv' as const, startSeconds: 0.4, endSeconds: 0.7 },
    ];
    const frames = (look: typeof ALL_SHAPES | { mouthLevels: number }) => [...new Set(mouthFrames(spans, loud(18), 30, look).map((m) => m.frame))];
    expect(frames(ALL_SHAPES)).toEqual(['r1', 'w1', 'fv']);
    expect(frames({ mouthLevels: 5 })).toEqual(['m1']);
  });

  it("reads Polly's viseme marks as spans, silence as none", () => {
    expect(
      visemesOfPolly(
        [
          { timeMs: 0, value: 'sil' },
          { timeMs: 100, value: 'p' },
          { timeMs: 180, value: 'u' },
        ],
        0.4,
      ),
    ).toEqual([
      { viseme: 'closed', startSeconds: 0.1, endSeconds: 0.18 },
      { viseme: 'round', startSeconds: 0.18, endSeconds: 0.4 },
    ]);
  });
});
