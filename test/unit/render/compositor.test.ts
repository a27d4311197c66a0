/**
 * The compositor's blending: runs of opaque pixels are copied, edges blended pixel by pixel. It must give
 * exactly the pixels of a plain per-pixel straight-alpha "over" (below), with and without a coverage mask,
 * at any offset, clipped at every edge.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TILT } from '#functions/render/engine/animation.ts';
import { rigFor } from '#functions/render/engine/rigs/rig.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import { blendOver, maskOf } from '#media/raster/blend';
import type { Picture } from '#media/raster/picture';

/** The reference: every pixel of src, blended one by one (the compositor's arithmetic, without its shortcuts). */
function referenceOver(dst: Picture, src: Picture, ox: number, oy: number, mask?: Uint8Array): void {
  const d = dst.data;
  const s = src.data;
  for (let y = 0; y < src.height; y++) {
    for (let x = 0; x < src.width; x++) {
      const dx = x + ox;
      const dy = y + oy;
      if (dx < 0 || dy < 0 || dx >= dst.width || dy >= dst.height) continue;
      const si = (y * src.width + x) * 4;
      const di = (dy * dst.width + dx) * 4;
      let sa = s[si + 3]!;
      if (sa === 0) continue;
      if (mask) {
        const m = mask[dy * dst.width + dx]!;
        if (m === 0) continue;
        if (m !== 255) sa = (sa * m + 127) / 255;
      }
      const da = d[di + 3]!;
      if (sa >= 255 || da === 0) {
        for (let c = 0; c < 3; c++) d[di + c] = s[si + c]!;
        d[di + 3] = sa >= 255 ? 255 : Math.round(sa);
        continue;
      }
      const a = sa / 255;
      if (da === 255) {
        for (let c = 0; c < 3; c++) d[di + c] = d[di + c]! + (s[si + c]! - d[di + c]!) * a;
        continue;
      }
      const b = (da / 255) * (1 - a);
      const oa = a + b;
      for (let c = 0; c < 3; c++) d[di + c] = (s[si + c]! * a + d[di + c]! * b) / oa;
      d[di + 3] = oa * 255;
    }
  }
}

/** Small deterministic PRNG. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a * 1664525 + 1013904223) >>> 0;
    return a / 4294967296;
  };
}

/** A sprite like the bots' layers: an opaque blob with soft edges and a transparent surround, some holes. */
function blob(width: number, height: number, rand: () => number): Picture {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const r = Math.hypot((x - width / 2) / (width / 2), (y - height / 2) / (height / 2));
      const alpha = r < 0.7 ? (rand() < 0.03 ? Math.floor(rand() * 256) : 255) : r < 0.95 ? Math.floor(rand() * 256) : 0;
      data.set([Math.floor(rand() * 256), Math.floor(rand() * 256), Math.floor(rand() * 256), alpha], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** A card's mask: full inside a rectangle, soft on its edges, some rows nowhere full. */
function cardMask(width: number, height: number, rand: () => number): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inside = x >= 3 && x < width - 3 && y >= 2 && y < height - 6;
      const edge = x >= 1 && x < width - 1 && y >= 1 && y < height - 1;
      mask[y * width + x] = y >= height - 6 && edge ? Math.floor(rand() * 255) : inside ? 255 : edge ? Math.floor(rand() * 256) : 0;
    }
  }
  return mask;
}

describe('compositor blending', () => {
  it.each([
    [0, 0, false],
    [5, -3, false],
    [-12, 9, true],
    [30, 25, true],
    [-40, -40, true],
  ])('at offset (%i, %i), masked %s, gives the per-pixel blend exactly', (ox, oy, masked) => {
    const rand = random(ox * 31 + oy * 7 + (masked ? 1 : 0));
    const width = 64;
    const height = 48;
    const base = blob(width, height, rand);
    // Half the background transparent, so that the general "over" runs too.
    for (let i = 3; i < base.data.length; i += 8) base.data[i] = 0;
    const src = blob(40, 36, rand);
    const mask = masked ? cardMask(width, height, rand) : undefined;
    const expected: Picture = { width, height, data: Buffer.from(base.data) };
    referenceOver(expected, src, ox, oy, mask);
    const actual: Picture = { width, height, data: Buffer.from(base.data) };
    blendOver(actual, src, ox, oy, mask && maskOf(mask, width, height));
    expect(actual.data.equals(expected.data)).toBe(true);
    // The sprite drew something (unless placed wholly outside).
    if (ox > -40 && oy > -36) expect(actual.data.equals(base.data)).toBe(false);
  });
});

describe('compositor frames', () => {
  it.each([true, false])(
    'after many body offsets (its cache reusing buffers), a pose still draws as on a fresh compositor (card %s)',
    (withPanel) => {
      const sprites = loadSprites('ava', 240);
      const compositor = rigFor(sprites, { withPanel });
      const pose = (i: number) => ({
        mouth: { frame: `m${i % 5}` },
        eyesOpen: i % 7 !== 0,
        bodyX: (i % 11) - 5,
        bodyY: i % 3,
        headX: (i % 5) - 2,
        headY: (i * 7) % 3,
      });
      // 120 distinct offsets: well past the cache's size, so bases are evicted and their buffers drawn again.
      for (let i = 0; i < 120; i++) compositor.render(pose(i));
      for (const i of [3, 64, 119, 7]) {
        expect(Buffer.from(compositor.render(pose(i))).equals(rigFor(sprites, { withPanel }).render(pose(i)))).toBe(true);
      }
    },
  );
});

describe('a rig without its card', () => {
  it.each(['ava', 'maya', 'otto'])(
    'draws nothing outside its extent (the part of the canvas a presenter pipes) in any pose, turned, nodded, breathing and zoomed: %s',
    (look) => {
      const sprites = loadSprites(look, 320);
      const rig = rigFor(sprites, { withPanel: false, bottom: 'flush' });
      const extent = rig.extent();
      expect(extent.width * extent.height).toBeLessThan(rig.width * rig.height);
      const s = sprites.scale;
      // The motion's extremes (animation.ts): ±2.5° of roll, the nod, the brows, the breath and the sway.
      for (const tilt of [-MAX_TILT, 0, MAX_TILT]) {
        for (const [bodyX, bodyY, nod] of [
          [-Math.round(1.2 * s), 0, Math.round(4 * s)],
          [Math.round(1.2 * s), Math.round(2.4 * s), -Math.round(4 * s)],
        ] as const) {
          for (const zoom of [1, 0.5]) {
            const pose = { mouth: { frame: 'm2' }, eyesOpen: true, bodyX, bodyY, headX: 0, headY: 0, tilt, nod, brow: Math.round(3.5 * s) };
            const data = rig.render(pose, zoom);
            let outside = 0;
            for (let y = 0; y < rig.height; y++) {
              for (let x = 0; x < rig.width; x++) {
                const inside = x >= extent.x && x < extent.x + extent.width && y >= extent.y && y < extent.y + extent.height;
                if (!inside && data[(y * rig.width + x) * 4 + 3]! > 0) outside++;
              }
            }
            expect(outside, `tilt ${tilt}, body ${bodyX},${bodyY}, nod ${nod}, zoom ${zoom}`).toBe(0);
          }
        }
      }
    },
  );
});
