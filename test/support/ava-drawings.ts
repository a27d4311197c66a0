/** A caller's drawings made of bot_ava's artwork, for the drawn-bot tests. */
import { join } from 'node:path';
import sharp from 'sharp';
import { lookManifest } from '#functions/render/engine/sprites.ts';

const AVA = join(import.meta.dirname, '../../functions/render/bots/ava');

/** A caller's drawing: ava's back hair, body and one head frame (`m0-eo`, `r2-eo`, …) flattened into one transparent PNG. */
export function avaDrawing(frame: string): Promise<Buffer> {
  const manifest = lookManifest('ava');
  const density = manifest.density ?? 1;
  return sharp(join(AVA, manifest.back))
    .composite([
      { input: join(AVA, manifest.body) },
      { input: join(AVA, manifest.head.frames[frame]!), left: manifest.head.x * density, top: manifest.head.y * density },
    ])
    .png()
    .toBuffer();
}
