/**
 * A photo bot's mouth shapes (round r1/r2, wide w1/w2, lower lip to the teeth fv), made by the mesh warp of the real
 * face: measured on the warp's own points (how wide the mouth is, nothing folds, the rest of the face stays) and on
 * the pixels of the prepared head frames (how far the lips and the opening reach across, a closed m0, teeth in fv).
 * Also the card's extension of a photo too small to fill it: no mirrored copy of the photo's edge.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MOUTH_SHAPES, mouthFramesOf, SHAPE_FRAMES } from '#domain/look';
import { findFaces } from '#functions/prepare/faces.ts';
import type { PreparedLook } from '#functions/prepare/look.ts';
import { anchorPoints } from '#functions/prepare/mesh-warp.ts';
import { foldedTriangles, SHAPE_POSES, shapeWarp } from '#functions/prepare/mouth-shapes.ts';
import { buildPhotoLook, extendSoftly, loadPhotoModels } from '#functions/prepare/photo-look.ts';

const PORTRAIT = readFileSync(join(import.meta.dirname, '../../fixtures/prepare', 'portrait.jpg'));
const SHAPE_KEYS = MOUTH_SHAPES.flatMap((shape) => SHAPE_FRAMES[shape]);

let look: PreparedLook;
let body: Buffer;

beforeAll(async () => {
  await loadPhotoModels();
  look = await buildPhotoLook(PORTRAIT);
  body = await sharp(look.files.get(look.manifest.body)!).raw().toBuffer();
}, 120_000);

const luminance = (c: readonly number[]) => 0.299 * c[0]! + 0.587 * c[1]! + 0.114 * c[2]!;

/** The canvas pixel (x, y) of the head frame `key` over the body: [r, g, b, body alpha]. */
async function composer(key: string) {
  const m = look.manifest;
  const head = await sharp(look.files.get(m.head.frames[key]!)!).raw().toBuffer();
  return (x: number, y: number): number[] => {
    const b = (y * m.width + x) * 4;
    const inside = x >= m.head.x && x < m.head.x + m.head.width && y >= m.head.y && y < m.head.y + m.head.height;
    const h = ((y - m.head.y) * m.head.width + x - m.head.x) * 4;
    const a = inside ? head[h + 3]! / 255 : 0;
    return [0, 1, 2].map((n) => body[b + n]! * (1 - a) + (inside ? head[h + n]! : 0) * a).concat(body[b + 3]!);
  };
}

/**
 * How far the mouth reaches across, on pixels: in a box about the mouth (on the face only), the pixels redder than the
 * skin of their own column (sampled above the upper lip and below the lower one: the light differs across the face)
 * by more than `threshold`, or dark (the opening); the horizontal extent of the largest connected region of them.
 * Averaged over a few thresholds, so that no one threshold decides.
 */
async function mouthExtent(key: string): Promise<number> {
  const px = await composer(key);
  const { x: cx, y: cy } = look.manifest.mouth;
  const R = 50,
    top = -14,
    bottom = 26;
  const w = 2 * R + 1,
    h = bottom - top + 1;
  const spans: number[] = [];
  for (const threshold of [14, 16, 18, 20, 22]) {
    const mask = new Uint8Array(w * h);
    for (let x = -R; x <= R; x++) {
      const skin: number[][] = [];
      for (let y = -26; y <= -20; y++) skin.push(px(cx + x, cy + y));
      for (let y = 32; y <= 38; y++) skin.push(px(cx + x, cy + y));
      const skinRed = skin.reduce((s, c) => s + c[0]! - c[1]!, 0) / skin.length;
      for (let y = top; y <= bottom; y++) {
        const c = px(cx + x, cy + y);
        if (c[3]! < 230) continue;
        if (c[0]! - c[1]! > skinRed + threshold || luminance(c) < 50) mask[(y - top) * w + x + R] = 1;
      }
    }
    const seen = new Uint8Array(w * h);
    let largest = 0,
      span = 0;
    for (let i = 0; i < w * h; i++) {
      if (!mask[i] || seen[i]) continue;
      const stack = [i];
      seen[i] = 1;
      let size = 0,
        x0 = w,
        x1 = -1;
      while (stack.length) {
        const j = stack.pop()!;
        size++;
        const x = j % w,
          y = (j - x) / w;
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        for (const k of [x > 0 ? j - 1 : -1, x < w - 1 ? j + 1 : -1, y > 0 ? j - w : -1, y < h - 1 ? j + w : -1]) {
          if (k >= 0 && mask[k] && !seen[k]) {
            seen[k] = 1;
            stack.push(k);
          }
        }
      }
      if (size > largest) {
        largest = size;
        span = x1 - x0 + 1;
      }
    }
    spans.push(span);
  }
  return spans.reduce((s, v) => s + v, 0) / spans.length;
}

/** Pixels in the mouth's box (on the face) that are dark (the opening), and light and nearly grey (teeth: the skin and lips are coloured). */
async function mouthPixels(key: string): Promise<{ dark: number; teeth: number }> {
  const px = await composer(key);
  const { x: cx, y: cy } = look.manifest.mouth;
  let dark = 0,
    teeth = 0;
  for (let y = cy - 12; y <= cy + 20; y++) {
    for (let x = cx - 40; x <= cx + 40; x++) {
      const c = px(x, y);
      if (c[3]! < 230) continue;
      const chroma = Math.max(c[0]!, c[1]!, c[2]!) - Math.min(c[0]!, c[1]!, c[2]!);
      if (luminance(c) < 50) dark++;
      if (luminance(c) > 130 && chroma < 30) teeth++;
    }
  }
  return { dark, teeth };
}

describe('a photo bot’s mouth shapes: the warp', () => {
  it('draws the corners in for round (r1, r2 < 0.85 of the rest width), out for wide (w1, w2 > 1.05), folds no triangle, keeps brows, nose, eyes and anchors still', async () => {
    const { data, info } = await sharp(PORTRAIT).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const [face] = await findFaces(data, info.width, info.height);
    const landmarks = face!.landmarks;
    const geometry = { landmarks, faceWidth: Math.hypot(landmarks[16]!.x - landmarks[0]!.x, landmarks[16]!.y - landmarks[0]!.y) };
    const anchors = anchorPoints(geometry, { x: 0, y: 0, width: info.width - 1, height: info.height - 1 });
    const width = (p: { x: number; y: number }[]) => Math.hypot(p[54]!.x - p[48]!.x, p[54]!.y - p[48]!.y);
    const ratios: Record<string, number> = {};
    const openings: Record<string, { width: number; height: number }> = {};
    for (const key of SHAPE_KEYS) {
      for (const eyesClosed of [false, true]) {
        const { from, to, triangles, opening } = shapeWarp(geometry, SHAPE_POSES[key]!, eyesClosed, anchors);
        expect(foldedTriangles(triangles, from, to), `${key} eyes ${eyesClosed ? 'closed' : 'open'}`).toBe(0);
        if (eyesClosed) continue;
        ratios[key] = width(to) / width(from);
        // Along the line of the resting corners and across it (the face is tilted).
        const ex = (from[54]!.x - from[48]!.x) / width(from),
          ey = (from[54]!.y - from[48]!.y) / width(from);
        const us = opening.map((p) => p.x * ex + p.y * ey),
          vs = opening.map((p) => -p.x * ey + p.y * ex);
        openings[key] = { width: Math.max(...us) - Math.min(...us), height: Math.max(...vs) - Math.min(...vs) };
        // Brows, nose and eyes (17-47) and every anchor stay where they are.
        for (let i = 17; i < 48; i++) expect(to[i]).toEqual(from[i]);
        for (let i = 68; i < 68 + anchors.length; i++) expect(to[i]).toEqual(from[i]);
      }
    }
    console.log(`mouth width (warped landmarks 48-54) / rest: ${SHAPE_KEYS.map((k) => `${k} ${ratios[k]!.toFixed(2)}`).join(', ')}`);
    expect(ratios.r1!).toBeLessThan(0.85);
    expect(ratios.r2!).toBeLessThan(0.85);
    expect(ratios.w1!).toBeGreaterThan(1.05);
    expect(ratios.w2!).toBeGreaterThan(1.05);
    expect(Math.abs(ratios.fv! - 1)).toBeLessThan(0.1);
    // r1 a small rounded opening, r2 a larger one; w1 a thin slit, w2 more open.
    expect(openings.r2!.height).toBeGreaterThan(openings.r1!.height * 2);
    expect(openings.r1!.height / openings.r1!.width).toBeGreaterThan(0.3);
    expect(openings.w1!.height / openings.w1!.width).toBeLessThan(0.15);
    expect(openings.w2!.height).toBeGreaterThan(openings.w1!.height * 2);
  });
});

describe('a photo bot’s mouth shapes: the prepared look', () => {
  it('has the shapes in its manifest and a head frame for each, eyes open and closed', () => {
    const m = look.manifest;
    expect(m.mouthShapes).toEqual(['round', 'wide', 'fv']);
    expect(Object.keys(m.head.frames).sort()).toEqual(
      mouthFramesOf(m)
        .flatMap((f) => [`${f}-ec`, `${f}-eo`])
        .sort(),
    );
    for (const key of SHAPE_KEYS) expect(look.files.has(m.head.frames[`${key}-eo`]!)).toBe(true);
  });

  it('on pixels: round lips reach less far across than the resting mouth (< 0.85), wide ones further (> 1.05)', async () => {
    const extent: Record<string, number> = {};
    for (const key of ['m0', ...SHAPE_KEYS]) extent[key] = await mouthExtent(`${key}-eo`);
    console.log(
      `mouth extent on pixels (canvas px): ${Object.entries(extent)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(', ')}`,
    );
    expect(extent.r1!).toBeLessThan(0.85 * extent.m0!);
    expect(extent.r2!).toBeLessThan(0.85 * extent.m0!);
    expect(extent.w1!).toBeGreaterThan(1.05 * extent.m0!);
    expect(extent.w2!).toBeGreaterThan(1.05 * extent.m0!);
    // The shapes hold with the eyes closed too.
    expect(await mouthExtent('r1-ec')).toBeLessThan(0.85 * extent.m0!);
    expect(await mouthExtent('w1-ec')).toBeGreaterThan(1.05 * extent.m0!);
  });

  it('m0 is closed (no dark inside), the open shapes are dark inside, fv shows the upper teeth over the lower lip', async () => {
    const seen: Record<string, { dark: number; teeth: number }> = {};
    for (const key of ['m0', 'm2', ...SHAPE_KEYS]) seen[key] = await mouthPixels(`${key}-eo`);
    console.log(
      `mouth box pixels (dark / teeth-like): ${Object.entries(seen)
        .map(([k, v]) => `${k} ${v.dark}/${v.teeth}`)
        .join(', ')}`,
    );
    expect(seen.m0!.dark).toBeLessThan(10);
    for (const key of ['r2', 'w2', 'm2']) expect(seen[key]!.dark).toBeGreaterThan(100);
    expect(seen.r1!.dark).toBeGreaterThan(10);
    expect(seen.fv!.teeth).toBeGreaterThan(40);
    // The rounded lips close over the teeth the photo shows (a smile): fv's teeth are the painted ones.
    expect(seen.fv!.teeth).toBeGreaterThan(3 * seen.r1!.teeth);
    expect(seen.w1!.teeth).toBeGreaterThan(3 * seen.r1!.teeth);
  });

  it('moves nothing from the eyes up: every shape frame (eyes open) is the body, pixel for pixel, above the lower eyelids', async () => {
    const m = look.manifest;
    // The eyes where a detector finds them on the prepared card (body over panel), in canvas px.
    const card = await sharp(look.files.get(m.panel.file)!)
      .composite([{ input: look.files.get(m.body)! }])
      .removeAlpha()
      .raw()
      .toBuffer();
    const [face] = await findFaces(card, m.width, m.height);
    const belowEyes = Math.ceil(Math.max(...face!.landmarks.slice(36, 48).map((p) => p.y)));
    const changedRows: Record<string, number> = {};
    for (const key of ['m4', ...SHAPE_KEYS]) {
      const px = await composer(`${key}-eo`);
      let changed = 0,
        highest = m.head.y + m.head.height;
      for (let y = m.head.y; y < m.head.y + m.head.height; y++) {
        for (let x = m.head.x; x < m.head.x + m.head.width; x++) {
          const c = px(x, y);
          const b = (y * m.width + x) * 4;
          if (Math.abs(c[0]! - body[b]!) + Math.abs(c[1]! - body[b + 1]!) + Math.abs(c[2]! - body[b + 2]!) > 6) {
            if (y < belowEyes) changed++;
            highest = Math.min(highest, y);
          }
        }
      }
      changedRows[key] = highest;
      expect(changed, key).toBe(0);
    }
    console.log(
      `lower eyelids at y = ${belowEyes}; highest changed row: ${Object.entries(changedRows)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  });
});

/** Strongest mirror symmetry (Pearson r of the vertical gradient) across a column near the card's left or right edge. */
function mirrorAcrossColumns(rgba: Buffer, width: number, columns: number[], rows: [number, number]): { r: number; at: number } {
  const lum = (x: number, y: number) => {
    const o = (y * width + x) * 4;
    return 0.299 * rgba[o]! + 0.587 * rgba[o + 1]! + 0.114 * rgba[o + 2]!;
  };
  let best = { r: -1, at: 0 };
  for (const x0 of columns) {
    const a: number[] = [],
      b: number[] = [];
    for (let y = rows[0]; y < rows[1]; y++) {
      for (let k = 3; k < 12; k++) {
        a.push(lum(x0 - 1 - k, y + 1) - lum(x0 - 1 - k, y));
        b.push(lum(x0 + k, y + 1) - lum(x0 + k, y));
      }
    }
    const r = pearson(a, b);
    if (r > best.r) best = { r, at: x0 };
  }
  return best;
}

function pearson(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n,
    mb = b.reduce((s, v) => s + v, 0) / n;
  let ab = 0,
    aa = 0,
    bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return aa && bb ? ab / Math.sqrt(aa * bb) : 0;
}

describe('the card of a photo that does not fill it', () => {
  it('extends the photo softly: its pixels kept, nothing outside mirrors the edge (a textured picture)', () => {
    // A 60x80 picture of noise placed at (30, 10) on 100x100.
    const cw = 60,
      ch = 80;
    const rgb = Buffer.alloc(cw * ch * 3);
    let seed = 7;
    for (let i = 0; i < rgb.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      rgb[i] = seed % 256;
    }
    const out = extendSoftly(rgb, { width: 100, height: 100, padL: 30, padT: 10, cw, ch });
    for (let y = 0; y < ch; y++)
      expect(out.subarray(((y + 10) * 100 + 30) * 3, ((y + 10) * 100 + 30 + cw) * 3)).toEqual(rgb.subarray(y * cw * 3, (y + 1) * cw * 3));
    const rgba = Buffer.alloc(100 * 100 * 4);
    for (let i = 0; i < 100 * 100; i++) out.copy(rgba, i * 4, i * 3, i * 3 + 3);
    const { r } = mirrorAcrossColumns(rgba, 100, [30], [12, 88]);
    expect(r).toBeLessThan(0.3);
  });

  it('shows no mirrored strip on the portrait’s card (left and right edges of the card)', async () => {
    const m = look.manifest;
    const card = await sharp(look.files.get(m.panel.file)!)
      .composite([{ input: look.files.get(m.body)! }])
      .raw()
      .toBuffer();
    const near = [
      ...Array.from({ length: 70 }, (_, i) => m.panel.x + 10 + i),
      ...Array.from({ length: 70 }, (_, i) => m.panel.x + m.panel.width - 80 + i),
    ];
    const mirror = mirrorAcrossColumns(card, m.width, near, [m.panel.y + 40, m.panel.y + m.panel.height - 40]);
    console.log(`strongest mirror symmetry near the card's edges: r = ${mirror.r.toFixed(2)} at x = ${mirror.at}`);
    expect(mirror.r).toBeLessThan(0.85);
  });
});
