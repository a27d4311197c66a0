/**
 * The built-in looks' mouth shapes, measured on the committed PNGs (functions/render/bots/<look>, made by
 * `npm run bots:build`): every look has the head frames of every shape, and each shape is what it stands for.
 * In a box around the manifest's mouth, a pixel is lip (the look's lip colour and hue), inside (the dark of an open
 * mouth) or teeth (near-white). "oo" (r1) is at least 20% narrower than the resting mouth (m0) and than "ee" (w1);
 * closed lips (m0) show no inside and no teeth; f/v shows the upper teeth and next to no inside.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { type BotManifest, MOUTH_SHAPES, mouthFramesOf } from '#domain/look';
import { LOOKS } from '../../../infra/bot-art/looks.ts';
import { MOUTH_INTERIOR } from '../../../infra/bot-art/mouths.ts';
import { colourDistance } from '../../support/render-media.ts';

const BOTS = join(import.meta.dirname, '../../../functions/render/bots');
const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

/** Hue in degrees (0..360). */
function hue([r, g, b]: readonly number[]): number {
  const [max, min] = [Math.max(r!, g!, b!), Math.min(r!, g!, b!)];
  if (max === min) return 0;
  const h = max === r ? ((g! - b!) / (max - min)) % 6 : max === g ? (b! - r!) / (max - min) + 2 : (r! - g!) / (max - min) + 4;
  return (h * 60 + 360) % 360;
}
const hueApart = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

/**
 * A pixel of the look's lips: near its lip colour and of its hue (red). Skin, its shade and leo's stubble are
 * orange-brown (hue 20-30 degrees), some as near the lip colour in RGB (maya's shade, 30 apart), never in hue.
 */
const isLip = (px: readonly number[], lip: readonly number[]) => colourDistance(px, lip) < 40 && hueApart(hue(px), hue(lip)) < 10;

interface MouthMeasure {
  /** Columns (canvas units) from the first to the last that hold lip or inside. */
  width: number;
  /** Rows (canvas units) from the first to the last that hold lip or inside. */
  height: number;
  /** Pixels of the open mouth's dark inside, of near-white teeth. */
  inside: number;
  teeth: number;
  /** The box's RGBA, to compare frames. */
  pixels: Buffer;
}

async function measure(dir: string, m: BotManifest, key: string, lip: number[]): Promise<MouthMeasure> {
  const d = m.density ?? 1;
  // 50 canvas units either side of the mouth's centre, from under the nose (y - 12) to the chin (y + 32).
  const box = { left: (m.mouth.x - 50 - m.head.x) * d, top: (m.mouth.y - 12 - m.head.y) * d, width: 100 * d, height: 44 * d };
  const pixels = await sharp(join(dir, m.head.frames[key]!)).ensureAlpha().extract(box).raw().toBuffer();
  const dark = rgb(MOUTH_INTERIOR);
  const columns = new Array<number>(box.width).fill(0);
  const rows = new Array<number>(box.height).fill(0);
  let inside = 0;
  let teeth = 0;
  for (let y = 0; y < box.height; y++)
    for (let x = 0; x < box.width; x++) {
      const o = (y * box.width + x) * 4;
      if (pixels[o + 3]! < 200) continue;
      const px = [pixels[o]!, pixels[o + 1]!, pixels[o + 2]!];
      const isInside = colourDistance(px, dark) < 36;
      if (isInside) inside++;
      if (px.every((v) => v >= 220)) teeth++;
      if (isInside || isLip(px, lip)) {
        columns[x]!++;
        rows[y]!++;
      }
    }
  const extent = (counts: number[]) => {
    const first = counts.findIndex((n) => n >= 2);
    const last = counts.findLastIndex((n) => n >= 2);
    return first < 0 ? 0 : (last - first + 1) / d;
  };
  return { width: extent(columns), height: extent(rows), inside, teeth, pixels };
}

describe.each(['ava', 'leo', 'maya', 'otto'])('built-in look %s: mouth shapes', (look) => {
  const dir = join(BOTS, look);
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BotManifest;
  const lip = rgb(LOOKS[look]!.lip);
  const shapes = async () => {
    const out: Record<string, MouthMeasure> = {};
    for (const frame of mouthFramesOf(m)) out[frame] = await measure(dir, m, `${frame}-eo`, lip);
    return out;
  };

  it('has every shape, each with its head frames (eyes open and closed) of the same size', async () => {
    expect(m.mouthShapes).toEqual([...MOUTH_SHAPES]);
    const frames = mouthFramesOf(m);
    expect(frames).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'r1', 'r2', 'w1', 'w2', 'fv']);
    expect(Object.keys(m.head.frames).sort()).toEqual(frames.flatMap((f) => [`${f}-ec`, `${f}-eo`]).sort());
    const d = m.density ?? 1;
    for (const file of Object.values(m.head.frames)) {
      const meta = await sharp(join(dir, file)).metadata();
      expect([meta.width, meta.height, meta.hasAlpha]).toEqual([m.head.width * d, m.head.height * d, true]);
    }
    // Closing the eyes leaves the mouth as it is.
    for (const frame of frames) {
      const [open, closed] = await Promise.all(['eo', 'ec'].map((eyes) => measure(dir, m, `${frame}-${eyes}`, lip)));
      expect(closed!.pixels.equals(open!.pixels), frame).toBe(true);
    }
  });

  it('forms the sounds: oo narrow, ee wide, closed lips shut, f/v teeth on the lip', async () => {
    const s = await shapes();
    console.log(
      `${look}: mouth width (canvas units) ${Object.entries(s)
        .map(([f, v]) => `${f} ${v.width}`)
        .join(', ')}; inside px m0 ${s.m0!.inside}, r1 ${s.r1!.inside}, m2 ${s.m2!.inside}, fv ${s.fv!.inside}; teeth px fv ${s.fv!.teeth}`,
    );
    // Rounded "oo": at least 20% narrower than the resting mouth and than "ee"; a small opening, not closed.
    expect(s.r1!.width).toBeLessThanOrEqual(0.8 * s.m0!.width);
    expect(s.r1!.width).toBeLessThanOrEqual(0.8 * s.w1!.width);
    expect(s.r1!.inside).toBeGreaterThan(0);
    // Rounded "o": still narrower than the resting mouth, taller and more open than "oo".
    expect(s.r2!.width).toBeLessThanOrEqual(0.8 * s.m0!.width);
    expect(s.r2!.height).toBeGreaterThan(s.r1!.height * 1.4);
    expect(s.r2!.inside).toBeGreaterThan(s.r1!.inside * 3);
    // Wide "ee": corners pulled out past the resting mouth, a thin opening with the upper teeth; "eh" spread and open.
    expect(s.w1!.width).toBeGreaterThan(s.m0!.width);
    expect(s.w1!.teeth).toBeGreaterThan(200);
    expect(s.w1!.height).toBeLessThan(s.m2!.height + 2);
    expect(s.w2!.width).toBeGreaterThan(s.m0!.width);
    expect(s.w2!.inside).toBeGreaterThan(s.w1!.inside * 2);
    // Closed lips (m, b, p): nothing of the inside, no teeth.
    expect(s.m0!.inside).toBe(0);
    expect(s.m0!.teeth).toBe(0);
    // f, v: the upper teeth show, resting on the lower lip: next to no dark inside.
    expect(s.fv!.teeth).toBeGreaterThan(200);
    expect(s.fv!.inside).toBeLessThanOrEqual(0.05 * s.m2!.inside);
  });
});
