/**
 * `npx tsx infra/scripts/pictures/captions-picture.ts [out.png]`: the docs' picture of burned captions — two clips
 * rendered by the engine with `captions: "burn"` over the sample background (ava at bottom-right: captions beside
 * her; maya at center: under her card), one frame of each in the middle of a two-line cue, side by side at half
 * size. Default output: docs/captions.png.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { BotPosition } from '#domain/choices';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { inspectBackground } from '../../../functions/media/background-media.ts';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import { makeSampleBackground } from '../make-sample-background.ts';

async function main() {
  const out = resolve(process.argv[2] ?? 'docs/captions.png');
  const root = mkdtempSync(join(tmpdir(), 'vidbot-captions-picture-'));
  try {
    const background = await makeSampleBackground(join(root, 'background.mp4'), { seconds: 8 });
    const shots: { path: string; at: number }[] = [];
    const clips: [string, BotPosition, string][] = [
      ['ava', 'bottom-right', 'Welcome! Your words appear on screen as she says them, on a box that reads on any background.'],
      ['maya', 'center', 'A presenter in the centre of the frame keeps her captions below her card, inside the margins.'],
    ];
    for (const [look, position, text] of clips) {
      const workDir = mkdtempSync(join(root, `${look}-`));
      const clip = await renderClip({
        bot: BUILT_IN_BOTS.find((b) => b.look === look)!,
        text,
        position,
        removeBotBackground: look === 'ava',
        background: await inspectBackground(background, workDir),
        backgroundVolume: 0,
        transitions: { entry: 'fade_in' },
        mode: 'video',
        frame: frameSizeOf(DEFAULT_SHAPE),
        voice: voiceToSpeak(BUILT_IN_BOTS.find((b) => b.look === look)!.voice, undefined, { polly: false }),
        workDir,
        speech: new EspeakSpeechEngine(),
        captions: 'burn',
      });
      const cue = clip.cues.find((c) => c.lines.length === 2) ?? clip.cues[0]!;
      shots.push({ path: clip.path, at: (cue.startSeconds + cue.endSeconds) / 2 });
    }
    await runFfmpeg(
      [
        '-y',
        ...shots.flatMap((s) => ['-ss', s.at.toFixed(2), '-i', s.path]),
        '-filter_complex',
        '[0:v]scale=640:360[a];[1:v]scale=640:360[b];[a][b]hstack',
        '-frames:v',
        '1',
        out,
      ],
      { budgetSeconds: 60 },
    );
    console.log(out);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
