/**
 * The video bot's blend, pinned: a real look's geometry (test/fixtures/render/mouth-blend-geometry.json: loop frames'
 * landmarks, the reference face, atlas samples) with pixels drawn here, blended, and the frames' hashes compared
 * with test/fixtures/render/mouth-blend-hashes.json. The footage's preparation is too slow for the engine's frame
 * hashes (frame-hashes.test.ts), so the blend is pinned on its own: a refactor keeps these; a change to the mask, the
 * colour match or the sampling shows here and bumps RENDERER_VERSION, the values recorded again with
 * `FRAME_HASHES=record npx vitest run test/unit/render/footage/mouth-blend-pinned.test.ts`.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AtlasSheet, blendMouth } from '#functions/render/engine/footage/mouth-blend.ts';
import { RENDERER_VERSION } from '#functions/render/engine/types.ts';
import { blendGeometry, points } from '../../../support/mouth-blend-geometry.ts';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/render');
const HASHES = join(FIXTURES, 'mouth-blend-hashes.json');
const RECORD = process.env.FRAME_HASHES === 'record';

const geometry = blendGeometry;
const { frameWidth: width, frameHeight: height } = geometry;

/** A skin-like frame: a warm gradient lit from the left, with a fine texture, RGBA. */
function drawnFrame(): Buffer {
  const frame = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      const light = 40 * (1 - x / width) + 6 * Math.sin(x / 3.1) * Math.cos(y / 2.7);
      frame[p] = Math.round(170 + light);
      frame[p + 1] = Math.round(120 + light * 0.8 + y / 20);
      frame[p + 2] = Math.round(105 + light * 0.7);
      frame[p + 3] = 255;
    }
  return frame;
}

/** The atlas's sheet: darker and lit from the right, with dark lips across each tile's middle, RGB. */
function drawnSheet(): AtlasSheet {
  const { width: w, height: h } = geometry.sheet;
  const rgb = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const p = (y * w + x) * 3;
      const lips = Math.abs((y % 138) - 60) < 8 ? -60 : 0;
      const light = 30 * ((x % 198) / 198) + 5 * Math.sin(x / 2.3 + y / 4.1);
      rgb[p] = Math.max(0, Math.round(150 + light + lips));
      rgb[p + 1] = Math.max(0, Math.round(110 + light + lips * 1.2));
      rgb[p + 2] = Math.max(0, Math.round(100 + light + lips));
    }
  return { rgb, width: w, height: h };
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 24);
const sheet = drawnSheet();
const untouched = drawnFrame();

/** Each loop frame with each sample, and the first with a change of mouth halfway to the next sample. */
const cases = [
  ...geometry.frames.flatMap((_, f) => geometry.samples.map((_, s) => ({ name: `frame ${f}, ${geometry.samples[s]!.frame}`, f, s }))),
  { name: 'frame 0, m0 toward w1 by 0.4', f: 0, s: 0, toward: { s: 1, amount: 0.4 } },
];

function blended(c: (typeof cases)[number]): Buffer {
  const frame = Buffer.from(untouched);
  blendMouth({
    frame,
    width,
    height,
    landmarks: points(geometry.frames[c.f]!),
    reference: points(geometry.reference),
    eyePx: geometry.eyePx,
    sheet,
    sample: geometry.samples[c.s]!,
    toward: 'toward' in c && c.toward ? { sample: geometry.samples[c.toward.s]!, amount: c.toward.amount } : undefined,
  });
  return frame;
}

describe("the video bot's blend, pinned on a real look's geometry", () => {
  const results = Object.fromEntries(cases.map((c) => [c.name, blended(c)]));

  it('lays the sample on the lower face alone: the eyes, the forehead and the frame beyond the jaw as they were', () => {
    for (const [name, frame] of Object.entries(results)) {
      const landmarks = points(geometry.frames[cases.find((c) => c.name === name)!.f]!);
      const changedRows = new Set<number>();
      for (let p = 0; p < frame.length; p += 4)
        if (frame[p] !== untouched[p] || frame[p + 1] !== untouched[p + 1] || frame[p + 2] !== untouched[p + 2])
          changedRows.add(Math.floor(p / 4 / width));
      expect(changedRows.size, name).toBeGreaterThan(20);
      // Nothing above the nose's bridge (landmark 27, between the eyes) changes, nor the alpha anywhere.
      expect(Math.min(...changedRows), name).toBeGreaterThan(landmarks[27]!.y);
      for (let p = 3; p < frame.length; p += 4) if (frame[p] !== 255) throw new Error(`${name}: alpha changed`);
    }
  });

  it('gives the same frames, byte for byte, as recorded for this renderer version', () => {
    const hashes = Object.fromEntries(Object.entries(results).map(([name, frame]) => [name, sha(frame)]));
    if (RECORD) {
      writeFileSync(HASHES, `${JSON.stringify({ renderer: RENDERER_VERSION, hashes }, null, 2)}\n`);
      return;
    }
    const pinned = JSON.parse(readFileSync(HASHES, 'utf8')) as { renderer: string; hashes: Record<string, string> };
    expect(pinned.renderer, 'RENDERER_VERSION moved: record the blend hashes again').toBe(RENDERER_VERSION);
    expect(hashes).toEqual(pinned.hashes);
  });
});
