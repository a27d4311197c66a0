/**
 * `npm run bots:build`: draws every look (./looks.ts, ./draw.ts, ./mouths.ts) and rasterises it with resvg into
 * functions/render/bots/<look>/: panel.png, back.png, body.png, head-<mouth>-e<o|c>.png (m0..m4 and the shapes' r1, r2, w1, w2, fv), preview.png and
 * manifest.json. The PNGs are committed, so the render Lambda never needs an SVG rasteriser.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import sharp from 'sharp';
import { type BotManifest, MOUTH_SHAPES, mouthFramesOf } from '#domain/look';
import { CANVAS, CARD } from '#media/raster/card';
import { backSvg, bodySvg, headSvg, panelSvg, previewSvg } from './draw.ts';
import { BROW_RISE, CX, EYE_DX, EYE_Y, HEAD_BOX, MOUTH_LEVELS } from './layout.ts';
import { LOOKS } from './looks.ts';

/** The artwork the render engine ships: functions/render/bots/<look>/. */
const botsDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'functions', 'render', 'bots');

/**
 * Layer pixels per canvas unit: the layers are drawn at twice the canvas so that a `full` presenter at 1080p
 * (1.75x the canvas in 16:9 and 1:1, 2.08x in 9:16) is a reduction, or next to one, never a visible upscale.
 * The render reduces them once per clip size (engine/sprites.ts loadSprites).
 */
const DENSITY = 2;

/** Rasterised, then stored again with zlib's best compression (lossless; a third of resvg's bytes for these layers). */
const png = (svg: string, zoom = DENSITY) =>
  sharp(new Resvg(svg, { font: { loadSystemFonts: false }, fitTo: { mode: 'zoom', value: zoom } }).render().asPng())
    .png({ compressionLevel: 9, adaptiveFiltering: false })
    .toBuffer();

export async function buildLook(name: string): Promise<BotManifest> {
  const look = LOOKS[name];
  if (!look) throw new Error(`unknown look "${name}"`);
  const dir = join(botsDir, name);
  mkdirSync(dir, { recursive: true });
  const write = async (file: string, svg: string, zoom?: number) => writeFileSync(join(dir, file), await png(svg, zoom));
  await write('panel.png', panelSvg(look));
  await write('back.png', backSvg(look));
  await write('body.png', bodySvg(look));
  const frames: Record<string, string> = {};
  const mouths = mouthFramesOf({ mouthLevels: MOUTH_LEVELS, mouthShapes: [...MOUTH_SHAPES] });
  for (const mouth of mouths) {
    for (const open of [true, false]) {
      const key = `${mouth}-e${open ? 'o' : 'c'}`;
      frames[key] = `head-${key}.png`;
      await write(frames[key], headSvg(look, mouth, open));
    }
  }
  await write('preview.png', previewSvg(look, 512), 1);
  const manifest: BotManifest = {
    look: name,
    width: CANVAS.width,
    height: CANVAS.height,
    density: DENSITY,
    panel: { file: 'panel.png', ...CARD },
    back: 'back.png',
    body: 'body.png',
    head: { x: HEAD_BOX.x, y: HEAD_BOX.y, width: HEAD_BOX.width, height: HEAD_BOX.height, frames },
    mouthLevels: MOUTH_LEVELS,
    mouthShapes: [...MOUTH_SHAPES],
    mouth: { x: CX, y: 314 },
    anchor: { x: CX, y: CARD.y + CARD.height },
    preview: 'preview.png',
    // The head rolls about the chin's point on the neck; the brows lift above the eyes.
    face: {
      pivot: { x: CX, y: look.chinY },
      eyes: [
        { x: CX - EYE_DX, y: EYE_Y },
        { x: CX + EYE_DX, y: EYE_Y },
      ],
      brows: [
        { x: CX - EYE_DX, y: EYE_Y - BROW_RISE },
        { x: CX + EYE_DX, y: EYE_Y - BROW_RISE },
      ],
    },
  };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(LOOKS);
  for (const name of names) {
    await buildLook(name);
    console.log(`bots: built ${name}`);
  }
}
