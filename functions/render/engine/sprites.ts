/**
 * Bot artwork at run time: the PNG layers of functions/render/bots/<look>/ decoded with pngjs, resampled
 * once to the size a clip needs, and cached for the life of the process (a warm Lambda renders many clips).
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { type BotManifest, mouthFramesOf } from '#domain/look';
import type { Picture } from '#media/raster/picture';
import { engineAssets } from './assets.ts';
import { PicturePool } from './picture-pool.ts';

export interface BotSprites {
  manifest: BotManifest;
  /** Scale from canvas px to output px. */
  scale: number;
  width: number;
  height: number;
  panel: Picture;
  back: Picture;
  body: Picture;
  /** Head frames by mouth frame (`m0`, `r1`, …: domain/look.ts mouthFramesOf), [eyes closed, eyes open], all the same size, placed at headX/headY. */
  heads: Map<string, [Picture, Picture]>;
  headX: number;
  headY: number;
}

/**
 * The artwork directory. The bundle (infra/scripts/bundle-render.ts) puts `bots/` next to index.mjs, and
 * esbuild makes import.meta.url that file; from source this module is functions/render/engine/sprites.ts
 * and the artwork is ../bots. A folder configured at cold start (./assets.ts) overrides both.
 */
function botsDirectory(): string {
  const configured = engineAssets().botsDirectory;
  if (configured) return configured;
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'bots');
  return existsSync(join(bundled, 'ava', 'manifest.json')) ? bundled : join(here, '..', 'bots');
}

/*
 * Every cache here is a PicturePool bounded by bytes or entries: a warm render function meets the looks of many
 * accounts' bots at many sizes, and a look's decoded layers weigh 10-50 MB (a `full` presenter's sprites at
 * 1080p as much), so nothing here may grow for ever.
 */

const MB = 1024 * 1024;

/**
 * A look's full-size layers are not kept once scaled: they serve only a look at a height not in `spriteCache`, and
 * keeping the four built-in looks' (49 MB each with their 20 head frames, drawn at twice the canvas) held 200 MB in
 * every warm render environment to save decoding them again (docs/performance.md, the artwork of a built-in look).
 */
function decode(path: string): Picture {
  const png = PNG.sync.read(readFileSync(path));
  return { width: png.width, height: png.height, data: png.data };
}

/** For each pixel along one axis of the destination: the first source pixel it covers, and each covered pixel's share. */
function areaWeights(srcSize: number, dstSize: number): { start: number; w: Float32Array }[] {
  const ratio = srcSize / dstSize;
  const rows: { start: number; w: Float32Array }[] = [];
  for (let d = 0; d < dstSize; d++) {
    const a = d * ratio;
    const b = Math.min(srcSize, (d + 1) * ratio);
    const start = Math.floor(a);
    const end = Math.min(srcSize, Math.ceil(b));
    const w = new Float32Array(Math.max(1, end - start));
    let sum = 0;
    for (let s = start; s < end; s++) {
      const overlap = Math.min(b, s + 1) - Math.max(a, s);
      w[s - start] = Math.max(0, overlap);
      sum += w[s - start]!;
    }
    for (let i = 0; i < w.length; i++) w[i] = sum > 0 ? w[i]! / sum : 0;
    rows.push({ start, w });
  }
  return rows;
}

/** One row of the source as floats, premultiplied by their alpha, into `pre` (one row long). */
function premultiplyRow(src: Picture, y: number, pre: Float32Array): void {
  const sw = src.width;
  const data = src.data;
  for (let x = 0, i = y * sw * 4; x < sw; x++, i += 4) {
    const a = data[i + 3]! / 255;
    pre[x * 4] = data[i]! * a;
    pre[x * 4 + 1] = data[i + 1]! * a;
    pre[x * 4 + 2] = data[i + 2]! * a;
    pre[x * 4 + 3] = a;
  }
}

/**
 * The horizontal pass: every row of the source, premultiplied one row at a time (a whole look's layers as floats
 * would be 200 MB to allocate and collect per size), resampled to `width`.
 */
function resampleRows(src: Picture, width: number): Float32Array {
  const { width: sw, height: sh } = src;
  const xw = areaWeights(sw, width);
  const tmp = new Float32Array(width * sh * 4);
  const pre = new Float32Array(sw * 4);
  for (let y = 0; y < sh; y++) {
    premultiplyRow(src, y, pre);
    for (let x = 0; x < width; x++) {
      const { start, w } = xw[x]!;
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let k = 0; k < w.length; k++) {
        const o = (start + k) * 4;
        const f = w[k]!;
        r += pre[o]! * f;
        g += pre[o + 1]! * f;
        b += pre[o + 2]! * f;
        a += pre[o + 3]! * f;
      }
      const t = (y * width + x) * 4;
      tmp[t] = r;
      tmp[t + 1] = g;
      tmp[t + 2] = b;
      tmp[t + 3] = a;
    }
  }
  return tmp;
}

/** The vertical pass to `height`, back to straight alpha (a pixel with next to no alpha stays transparent). */
function resampleColumns(tmp: Float32Array, sh: number, width: number, height: number): Buffer {
  const yw = areaWeights(sh, height);
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const { start, w } = yw[y]!;
    for (let x = 0; x < width; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let k = 0; k < w.length; k++) {
        const o = ((start + k) * width + x) * 4;
        const f = w[k]!;
        r += tmp[o]! * f;
        g += tmp[o + 1]! * f;
        b += tmp[o + 2]! * f;
        a += tmp[o + 3]! * f;
      }
      const t = (y * width + x) * 4;
      if (a > 0.002) {
        out[t] = Math.min(255, Math.round(r / a));
        out[t + 1] = Math.min(255, Math.round(g / a));
        out[t + 2] = Math.min(255, Math.round(b / a));
        out[t + 3] = Math.min(255, Math.round(a * 255));
      }
    }
  }
  return out;
}

/**
 * Area-average resampling with premultiplied alpha (no dark fringes), separable: good for the 0.4–0.9×
 * reductions used here and run once per look and size.
 */
function resample(src: Picture, width: number, height: number): Picture {
  const tmp = resampleRows(src, width);
  return { width, height, data: resampleColumns(tmp, src.height, width, height) };
}

const manifests = new PicturePool<BotManifest>({ maxWeight: 64 });

/** The directory of a built-in look (functions/render/bots/<look>). */
function builtInLookDirectory(look: string): string {
  if (!/^[a-z0-9_-]+$/.test(look)) throw new Error(`invalid bot look "${look}"`);
  return join(botsDirectory(), look);
}

function loadManifest(dir: string): BotManifest {
  let manifest = manifests.get(dir);
  if (!manifest) {
    const path = join(dir, 'manifest.json');
    if (!existsSync(path)) throw new Error(`no bot artwork at ${path}`);
    manifest = JSON.parse(readFileSync(path, 'utf8')) as BotManifest;
    manifests.set(dir, manifest);
  }
  return manifest;
}

/** A look's manifest (its canvas, card and head box in its own units): built in, or in `directory`. */
export const lookManifest = (look: string, directory = builtInLookDirectory(look)): BotManifest => loadManifest(directory);

/** Sprites by look and height, by bytes: a clip needs one set (3.8 MB for a built-in look's medium at 720p, up to 53 MB for full at 1080p: infra/scripts/bench/sprites.ts). */
const spriteCache = new PicturePool<BotSprites>({
  maxWeight: 256 * MB,
  weigh: (s) => [s.panel, s.back, s.body, ...[...s.heads.values()].flat()].reduce((bytes, layer) => bytes + layer.data.length, 0),
});

/**
 * The look's layers scaled so the whole canvas is `height` px tall. `directory` holds a look that is not built in
 * (a bot prepared from a caller's images, downloaded by the render job); by default, the built-in look's.
 */
export function loadSprites(look: string, height: number, directory = builtInLookDirectory(look)): BotSprites {
  const dir = directory;
  const key = `${dir}@${height}`;
  const cached = spriteCache.get(key);
  if (cached) return cached;
  const manifest = loadManifest(dir);
  const scale = height / manifest.height;
  const width = Math.round(manifest.width * scale);
  const full = (file: string) => resample(decode(join(dir, file)), width, height);
  const headW = Math.round(manifest.head.width * scale);
  const headH = Math.round(manifest.head.height * scale);
  const heads = new Map<string, [Picture, Picture]>();
  for (const mouth of mouthFramesOf(manifest)) {
    const [closed, open] = (['c', 'o'] as const).map((eyes) => {
      const file = manifest.head.frames[`${mouth}-e${eyes}`];
      if (!file) throw new Error(`bot look "${look}" lacks head frame ${mouth}-e${eyes}`);
      return resample(decode(join(dir, file)), headW, headH);
    });
    heads.set(mouth, [closed!, open!]);
  }
  const sprites: BotSprites = {
    manifest,
    scale,
    width,
    height,
    panel: full(manifest.panel.file),
    back: full(manifest.back),
    body: full(manifest.body),
    heads,
    headX: Math.round(manifest.head.x * scale),
    headY: Math.round(manifest.head.y * scale),
  };
  spriteCache.set(key, sprites);
  return sprites;
}
