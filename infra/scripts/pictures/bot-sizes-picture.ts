/**
 * `npx tsx infra/scripts/pictures/bot-sizes-picture.ts [-- <png>] [--resolution 720p|1080p] [--frames <dir>]`: the docs'
 * picture of the bot sizes. One row per size (small, medium, large, full), one column per shape (16:9, 9:16, 1:1),
 * each a frame the engine rendered with burned captions: bot_ava on her card at bottom-right, and in the last
 * column of each shape a bot prepared from a photo (test/fixtures/prepare/portrait.jpg) without its background.
 * `--frames` keeps every full-size frame there, to look at one closely. Default path docs/bot-sizes.png.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { BOT_SIZES } from '#domain/choices';
import { ASPECT_RATIOS, frameSizeOf, RESOLUTIONS } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import { sheetSetup } from './sheet-setup.ts';

/** Height of each row of the picture, px; the frames of a row are scaled to it. */
const ROW = 240;
const GAP = 16;

async function main() {
  const { values, positionals } = parseArgs({
    options: { resolution: { type: 'string', default: '720p' }, frames: { type: 'string' } },
    allowPositionals: true,
  });
  const resolution = values.resolution as (typeof RESOLUTIONS)[number];
  if (!RESOLUTIONS.includes(resolution)) throw new Error(`--resolution: one of ${RESOLUTIONS.join(', ')}`);
  const output = resolve(positionals[0] ?? 'docs/bot-sizes.png');
  const { work, framesDir, ava, photo, photoDir } = await sheetSetup('sizes', values.frames);
  try {
    const rows: string[][] = [];
    for (const size of BOT_SIZES) {
      const row: string[] = [];
      for (const aspectRatio of ASPECT_RATIOS) {
        for (const [bot, lookDirectory, removeBotBackground] of [
          [ava, undefined, false],
          [photo, photoDir, true],
        ] as const) {
          const workDir = mkdtempSync(join(work, 'clip-'));
          const clip = await renderClip({
            bot,
            lookDirectory,
            voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
            text: 'Every size keeps its meaning in every shape.',
            position: 'bottom-right',
            botSize: size,
            removeBotBackground,
            backgroundVolume: 0,
            transitions: {},
            captions: 'burn',
            frame: frameSizeOf({ aspectRatio, resolution }),
            mode: 'video',
            workDir,
            speech: new EspeakSpeechEngine(),
          });
          const still = join(framesDir, `${size}-${aspectRatio.replace(':', 'x')}-${bot.look}.png`);
          await runFfmpeg(['-y', '-ss', '1', '-i', clip.path, '-frames:v', '1', still], { budgetSeconds: 60 });
          row.push(still);
          rmSync(workDir, { recursive: true, force: true });
        }
      }
      rows.push(row);
    }
    // Every frame scaled to the row's height with a light gap after it, the frames of a size side by side, the sizes stacked.
    const frames = rows.flat();
    const perRow = rows[0]!.length;
    const scaled = frames.map((_, i) => `[${i}:v]scale=-2:${ROW}:flags=lanczos,pad=iw+${GAP}:ih+${GAP}:0:0:color=0xf4f4f4[s${i}]`);
    const stacks = rows.map((_, r) => `${Array.from({ length: perRow }, (_, c) => `[s${r * perRow + c}]`).join('')}hstack=inputs=${perRow}[r${r}]`);
    const graph = `${scaled.join(';')};${stacks.join(';')};${rows.map((_, r) => `[r${r}]`).join('')}vstack=inputs=${rows.length}`;
    const sheet = join(work, 'sheet.png');
    await runFfmpeg(['-y', ...frames.flatMap((f) => ['-i', f]), '-filter_complex', graph, '-frames:v', '1', sheet], { budgetSeconds: 120 });
    // A palette of 256 colours, dithered: a fifth of the bytes of the full-colour picture, for the repository.
    await sharp(sheet).png({ palette: true, quality: 90, compressionLevel: 9 }).toFile(output);
    console.log(`the bot sizes: ${output}${values.frames ? ` (frames in ${framesDir})` : ''}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
