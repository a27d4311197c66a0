/**
 * `npx tsx infra/scripts/pictures/overlays-picture.ts [out.png]`: the docs' contact sheet of text overlays — clips
 * rendered by the engine over the sample background with a title, a lower third and a caption box at once, in
 * Latin, Arabic and Chinese/Japanese, with burned captions, in 16:9 (two themes) and 9:16; one frame of each, side
 * by side. Default output: docs/overlays.png.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { BotPosition } from '#domain/choices';
import type { TextOverlay, Theme } from '#domain/overlays';
import { frameSizeOf, type Shape } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { inspectBackground } from '../../../functions/media/background-media.ts';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import { makeSampleBackground } from '../make-sample-background.ts';

const text = (style: TextOverlay['style'], value: string, position?: BotPosition): TextOverlay => ({
  type: 'text',
  style,
  text: value,
  start: 0,
  position: position ?? (style === 'title' ? 'top-center' : style === 'lower_third' ? 'bottom-left' : 'bottom-center'),
});

const SHOTS: { shape: Shape; position: BotPosition; theme?: Theme; overlays: TextOverlay[] }[] = [
  {
    shape: { aspectRatio: '16:9', resolution: '720p' },
    position: 'bottom-right',
    overlays: [
      text('title', 'Quarterly results {\\b1}as written\\N'),
      text('lower_third', 'ليلى حداد\nمديرة المنتج — Product lead'),
      text('caption_box', '你好，世界！こんにちは、ようこそ。', 'center'),
    ],
  },
  {
    shape: { aspectRatio: '16:9', resolution: '720p' },
    position: 'bottom-left',
    theme: { font: 'montserrat', primaryColor: '#C2410C', textColor: '#FFF7ED' },
    overlays: [
      text('title', 'مرحبا بكم في العرض'),
      text('lower_third', 'Ava Martin\nHost, Montserrat theme', 'bottom-right'),
      text('caption_box', 'A caption box of a sentence or two, wrapped to the frame and kept clear of the presenter.', 'top-left'),
    ],
  },
  {
    shape: { aspectRatio: '9:16', resolution: '720p' },
    position: 'center',
    theme: { font: 'merriweather', primaryColor: '#0F766E', textColor: '#FFFFFF' },
    overlays: [
      text('title', '新产品发布会'),
      text('lower_third', 'Maya Chen\n陈美雅 · Design'),
      text('caption_box', 'Swipe up: مرحبا 你好', 'top-center'),
    ],
  },
];

async function main() {
  const out = resolve(process.argv[2] ?? 'docs/overlays.png');
  const root = mkdtempSync(join(tmpdir(), 'vidbot-overlays-picture-'));
  try {
    const background = await makeSampleBackground(join(root, 'background.mp4'), { seconds: 8 });
    const shots: string[] = [];
    for (const [i, shot] of SHOTS.entries()) {
      const bot = BUILT_IN_BOTS[i % BUILT_IN_BOTS.length]!;
      const workDir = mkdtempSync(join(root, `shot-${i}-`));
      const clip = await renderClip({
        bot,
        text: 'Every overlay keeps clear of the presenter and of her captions, in any script.',
        position: shot.position,
        removeBotBackground: false,
        background: await inspectBackground(background, workDir),
        backgroundVolume: 0,
        transitions: {},
        mode: 'video',
        frame: frameSizeOf(shot.shape),
        voice: voiceToSpeak(bot.voice, undefined, { polly: false }),
        workDir,
        speech: new EspeakSpeechEngine(),
        captions: 'burn',
        overlays: shot.overlays,
        ...(shot.theme && { theme: shot.theme }),
      });
      shots.push(clip.path);
    }
    // Each shot at 1.5 s (every overlay faded in), scaled to 360 px tall, side by side.
    await runFfmpeg(
      [
        '-y',
        ...shots.flatMap((path) => ['-ss', '1.5', '-i', path]),
        '-filter_complex',
        `${shots.map((_, i) => `[${i}:v]scale=-2:480[s${i}]`).join(';')};${shots.map((_, i) => `[s${i}]`).join('')}hstack=inputs=${shots.length}`,
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
