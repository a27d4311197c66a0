/**
 * `npx tsx infra/scripts/pictures/default-layouts-picture.ts [-- <png>] [--frames <dir>]`: the docs' contact sheet
 * of what a clip looks like when it says nothing of its layout. One row per shape (16:9, 9:16, 1:1 at 720p), each
 * a frame the engine rendered: bot_ava with no background, size or position (presenterLayoutOf: `full`, her card
 * carried to the frame's edges); the same with the README scene's logo (examples/logo.png), a lower third and
 * burned captions; a bot prepared from a photo (test/fixtures/prepare/portrait.jpg) with no layout either; bot_ava
 * over a caller's background (the sample background), where she keeps her corner. `--frames` keeps the frames
 * at full size. Default path docs/default-layouts.png.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import type { Bot } from '#domain/bot';
import { LOGO_DEFAULTS, presenterLayoutOf } from '#domain/choices';
import { ASPECT_RATIOS, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { inspectBackground } from '../../../functions/media/background-media.ts';
import { inspectImage } from '../../../functions/media/image-media.ts';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { logoLayerSize } from '../../../functions/render/engine/image-layers.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import type { VideoClipInput } from '../../../functions/render/engine/types.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import { makeSampleBackground } from '../make-sample-background.ts';
import { sheetSetup } from './sheet-setup.ts';

/** Height of each row of the picture, px; the frames of a row are scaled to it. */
const ROW = 300;
const GAP = 16;
const TEXT = 'Every shape gets a presenter who is the subject.';

type Shot = Partial<Pick<VideoClipInput, 'lookDirectory' | 'captions' | 'overlays'>> & { bot: Bot; backgroundFile?: string; logo?: boolean };

async function main() {
  const { values, positionals } = parseArgs({ options: { frames: { type: 'string' } }, allowPositionals: true });
  const output = resolve(positionals[0] ?? 'docs/default-layouts.png');
  const { work, framesDir, ava, photo, photoDir } = await sheetSetup('default-layouts', values.frames);
  try {
    const background = await makeSampleBackground(join(work, 'background.mp4'), { seconds: 4 });
    const logo = await inspectImage(resolve('examples/logo.png'));
    const shots: [string, Shot][] = [
      ['default', { bot: ava }],
      [
        'scene',
        {
          bot: ava,
          captions: 'burn',
          overlays: [{ type: 'text', style: 'lower_third', text: 'Ava Martin\nHost', start: 0, position: 'bottom-left' }],
          logo: true,
        },
      ],
      ['photo', { bot: photo, lookDirectory: photoDir }],
      ['background', { bot: ava, backgroundFile: background }],
    ];
    const rows: string[][] = [];
    for (const aspectRatio of ASPECT_RATIOS) {
      const row: string[] = [];
      for (const [name, { backgroundFile, logo: withLogo, ...shot }] of shots) {
        const workDir = mkdtempSync(join(work, 'clip-'));
        const frame = frameSizeOf({ aspectRatio, resolution: '720p' });
        const size = logoLayerSize(LOGO_DEFAULTS.size, frame);
        const { position, botSize } = presenterLayoutOf({ ...(backgroundFile && { background: backgroundFile }) }, shot.bot.defaultPosition);
        const clip = await renderClip({
          ...shot,
          voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
          text: TEXT,
          position,
          botSize,
          removeBotBackground: false,
          ...(backgroundFile && { background: await inspectBackground(backgroundFile, workDir) }),
          backgroundVolume: 0,
          transitions: {},
          frame,
          ...(withLogo && { imageLayers: [{ image: logo, position: LOGO_DEFAULTS.position, size, opacity: LOGO_DEFAULTS.opacity }] }),
          mode: 'video',
          workDir,
          speech: new EspeakSpeechEngine(),
        });
        const still = join(framesDir, `${aspectRatio.replace(':', 'x')}-${name}.png`);
        await runFfmpeg(['-y', '-ss', '1.5', '-i', clip.path, '-frames:v', '1', still], { budgetSeconds: 60 });
        row.push(still);
        rmSync(workDir, { recursive: true, force: true });
      }
      rows.push(row);
    }
    await contactSheet(rows, join(work, 'sheet.png'), output);
    console.log(`the default layouts: ${output}${values.frames ? ` (frames in ${framesDir})` : ''}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Every frame scaled to the row's height with a light gap after it, the frames of a shape side by side, the shapes
 * stacked (each row padded to the widest); a palette of 256 colours, dithered, for the repository.
 */
async function contactSheet(rows: string[][], sheet: string, output: string) {
  const frames = rows.flat();
  const perRow = rows[0]!.length;
  const scaled = frames.map((_, i) => `[${i}:v]scale=-2:${ROW}:flags=lanczos,pad=iw+${GAP}:ih+${GAP}:0:0:color=0xf4f4f4[s${i}]`);
  const rowWidth = (r: number) => perRow * (Math.round((ROW * [16 / 9, 9 / 16, 1][r]!) / 2) * 2 + GAP);
  const widest = Math.max(...rows.map((_, r) => rowWidth(r)));
  const stacks = rows.map(
    (_, r) =>
      `${Array.from({ length: perRow }, (_, c) => `[s${r * perRow + c}]`).join('')}hstack=inputs=${perRow},pad=${widest}:ih:0:0:color=0xf4f4f4[r${r}]`,
  );
  const graph = `${scaled.join(';')};${stacks.join(';')};${rows.map((_, r) => `[r${r}]`).join('')}vstack=inputs=${rows.length}`;
  await runFfmpeg(['-y', ...frames.flatMap((f) => ['-i', f]), '-filter_complex', graph, '-frames:v', '1', sheet], { budgetSeconds: 120 });
  await sharp(sheet).png({ palette: true, quality: 90, compressionLevel: 9 }).toFile(output);
}

await main();
