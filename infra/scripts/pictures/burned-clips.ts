/**
 * What the docs' pictures of burned text share: a scratch directory with the 8-second sample background, clips
 * rendered by the engine over it with an espeak-ng voice and their captions burned, and one frame of each laid
 * side by side into a PNG. captions-picture.ts and overlays-picture.ts say only which clips and which frames.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { voiceToSpeak } from '#domain/voices';
import { inspectBackground } from '../../../functions/media/background-media.ts';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import type { VideoClipInput } from '../../../functions/render/engine/types.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import { makeSampleBackground } from '../make-sample-background.ts';

/** A clip of the picture: what it shows; the background, the voice, the speech engine and burned captions are given. */
export type PictureClip = Omit<VideoClipInput, 'mode' | 'background' | 'backgroundVolume' | 'voice' | 'workDir' | 'speech' | 'captions'>;

/** A frame for the picture: the rendered clip and the second to take. */
export interface Shot {
  path: string;
  at: number;
}

/**
 * Runs a picture script: `make` renders its shots (with `render`) and the picture is written to the command line's
 * path or `defaultOut`, the shots scaled to `height` pixels tall side by side. The scratch directory is removed after.
 */
export function writeBurnedPicture(
  name: string,
  defaultOut: string,
  height: number,
  make: (render: (clip: PictureClip) => ReturnType<typeof renderClip>) => Promise<Shot[]>,
) {
  const run = async () => {
    const out = resolve(process.argv[2] ?? defaultOut);
    const root = mkdtempSync(join(tmpdir(), `vidbot-${name}-`));
    try {
      const background = await makeSampleBackground(join(root, 'background.mp4'), { seconds: 8 });
      let clips = 0;
      const render = async (clip: PictureClip) => {
        const workDir = mkdtempSync(join(root, `clip-${clips++}-`));
        return renderClip({
          ...clip,
          mode: 'video',
          background: await inspectBackground(background, workDir),
          backgroundVolume: 0,
          voice: voiceToSpeak(clip.bot.voice, undefined, { polly: false }),
          workDir,
          speech: new EspeakSpeechEngine(),
          captions: 'burn',
        });
      };
      await sideBySide(await make(render), height, out);
      console.log(out);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

/** One frame of each shot, scaled to `height` pixels tall, side by side in one PNG. */
async function sideBySide(shots: Shot[], height: number, out: string) {
  const scaled = shots.map((_, i) => `[${i}:v]scale=-2:${height}[s${i}]`).join(';');
  const stack = `${shots.map((_, i) => `[s${i}]`).join('')}hstack=inputs=${shots.length}`;
  await runFfmpeg(
    ['-y', ...shots.flatMap((s) => ['-ss', s.at.toFixed(2), '-i', s.path]), '-filter_complex', `${scaled};${stack}`, '-frames:v', '1', out],
    { budgetSeconds: 60 },
  );
}
