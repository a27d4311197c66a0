/**
 * `npx tsx infra/scripts/pictures/overlays-picture.ts [out.png]`: the docs' contact sheet of text overlays — clips
 * rendered by the engine over the sample background with a title, a lower third and a caption box at once, in
 * Latin, Arabic and Chinese/Japanese, with burned captions, in 16:9 (two themes) and 9:16; one frame of each at
 * 1.5 s (every overlay faded in), 480 px tall, side by side. Default output: docs/overlays.png.
 */
import { BUILT_IN_BOTS } from '#domain/bot';
import type { BotPosition } from '#domain/choices';
import type { TextOverlay, Theme } from '#domain/overlays';
import { frameSizeOf, type Shape } from '#domain/shape';
import { writeBurnedPicture } from './burned-clips.ts';

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

writeBurnedPicture('overlays-picture', 'docs/overlays.png', 480, async (render) => {
  const shots = [];
  for (const [i, shot] of SHOTS.entries()) {
    const bot = BUILT_IN_BOTS[i % BUILT_IN_BOTS.length]!;
    const clip = await render({
      bot,
      text: 'Every overlay keeps clear of the presenter and of her captions, in any script.',
      position: shot.position,
      removeBotBackground: false,
      transitions: {},
      frame: frameSizeOf(shot.shape),
      overlays: shot.overlays,
      ...(shot.theme && { theme: shot.theme }),
    });
    shots.push({ path: clip.path, at: 1.5 });
  }
  return shots;
});
