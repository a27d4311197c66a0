/**
 * `npx tsx infra/scripts/pictures/photo-mouth-shapes-picture.ts [<photo>]`: docs/photo-mouth-shapes.png, a photo bot's mouth
 * frames (eyes open): the levels m0..m4 and the shapes r1, r2 (round), w1, w2 (wide), fv (lower lip to the upper
 * teeth). Row 1: the face of each; row 2: the mouth of each, enlarged. Each tile is the look's layers as the
 * compositor draws them (panel, body, the head frame). Default photo: test/fixtures/prepare/portrait.jpg.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import { mouthFramesOf } from '#domain/look';
import { buildPhotoLook } from '../../../functions/prepare/photo-look.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../../../..');
const TILE = 200;
const LABEL = 26;

const look = await buildPhotoLook(readFileSync(process.argv[2] ?? join(repo, 'test/fixtures/prepare/portrait.jpg')));
const m = look.manifest;
const d = m.density ?? 1;
const keys = mouthFramesOf(m);
const tiles: OverlayOptions[] = [];
for (const [column, key] of keys.entries()) {
  const card = await sharp(look.files.get(m.panel.file)!)
    .composite([
      { input: look.files.get(m.body)! },
      { input: look.files.get(m.head.frames[`${key}-eo`]!)!, left: Math.round(m.head.x * d), top: Math.round(m.head.y * d) },
    ])
    .png()
    .toBuffer();
  // The face (a square of 190 canvas px above the mouth) and the mouth (76 px about it).
  for (const [rowIndex, side, above] of [
    [0, 190, 70],
    [1, 76, 4],
  ] as const) {
    const left = Math.round((m.mouth.x - side / 2) * d),
      top = Math.round((m.mouth.y - above - side / 2) * d);
    const input = await sharp(card)
      .extract({ left, top, width: Math.round(side * d), height: Math.round(side * d) })
      .resize(TILE, TILE, { kernel: 'lanczos3' })
      .png()
      .toBuffer();
    tiles.push({ input, left: column * TILE, top: LABEL + rowIndex * TILE });
  }
  const label = `<svg width="${TILE}" height="${LABEL}"><text x="8" y="19" font-size="17" font-family="sans-serif" fill="#e8eef4">${key}</text></svg>`;
  tiles.push({ input: Buffer.from(label), left: column * TILE, top: 0 });
}
const out = join(repo, 'docs/photo-mouth-shapes.png');
await sharp({ create: { width: TILE * keys.length, height: LABEL + 2 * TILE, channels: 3, background: '#101820' } })
  .composite(tiles)
  .png({ compressionLevel: 9 })
  .toFile(out);
console.log(`wrote ${out}: columns ${keys.join(', ')}; rows face, mouth`);
