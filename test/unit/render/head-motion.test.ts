/**
 * The head's motion: what a person would call a glitch is a failing test here — a frozen presenter, motion that
 * ignores the speech, snapping, a head that slides on its body, a rubbery neck. (The photo look's matte edge and
 * holes: test/integration/render/head-motion-photo.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { FaceGeometry } from '#domain/look';
import { type FramePose, MAX_TILT, poses } from '#functions/render/engine/animation.ts';
import { faceOf, reachOf, sourcePoints, warpInto, warpRegion } from '#functions/render/engine/head-motion.ts';
import { rigFor } from '#functions/render/engine/rigs/rig.ts';
import { changedPixels } from '#functions/render/engine/rigs/sprite-rig.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import type { TimedPhoneme } from '#functions/render/engine/types.ts';

const FPS = 30;

/** A speech of two phrases with a 1.6-s pause: "we SEE them | and THEN we GO home", stressed vowels marked. */
function speech(stressed: number[]): TimedPhoneme[] {
  const out: TimedPhoneme[] = [];
  let t = 0.3;
  for (let i = 0; i < 24; i++) {
    if (i === 10) t += 1.6; // the pause
    out.push({ ipa: i % 2 ? 'ə' : 't', startSeconds: t, endSeconds: t + 0.1, stress: stressed.includes(i) ? 1 : 0 });
    t += 0.1;
  }
  return out;
}
const STRESSED = [1, 5, 9, 11, 15, 19, 23];
const seconds = 5.5;
const closed = Array.from({ length: Math.round(seconds * FPS) }, () => ({ frame: 'm0' }));
const run = (phonemes: TimedPhoneme[], seed = 7, scale = 1) => poses(closed, FPS, scale, seed, { phonemes, loudness: [], startFrame: 0 });
const head = (p: FramePose) => `${p.tilt},${p.nod},${p.brow},${p.headX},${p.headY}`;

describe('head motion from the speech', () => {
  const framePoses = run(speech(STRESSED));
  // Phrase 1: 0.3-1.3 s; pause 1.3-2.9 s; phrase 2: 2.9-4.3 s.
  const during = (a: number, b: number) => framePoses.slice(Math.round(a * FPS), Math.round(b * FPS));

  it('moves while speaking: the tilt and the nod take several values in each phrase', () => {
    for (const [a, b] of [
      [0.3, 1.3],
      [2.9, 4.3],
    ] as const) {
      const part = during(a, b);
      expect(new Set(part.map((p) => p.tilt)).size).toBeGreaterThanOrEqual(3);
      expect(Math.max(...part.map((p) => p.nod!))).toBeGreaterThanOrEqual(2);
    }
    expect(Math.max(...framePoses.map((p) => Math.abs(p.tilt!)))).toBeGreaterThanOrEqual(0.75);
    expect(Math.max(...framePoses.map((p) => Math.abs(p.tilt!)))).toBeLessThanOrEqual(MAX_TILT);
  });

  it('is still in a pause: from 0.9 s after the phrase ends until the breath before the next, the head does not move', () => {
    const pause = during(1.3 + 0.9, 2.9 - 0.5);
    expect(pause.length).toBeGreaterThan(5);
    expect(new Set(pause.map(head)).size).toBe(1);
    // And after the last phrase, to the end.
    expect(new Set(during(4.3 + 0.9, seconds).map(head)).size).toBe(1);
  });

  it('never snaps: the tilt changes by at most one step (0.25°) and the nod by at most 1 px a frame', () => {
    for (let i = 1; i < framePoses.length; i++) {
      expect(Math.abs(framePoses[i]!.tilt! - framePoses[i - 1]!.tilt!)).toBeLessThanOrEqual(0.25);
      expect(Math.abs(framePoses[i]!.nod! - framePoses[i - 1]!.nod!)).toBeLessThanOrEqual(1);
    }
  });

  it('nods on the stressed syllables: the nod follows the stress marks, and moves when they move', () => {
    /** Pearson correlation of the nod with bumps 0.1-0.3 s after each stressed vowel's start. */
    const correlation = (poseList: FramePose[], phonemes: TimedPhoneme[]) => {
      const train = poseList.map((_, i) =>
        phonemes.some((p) => p.stress === 1 && i / FPS >= p.startSeconds + 0.0 && i / FPS <= p.startSeconds + 0.25) ? 1 : 0,
      );
      const nod = poseList.map((p) => p.nod!);
      const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
      const [mt, mn] = [mean(train), mean(nod)];
      let sxy = 0,
        sxx = 0,
        syy = 0;
      for (let i = 0; i < nod.length; i++) {
        sxy += (train[i]! - mt) * (nod[i]! - mn);
        sxx += (train[i]! - mt) ** 2;
        syy += (nod[i]! - mn) ** 2;
      }
      return sxy / Math.sqrt(sxx * syy);
    };
    const own = speech(STRESSED);
    const other = speech([3, 7, 13, 17, 21]);
    const otherPoses = run(other);
    expect(correlation(framePoses, own)).toBeGreaterThan(0.5);
    expect(correlation(otherPoses, other)).toBeGreaterThan(0.5);
    // Against the other speech's stress marks, each nods much less in step.
    expect(correlation(framePoses, other)).toBeLessThan(correlation(framePoses, own) - 0.3);
    expect(correlation(otherPoses, own)).toBeLessThan(correlation(otherPoses, other) - 0.3);
  });

  it('lifts the brows on some stressed words, briefly, and breathes in before a phrase', () => {
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => run(speech(STRESSED), seed));
    expect(seeds.some((list) => list.some((p) => p.brow! > 0))).toBe(true);
    for (const list of seeds) expect(list.filter((p) => p.brow! > 0).length).toBeLessThan(list.length / 3);
    // The shoulders are highest (body offset 0) just before the first phrase, lower (offset > 0) long after it.
    expect(framePoses[Math.round(0.28 * FPS)]!.bodyY).toBe(0);
    expect(framePoses[Math.round(2.4 * FPS)]!.bodyY).toBeGreaterThan(0);
  });

  it('is deterministic: the same speech and seed give the same poses, another seed others', () => {
    expect(JSON.stringify(run(speech(STRESSED)))).toBe(JSON.stringify(framePoses));
    expect(JSON.stringify(run(speech(STRESSED), 8))).not.toBe(JSON.stringify(framePoses));
  });

  it('without phonemes (Polly), follows the loudness: moves on its peaks, still in its silences', () => {
    // Syllables: 5 per second for 1 s, 1.6 s of silence, again.
    const loudness = Array.from({ length: Math.round(4 * FPS) }, (_, i) => {
      const t = i / FPS;
      const speaking = (t > 0.3 && t < 1.3) || (t > 2.9 && t < 3.9);
      return speaking ? 0.2 + 0.8 * Math.sin(Math.PI * ((t * 5) % 1)) ** 2 : 0;
    });
    const list = poses(closed, FPS, 1, 3, { loudness, startFrame: 0 });
    expect(new Set(list.slice(9, 39).map((p) => p.tilt)).size).toBeGreaterThanOrEqual(3);
    expect(Math.max(...list.slice(9, 45).map((p) => p.nod!))).toBeGreaterThanOrEqual(2);
    expect(new Set(list.slice(Math.round(2.2 * FPS), Math.round(2.4 * FPS)).map(head)).size).toBe(1);
  });
});

/** The warp's source map on a grid, and the determinant of its Jacobian (forward local area change) everywhere the weight or the brows act. */
function determinants(face: FaceGeometry, pose: { tilt: number; nod: number; brow: number }, rigid = false) {
  const box = { x: 0, y: 0, width: 520, height: Math.ceil(face.pivot.y) + 4 };
  const region = warpRegion(face, 1, box, rigid, true);
  const sx = new Float64Array(box.width * box.height);
  const sy = new Float64Array(box.width * box.height);
  sourcePoints(region, face, 1, pose, rigid, (i, x, y) => {
    sx[i] = x;
    sy[i] = y;
  });
  let min = Infinity,
    max = -Infinity;
  for (let y = 1; y < box.height - 1; y++) {
    for (let x = 1; x < box.width - 1; x++) {
      const i = y * box.width + x;
      const a = (sx[i + 1]! - sx[i - 1]!) / 2,
        b = (sx[i + box.width]! - sx[i - box.width]!) / 2,
        c = (sy[i + 1]! - sy[i - 1]!) / 2,
        d = (sy[i + box.width]! - sy[i - box.width]!) / 2;
      const det = 1 / (a * d - b * c); // of the forward map: the inverse's reciprocal
      min = Math.min(min, det);
      max = Math.max(max, det);
    }
  }
  return { min, max };
}

describe('the warp of a look cut from one picture', () => {
  // A photo look's face (functions/prepare/photo-look.ts, the test portrait) and a drawn look's estimated one.
  const photoFace: FaceGeometry = {
    pivot: { x: 242, y: 395 },
    eyes: [
      { x: 224, y: 218 },
      { x: 296, y: 233 },
    ],
    brows: [
      { x: 220, y: 190 },
      { x: 307, y: 209 },
    ],
  };
  const estimated = faceOf(loadSprites('ava', 300).manifest && { ...loadSprites('ava', 300).manifest, face: undefined });

  it.each([
    ['photo', photoFace],
    ['estimated', estimated],
  ] as const)('never stretches the neck like rubber (%s face): the local area changes by under 10 %% at the largest tilt and nod', (_, face) => {
    for (const tilt of [MAX_TILT, -MAX_TILT]) {
      const { min, max } = determinants(face, { tilt, nod: 4, brow: 0 });
      expect(min).toBeGreaterThan(0.9);
      expect(max).toBeLessThan(1.1);
    }
  });

  it('lifts the brows without folding the skin: area changes by under 30 % (skin between brow and eye stretches)', () => {
    const { min, max } = determinants(photoFace, { tilt: 0, nod: 0, brow: 4 });
    expect(min).toBeGreaterThan(0.7);
    expect(max).toBeLessThan(1.3);
    expect(max - min).toBeGreaterThan(0.05); // it does lift
  });
});

/** Where a patch of `a` (at x0,y0, size n) is found in `b` within ±r px: the shift with the least squared difference. */
function match(a: Buffer, b: Buffer, width: number, x0: number, y0: number, n: number, r: number) {
  let best = { dx: 0, dy: 0, err: Infinity };
  for (let dy = -r; dy <= r; dy++) {
    for (let dx = -r; dx <= r; dx++) {
      let err = 0;
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          const i = ((y0 + y) * width + x0 + x) * 4;
          const j = ((y0 + y + dy) * width + x0 + x + dx) * 4;
          for (let c = 0; c < 3; c++) err += (a[i + c]! - b[j + c]!) ** 2;
        }
      }
      if (err < best.err) best = { dx, dy, err };
    }
  }
  return best;
}

describe('a built-in head on its body', () => {
  const sprites = loadSprites('ava', 600);
  const face = sprites.manifest.face!;
  const s = sprites.scale;
  const still: FramePose = { mouth: { frame: 'm1' }, eyesOpen: true, bodyX: 0, bodyY: 0, headX: 0, headY: 0 };
  const render = (pose: Partial<FramePose>) => Buffer.from(rigFor(sprites, { withPanel: true }).render({ ...still, ...pose }));
  const neutral = render({});

  it.each([
    [2.5, 0],
    [-2.5, 3],
    [1.25, 2],
  ])('does not slide: at tilt %s° and nod %s px the eye moves as the turn about the neck says (±1 px), the shoulders not at all', (tilt, nod) => {
    const moved = render({ tilt, nod });
    const eye = face.eyes[0];
    const n = 24;
    const got = match(neutral, moved, sprites.width, Math.round(eye.x * s - n / 2), Math.round(eye.y * s - n / 2), n, 12);
    const theta = (tilt * Math.PI) / 180;
    const dx = eye.x * s - face.pivot.x * s,
      dy = eye.y * s - face.pivot.y * s;
    const want = { dx: Math.cos(theta) * dx - Math.sin(theta) * dy - dx, dy: Math.sin(theta) * dx + Math.cos(theta) * dy - dy + nod };
    expect(Math.abs(got.dx - want.dx)).toBeLessThanOrEqual(1);
    expect(Math.abs(got.dy - want.dy)).toBeLessThanOrEqual(1);
    // A shoulder (the jacket's lapel pin) stays where it was.
    const shoulder = match(neutral, moved, sprites.width, Math.round((260 - 70) * s - n / 2), Math.round((486 - 20) * s - n / 2), n, 6);
    expect([shoulder.dx, shoulder.dy]).toEqual([0, 0]);
  });

  it('lifts its brows: the brow moves up by the pose’s px, the eye below stays', () => {
    const lifted = render({ brow: 4 });
    const n = 20;
    const brow = face.brows[1];
    const got = match(neutral, lifted, sprites.width, Math.round(brow.x * s - n / 2), Math.round(brow.y * s - n / 2), n, 6);
    expect(got.dy).toBeLessThanOrEqual(-3);
    const eye = face.eyes[1];
    const still2 = match(neutral, lifted, sprites.width, Math.round(eye.x * s - n / 2), Math.round(eye.y * s), n, 4);
    expect([still2.dx, still2.dy]).toEqual([0, 0]);
  });
});

describe('a pose drawn from the warped reference', () => {
  it('has exactly the pixels of the whole head frame warped (only where frames differ is redrawn)', () => {
    const sprites = loadSprites('ava', 420);
    const face = sprites.manifest.face!;
    const [, reference] = sprites.heads.get('m0')!;
    const frames = [...sprites.heads.values()].flat();
    const { width, height } = reference;
    const m = reachOf(face, sprites.scale, { x: sprites.headX, y: sprites.headY, width, height }, 6 * sprites.scale);
    const region = warpRegion(
      face,
      sprites.scale,
      { x: sprites.headX - m, y: sprites.headY - m, width: width + 2 * m, height: height + 2 * m },
      true,
      true,
    );
    const changed = changedPixels(region, reference, frames, sprites.headX, sprites.headY, m);
    const within = { x: 0, y: 0, width, height };
    for (const [key, eyes] of [
      ['m4', 1],
      ['m2', 0],
    ] as const) {
      const frame = sprites.heads.get(key)![eyes];
      for (const pose of [
        { tilt: 2.5, nod: 0, brow: 4 },
        { tilt: -1.75, nod: 0, brow: 0 },
      ]) {
        const whole = Buffer.alloc(region.width * region.height * 4);
        warpInto(whole, frame, sprites.headX, sprites.headY, region, face, sprites.scale, pose, true, within);
        const partial = Buffer.alloc(whole.length);
        warpInto(partial, reference, sprites.headX, sprites.headY, region, face, sprites.scale, pose, true, within);
        const before = Buffer.from(partial);
        warpInto(partial, frame, sprites.headX, sprites.headY, region, face, sprites.scale, pose, true, within, changed);
        expect(partial.equals(whole)).toBe(true);
        expect(partial.equals(before)).toBe(false); // the mouth or the eyes were redrawn
      }
    }
  });
});
