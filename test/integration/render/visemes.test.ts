/**
 * Mouths that form the sounds, measured on rendered frames: the sentence, rich in bilabials and in rounded
 * and wide vowels, spoken by a bot of each kind; at the times of its phonemes (espeak-ng's own events) the lips are
 * closed on m/b/p and the mouth is narrower on "oo" than on "ee".
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { buildDrawnLook } from '#functions/prepare/drawn-look.ts';
import { buildPhotoLook, loadPhotoModels } from '#functions/prepare/photo-look.ts';
import { clipTiming } from '#functions/render/engine/clip-timeline.ts';
import { layoutFor } from '#functions/render/engine/layout.ts';
import { clipMouthFrames } from '#functions/render/engine/mouth-track.ts';
import { lookManifest } from '#functions/render/engine/sprites.ts';
import type { TimedPhoneme } from '#functions/render/engine/types.ts';
import { avaDrawing } from '../../support/ava-drawings.ts';
import { writeLook } from '../../support/look-files.ts';
import {
  croppedFrames,
  framesDuring,
  lipsOf,
  type MouthMeasure,
  measureMouth,
  median,
  openingOf,
  opennessOf,
  pearson,
} from '../../support/mouth-measure.ts';
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
    y: Math.round(place.y + (manifest.mouth.y - 26) * scale),
    w: Math.round(80 * scale),
    h: Math.round(50 * scale),
  };
  const frames = await croppedFrames(clip.path, box);
  const mouths = clipMouthFrames(clip.speech, clipTiming(clip.speech.durationSeconds, {}), manifest);
  return { clip, frames, box, measures: frames.map((f) => measureMouth(f, box.w, box.h)), phonemes: clip.speech.phonemes!, mouths };
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
      `mouth opening width "oo" ${oo} px vs "ee" ${ee} px (${(oo / ee).toFixed(2)})`,
  );
  expect(bilabials.length).toBe(10);
  expect(openDark).toBeGreaterThan(20);
  for (const dark of closedDark) expect(dark).toBeLessThanOrEqual(openDark * 0.1);
  expect(oo).toBeLessThanOrEqual(ee * 0.85);
}

/**
 * A photo bot's mouth reads as a mouth: on "oo" the lips round as a whole (narrower than at rest, their outline
 * rounder: taller for its width), and an open vowel's opening has depth (lighter at the lips, darker inside; not a flat dark hole)
 * with the upper teeth at most a thin band.
 */
function expectPhotoMouth(frames: Buffer[], box: { w: number; h: number }, phonemes: TimedPhoneme[], planned: string[]) {
  const at = (p: TimedPhoneme) => Math.min(frames.length - 1, Math.floor(((p.startSeconds + p.endSeconds) / 2) * FPS));
  const rest = planned.map((frame, i) => (frame === 'm0' && i < frames.length ? i : -1)).filter((i) => i >= 0);
  const lips = (indices: number[]) => {
    const all = indices.map((i) => lipsOf(frames[i]!, box.w, box.h));
    return { width: median(all.map((l) => l.width)), height: median(all.map((l) => l.height)) };
  };
  const atRest = lips(rest);
  const rounded = lips(phonemes.filter((p) => /^uː?$/.test(p.ipa) && /^r/.test(planned[at(p)] ?? '')).map(at));
  const openFrames = phonemes.filter((p) => /^[aɑæʌ]/.test(p.ipa) && /^m[34]$/.test(planned[at(p)] ?? '')).map(at);
  const openings = openFrames.map((i) => openingOf(frames[i]!, box.w, box.h));
  const edge = median(openings.map((o) => o.edge)),
    deep = median(openings.map((o) => o.deep)),
    teeth = median(openings.map((o) => o.teeth));
  console.log(
    `photo mouth: lips at rest ${atRest.width}x${atRest.height} px, on "oo" ${rounded.width}x${rounded.height} px; ` +
      `${openFrames.length} open-vowel frames: opening ${median(openings.map((o) => o.pixels))} px, luma at the lips ${edge.toFixed(1)}, ` +
      `deep inside ${deep.toFixed(1)}, teeth ${(100 * teeth).toFixed(1)} % of it`,
  );
  expect(rest.length).toBeGreaterThan(5);
  expect(openFrames.length).toBeGreaterThanOrEqual(3);
  expect(rounded.width).toBeLessThanOrEqual(0.85 * atRest.width);
  // The rounded lips' outline is rounder: taller for its width than the resting mouth's.
  expect(rounded.height / rounded.width).toBeGreaterThan(1.2 * (atRest.height / atRest.width));
  expect(edge - deep).toBeGreaterThan(15);
  expect(teeth).toBeLessThan(0.12);
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vidbot-visemes-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

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

  it('a photo bot forms them from the mesh warp of its real face', async () => {
    await loadPhotoModels();
    const look = await buildPhotoLook(readFileSync(join(import.meta.dirname, '../../fixtures/prepare/portrait.jpg')));
    const directory = writeLook(root, look);
    const bot = { ...BUILT_IN_BOTS[0]!, uid: 'my_photo_bot', name: 'Photo', look: look.manifest.look };
    const { measures, phonemes, frames, box, mouths } = await measuredClip({ bot, lookDirectory: directory }, look.manifest.look, directory);
    expectVisemes('photo', measures, phonemes);
    expectPhotoMouth(
      frames,
      box,
      phonemes,
      mouths.map((m) => m.frame),
    );
  }, 120_000);

  it('a drawn bot given its mouth shapes forms them too', async () => {
    const look = await buildDrawnLook({
      mouthClosed: await avaDrawing('m0-eo'),
      mouthOpen: await avaDrawing('m4-eo'),
      eyesClosed: await avaDrawing('m0-ec'),
      shapes: { round: await avaDrawing('r2-eo'), wide: await avaDrawing('w2-eo'), fv: await avaDrawing('fv-eo') },
    });
    const directory = writeLook(root, look);
    const bot = { ...BUILT_IN_BOTS[0]!, uid: 'my_drawn_bot', name: 'Drawn', look: look.manifest.look };
    const { measures, phonemes } = await measuredClip({ bot, lookDirectory: directory }, look.manifest.look, directory);
    expectVisemes('drawn', measures, phonemes);
  }, 120_000);
});
