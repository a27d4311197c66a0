/**
 * Mouths that form the sounds, measured on rendered frames: the sentence, rich in bilabials and in rounded
 * and wide vowels, spoken by a bot of each kind; at the times of its phonemes (espeak-ng's own events) the lips are
 * closed on m/b/p and the mouth is narrower on "oo" than on "ee".
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { layoutFor } from '#functions/render/engine/layout.ts';
import { opennessOf, pearson } from '#functions/render/engine/lipsync.ts';
import { clipMouthFrames, clipTiming } from '#functions/render/engine/render-clip.ts';
import { lookManifest } from '#functions/render/engine/sprites.ts';
import type { TimedPhoneme } from '#functions/render/engine/types.ts';
import { croppedFrames, framesDuring, type MouthMeasure, measureMouth, median } from '../../support/mouth-measure.ts';
import { render, useEngineBackgrounds } from '../../support/render-engine.ts';

useEngineBackgrounds();

export const VISEME_SENTENCE = 'Mama bought a puppy. Peter, Bob and Pam. We see three. Who knew you too?';
const FPS = 30;
const FRAME = frameSizeOf(DEFAULT_SHAPE);

/** Renders the sentence with a look and measures the mouth on every frame. */
async function measuredClip(overrides: Parameters<typeof render>[0], look: string, directory?: string) {
  const clip = await render({ text: VISEME_SENTENCE, position: 'center', botSize: 'large', ...overrides });
  const manifest = lookManifest(look, directory);
  const place = layoutFor(FRAME, 'center', manifest, { size: 'large' });
  const scale = place.height / manifest.height;
  const box = {
    x: Math.round(place.x + (manifest.mouth.x - 40) * scale),
    y: Math.round(place.y + (manifest.mouth.y - 14) * scale),
    w: Math.round(80 * scale),
    h: Math.round(40 * scale),
  };
  const frames = await croppedFrames(clip.path, box);
  const mouths = clipMouthFrames(clip.speech, clipTiming(clip.speech.durationSeconds, {}), manifest);
  return { clip, measures: frames.map((f) => measureMouth(f, box.w, box.h)), phonemes: clip.speech.phonemes!, mouths };
}

/** The measures of the frames during each phoneme that matches. */
const during = (phonemes: TimedPhoneme[], measures: MouthMeasure[], match: (ipa: string) => boolean) =>
  phonemes
    .filter((p) => match(p.ipa))
    .map((p) => ({
      p,
      frames: framesDuring(p.startSeconds, p.endSeconds, FPS)
        .map((f) => measures[f]!)
        .filter(Boolean),
    }));

function expectVisemes(label: string, measures: MouthMeasure[], phonemes: TimedPhoneme[]) {
  const open = during(phonemes, measures, (ipa) => /^[aɑæɔʌ]/.test(ipa)).flatMap((d) => d.frames.map((m) => m.dark));
  const openDark = median(open);
  const bilabials = during(phonemes, measures, (ipa) => /^[mbp]$/.test(ipa));
  const closedDark = bilabials.map((d) => Math.min(...d.frames.map((m) => m.dark)));
  const middle = (ipa: RegExp) =>
    phonemes.filter((p) => ipa.test(p.ipa)).map((p) => measures[Math.floor(((p.startSeconds + p.endSeconds) / 2) * FPS)]!.width);
  const oo = median(middle(/^uː?$/));
  const ee = median(middle(/^iː?$/));
  console.log(
    `visemes (${label}): ${bilabials.length} bilabials, darkest-inside at each ${JSON.stringify(closedDark)} px vs open vowels' median ${openDark} px; ` +
      `mouth width "oo" ${oo} px vs "ee" ${ee} px (${(oo / ee).toFixed(2)})`,
  );
  expect(bilabials.length).toBe(10);
  expect(openDark).toBeGreaterThan(20);
  for (const dark of closedDark) expect(dark).toBeLessThanOrEqual(openDark * 0.1);
  expect(oo).toBeLessThanOrEqual(ee * 0.85);
}

describe('visemes on rendered frames', () => {
  it('a built-in bot closes its lips on m/b/p and narrows its mouth on "oo" against "ee"', async () => {
    const { measures, phonemes, mouths } = await measuredClip({}, 'ava');
    expectVisemes('built-in ava', measures, phonemes);
    // Frame i of the video shows the mouth of frame i (a still backdrop on a 1/25 clock once showed it a frame late).
    const inside = measures.map((m) => m.dark);
    const planned = mouths.map((m) => opennessOf(m));
    const onTime = pearson(planned, inside);
    const late = pearson(planned.slice(0, -1), inside.slice(1));
    console.log(`mouth planned vs drawn: r = ${onTime.toFixed(3)} on time, ${late.toFixed(3)} a frame late`);
    expect(onTime).toBeGreaterThan(late + 0.1);
  }, 60_000);
});
