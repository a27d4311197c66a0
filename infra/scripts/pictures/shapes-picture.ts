/**
 * `npx tsx infra/scripts/pictures/shapes-picture.ts [-- <png>]`: the docs' picture of the three shapes. The same bot
 * (bot_ava, bottom-right, on its card) over the same landscape picture, rendered by the engine at 16:9, 9:16
 * and 1:1 (720p), one frame of each side by side at the same height. Default path docs/shapes.png.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BUILT_IN_BOTS } from '#domain/bot';
import { ASPECT_RATIOS, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { inspectBackground } from '../../../functions/media/background-media.ts';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';

/** Height of each shape's frame in the picture, px. */
const ROW = 480;
const GAP = 24;

async function main() {
  const output = resolve(process.argv[2] ?? 'docs/shapes.png');
  const work = mkdtempSync(join(tmpdir(), 'vidbot-shapes-'));
  try {
    // A landscape picture with detail to the edges (ffmpeg's test pattern), so the crop of each shape shows.
    const picture = join(work, 'background.png');
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'testsrc2=s=1920x1080:r=1:d=1', '-frames:v', '1', picture], { budgetSeconds: 60 });
    const bot = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;
    const frames: string[] = [];
    for (const aspectRatio of ASPECT_RATIOS) {
      const workDir = mkdtempSync(join(work, 'clip-'));
      const clip = await renderClip({
        bot,
        voice: voiceToSpeak(bot.voice, undefined, { polly: false }),
        text: 'Every shape.',
        position: 'bottom-right',
        removeBotBackground: false,
        background: await inspectBackground(picture, workDir),
        backgroundVolume: 0,
        transitions: {},
        frame: frameSizeOf({ aspectRatio, resolution: '720p' }),
        mode: 'video',
        workDir,
        speech: new EspeakSpeechEngine(),
      });
      const still = join(work, `${aspectRatio.replace(':', 'x')}.png`);
      await runFfmpeg(['-y', '-ss', '0.5', '-i', clip.path, '-frames:v', '1', still], { budgetSeconds: 60 });
      frames.push(still);
    }
    // Each frame scaled to the same height, a light gap after all but the last, then side by side.
    const scaled = frames.map(
      (_, i) => `[${i}:v]scale=-2:${ROW}:flags=lanczos${i < frames.length - 1 ? `,pad=iw+${GAP}:ih:0:0:color=0xf4f4f4` : ''}[s${i}]`,
    );
    const graph = `${scaled.join(';')};${frames.map((_, i) => `[s${i}]`).join('')}hstack=inputs=${frames.length}`;
    await runFfmpeg(['-y', ...frames.flatMap((f) => ['-i', f]), '-filter_complex', graph, '-frames:v', '1', output], { budgetSeconds: 60 });
    console.log(`the three shapes: ${output}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
