/**
 * The mouth of a recording without a transcript (render/speech/spectral-visemes.ts), on the LibriVox sentences of
 * Debian's pocketsphinx-testdata (a real reader; public domain, BSD-2 package; .ci/run installs it). The reference
 * is the same recording aligned with its transcript (alignment.ts, median word error 20 ms): on its vowels, the
 * shape read from the spectrum must be the aligned sound's far more often than chance (rounded on oo/o, spread on
 * ee, open on a), and the lips rest where nothing is said.
 *
 * Where the test data is missing the measures are skipped locally and fail in CI (CI set).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechScriptOf } from '#domain/lexicon';
import { visemeOfPhoneme } from '#functions/render/engine/lipsync.ts';
import type { Viseme } from '#functions/render/engine/visemes.ts';
import { RecordedSpeech } from '#functions/render/speech/recorded.ts';
import { visemeOfFormants } from '#functions/render/speech/spectral-visemes.ts';
import { librivoxInstalled, librivoxSentences } from '../../support/librivox.ts';
import { addedClosures, closuresText, spectralClosures } from '../../support/spectral-closures.ts';

const available = librivoxInstalled();
const sentences = librivoxSentences();

/** The shape groups compared: what a viewer tells apart on a face. */
const GROUP: Partial<Record<Viseme, 'rounded' | 'spread' | 'open'>> = {
  round: 'rounded',
  roundOpen: 'rounded',
  wide: 'spread',
  wideOpen: 'open',
  open: 'open',
};

/** A vowel (the shapes are the vowels'; w, sh, r share the rounded lips but not the formants). */
const VOWEL = /^[aeiouyæɑɒɔəɚɛɜɪʊʌøœɐ]/u;

let workDir: string;
beforeAll(async () => {
  if (!available && process.env.CI) throw new Error('CI must install pocketsphinx-testdata (.ci/run)');
  workDir = await mkdtemp(join(tmpdir(), 'spectral-mouth-'));
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('the spectrum-driven mouth of a recording without its transcript', () => {
  it('reads the shape from the first two formants: rounded for a low second, spread for a high one, open for a high first', () => {
    expect(visemeOfFormants(320, 800)).toBe('round');
    expect(visemeOfFormants(580, 900)).toBe('roundOpen');
    expect(visemeOfFormants(300, 2300)).toBe('wide');
    expect(visemeOfFormants(750, 1250)).toBe('open');
    expect(visemeOfFormants(500, 1500)).toBe('mid');
  });

  it.skipIf(!available && !process.env.CI)(
    'shows on the aligned vowels the shape they are said with, far more often than chance, and rests between the words',
    async () => {
      const counts: Record<string, Record<string, number>> = {};
      let silentSteps = 0;
      let silentShaped = 0;
      for (const [i, sentence] of sentences.entries()) {
        const dir = join(workDir, `s${i}`);
        await mkdir(dir, { recursive: true });
        const aligned = await new RecordedSpeech(sentence.path, { model: 'en', espeakVoice: 'espeak:en-us+m3' }).synthesize(
          speechScriptOf(sentence.text),
          { id: 'recording' },
          dir,
        );
        const heard = await new RecordedSpeech(sentence.path, { model: 'en', espeakVoice: 'espeak:en-us+m3' }).synthesize(
          speechScriptOf(''),
          { id: 'recording' },
          join(dir),
        );
        expect(heard.words).toEqual([]);
        const spans = heard.spectralVisemes!;
        expect(spans.length).toBeGreaterThan(10);
        const shapeAt = (t: number) => spans.find((s) => s.startSeconds <= t && t < s.endSeconds)?.viseme;
        for (const phoneme of aligned.phonemes!) {
          const expected = VOWEL.test(phoneme.ipa) ? GROUP[visemeOfPhoneme(phoneme.ipa)] : undefined;
          if (!expected || phoneme.endSeconds - phoneme.startSeconds < 0.06) continue;
          const middle = (phoneme.startSeconds + phoneme.endSeconds) / 2;
          const seen = shapeAt(middle);
          const group = (seen && GROUP[seen]) ?? seen ?? 'rest';
          counts[expected] ??= {};
          counts[expected]![group] = (counts[expected]![group] ?? 0) + 1;
        }
        // Between the words (no aligned word within 0.1 s): the lips rest, or at most a consonant's shape.
        for (let t = 0.05; t < aligned.durationSeconds; t += 0.01) {
          if (aligned.words.some((w) => w.startSeconds - 0.1 <= t && t <= w.endSeconds + 0.1)) continue;
          silentSteps++;
          const seen = shapeAt(t);
          if (seen && seen !== 'consonant') silentShaped++;
        }
      }
      const share = (expected: string) => {
        const row = counts[expected] ?? {};
        const total = Object.values(row).reduce((a, b) => a + b, 0);
        return (row[expected] ?? 0) / Math.max(1, total);
      };
      // Chance, with the three groups and mid/consonant/rest as the alternatives, is well under a third. Measured:
      // rounded 5 of 9, spread 13 of 16, open 8 of 16 (on the bar: one open vowel read otherwise fails it).
      expect(share('rounded')).toBeGreaterThanOrEqual(0.5);
      expect(share('spread')).toBeGreaterThanOrEqual(0.5);
      expect(share('open')).toBeGreaterThanOrEqual(0.5);
      expect(silentShaped / Math.max(1, silentSteps)).toBeLessThanOrEqual(0.1);
    },
    240_000,
  );

  it.skipIf(!available && !process.env.CI)(
    "closes the lips on most of the recording's m, b and p, and seldom on its vowels",
    async () => {
      const all = [];
      for (const [i, sentence] of sentences.entries()) {
        const how = { model: 'en', espeakVoice: 'espeak:en-us+m3' } as const;
        const aligned = await new RecordedSpeech(sentence.path, how).synthesize(
          speechScriptOf(sentence.text),
          { id: 'recording' },
          await mkdtemp(join(workDir, `c${i}-`)),
        );
        const heard = await new RecordedSpeech(sentence.path, how).synthesize(
          speechScriptOf(''),
          { id: 'recording' },
          await mkdtemp(join(workDir, `c${i}-`)),
        );
        all.push(spectralClosures(aligned, heard));
      }
      const c = addedClosures(all);
      const shown = closuresText(c);
      // A labial nasal's murmur reads as closed lips: 17 of the 29 aligned m/b/p show a fully closed frame (8 when the
      // murmur was read as a vowel, 1 of the 16 m's). It closes on n/ng and l/r too (8 of 17, 10 of 22; 3 and 3
      // before), and on 34 of the vowels' 355 frames (22 before): bars on each, just above what was measured, so it
      // stays a closure on m more than on anything else. A closure of one fully closed frame (then a mix toward the
      // next mouth) is a fast m, b or p at 30 fps: 20 of 65 (16 of 49 before).
      const bilabial = (c.m.closed + c.bp.closed) / (c.m.count + c.bp.count);
      expect(c.m.count + c.bp.count, shown).toBeGreaterThanOrEqual(25);
      expect(bilabial, shown).toBeGreaterThanOrEqual(0.5);
      expect(c.nasal.closed / c.nasal.count, shown).toBeLessThanOrEqual(0.55);
      expect(c.liquid.closed / c.liquid.count, shown).toBeLessThanOrEqual(0.55);
      expect(bilabial, shown).toBeGreaterThan(c.nasal.closed / c.nasal.count);
      expect(c.vowelFrames.closed / c.vowelFrames.count, shown).toBeLessThanOrEqual(0.12);
      expect(c.closures.singleFrame / c.closures.count, shown).toBeLessThanOrEqual(0.4);
    },
    240_000,
  );
});
