/**
 * `npx tsx infra/scripts/bench/sprites.ts [-- --look <dir>]`: what a clip's sprites cost before its first frame, in
 * CPU time (not disturbed by a busy machine): the look's PNG layers decoded (for each height not yet scaled), then scaled
 * to each bot size in each shape (once per size, then cached), and the compositor's mask (the card's rounded shape) made for each clip.
 * Also the memory they hold: the decoded layers (kept by bytes in sprites.ts's cache) and each size's scaled sprites.
 * Default: bot_ava (built in); `--look` a prepared look's directory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { BOT_SIZES } from '#domain/choices';
import { mouthFramesOf } from '#domain/look';
import { ASPECT_RATIOS, frameSizeOf, RESOLUTIONS } from '#domain/shape';
import { botHeightFor } from '../../../functions/render/engine/layout.ts';
import { rigFor } from '../../../functions/render/engine/rigs/rig.ts';
import { type BotSprites, loadSprites, lookManifest } from '../../../functions/render/engine/sprites.ts';
import { argument } from './support.ts';

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / 1000);
};

const directory = argument('look');
const look = directory ? 'look' : 'ava';
const manifest = lookManifest(look, directory);
console.log(`look: ${directory ?? 'ava (built in)'}, density ${manifest.density ?? 1}`);
let started = process.cpuUsage();
// The smallest size first: its cost is the layers' decoding plus one scaling.
loadSprites(look, 1, directory);
console.log(`decode the layers (once per process): ${cpuMs(started)} ms CPU`);
const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(1);
// The files loadSprites decodes, decoded again here to weigh them (RGBA, as sprites.ts keeps them).
const dir = directory ?? join(import.meta.dirname, '../../../functions/render/bots', look);
const files = [
  manifest.panel.file,
  manifest.back,
  manifest.body,
  ...mouthFramesOf(manifest).flatMap((f) => [`${f}-eo`, `${f}-ec`].map((k) => manifest.head.frames[k]!)),
];
const decodedBytes = files.reduce((sum, file) => sum + PNG.sync.read(readFileSync(join(dir, file))).data.length, 0);
console.log(`mouth frames: ${mouthFramesOf(manifest).join(' ')}; decoded layers: ${files.length} files, ${mb(decodedBytes)} MB`);
const spriteBytes = (s: BotSprites) => [s.panel, s.back, s.body, ...[...s.heads.values()].flat()].reduce((sum, layer) => sum + layer.data.length, 0);
console.log('| Shape | Size | Canvas (px) | Scale the layers (ms CPU, once per size) | Mask (ms CPU, per clip) | Sprites (MB) |');
console.log('|---|---|---|---|---|---|');
for (const resolution of RESOLUTIONS)
  for (const aspectRatio of ASPECT_RATIOS)
    for (const size of BOT_SIZES) {
      const frame = frameSizeOf({ aspectRatio, resolution });
      started = process.cpuUsage();
      const sprites = loadSprites(look, botHeightFor(frame, 'bottom-right', size, manifest), directory);
      const scaling = cpuMs(started);
      started = process.cpuUsage();
      rigFor(sprites, { withPanel: true });
      console.log(
        `| ${aspectRatio} ${resolution} | ${size} | ${sprites.width}x${sprites.height} | ${scaling} | ${cpuMs(started)} | ${mb(spriteBytes(sprites))} |`,
      );
    }
