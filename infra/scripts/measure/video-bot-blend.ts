/**
 * The video bot's blend timed on its own (docs/video-bots.md, "Render cost"): a prepared look's loop frames, their
 * landmarks at a card's height and its atlas samples in turn, blended by `blendMouth` on the render thread's code,
 * 873 frames (the bench's 1:1 720p clip) a round; the placement (the similarity, the mask and the seam's pass) timed
 * apart by `seamSpread`, which does only that. Every blend is laid on a flat grey frame afresh: beside the lips every
 * block then disagrees with the sample, so the mask is cut and the colour matched again on every frame (renderer
 * version 18): the most the blend costs.
 *
 *   npx tsx infra/scripts/measure/video-bot-blend.ts <look dir> [--height 332] [--rounds 4]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BotManifest } from '../../../functions/domain/look.ts';
import { atlasSheetOf, blendMouth, seamSpread } from '../../../functions/render/engine/footage/mouth-blend.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { height: { type: 'string', default: '332' }, rounds: { type: 'string', default: '4' } },
});
const dir = positionals[0];
if (!dir) throw new Error('usage: video-bot-blend.ts <look dir> [--height 332] [--rounds 4]');
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BotManifest;
const footage = manifest.footage!;
const raw = JSON.parse(readFileSync(join(dir, footage.track), 'utf8')) as number[][];
const sheet = atlasSheetOf(readFileSync(join(dir, footage.atlas)));
const height = Number(values.height);
const scale = height / footage.height;
const width = 2 * Math.round((manifest.width * height) / manifest.height / 2);
const grey = Buffer.alloc(width * height * 4, 128);
const frame = Buffer.from(grey);
const frames = 873;
const inputs = Array.from({ length: frames }, (_, i) => {
  const source = raw[footage.loop.from + (i % (footage.loop.to - footage.loop.from))]!;
  const landmarks = Array.from({ length: source.length / 2 }, (_, k) => ({ x: source[2 * k]! * scale, y: source[2 * k + 1]! * scale }));
  const sample = footage.samples[Math.floor(i / 3) % footage.samples.length]!;
  return { frame, width, height, landmarks, reference: footage.reference, eyePx: footage.eyePx, sheet, sample };
});
const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;
for (let round = 0; round < Number(values.rounds); round++) {
  let started = process.hrtime.bigint();
  for (const input of inputs) seamSpread(input);
  const placed = ms(started);
  // Each blend on a grey frame afresh (the frame's copy timed apart and taken off).
  started = process.hrtime.bigint();
  for (const _ of inputs) grey.copy(frame);
  const copies = ms(started);
  started = process.hrtime.bigint();
  for (const input of inputs) {
    grey.copy(frame);
    blendMouth(input);
  }
  console.log(
    `${frames} frames at ${width}x${height}: placement (mask and seam pass) ${placed.toFixed(0)} ms; the whole blend ${(ms(started) - copies).toFixed(0)} ms`,
  );
}
