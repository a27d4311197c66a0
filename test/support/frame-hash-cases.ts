/**
 * The clips the frame-hash harness (test/integration/render/frame-hashes.test.ts) renders: between them every clip
 * kind, the six shapes, the nine positions, the four sizes, every transition, each kind of background, the card
 * (drawn, or carried to the frame's edges at full size) and the removed backdrop, burned captions, text and image
 * overlays and the logo, for built-in, photo and drawn bots. Small and short: a few words each.
 */
import type { BotPosition } from '#domain/choices';
import type { Shape } from '#domain/shape';
import type { ImageLayer } from '#functions/render/engine/image-layers.ts';
import type { RenderClipInput } from '#functions/render/engine/index.ts';

type MediaFile = 'tone' | 'plasma' | 'still' | 'colour' | 'logo' | 'sticker';

export interface HashedCase {
  /** A built-in look (default ava), or one the harness builds: a photo's or a drawing's. */
  builtIn?: 'ava' | 'leo' | 'maya' | 'otto';
  look?: 'photo' | 'drawn';
  text?: string;
  position?: BotPosition;
  shape?: Shape;
  background?: MediaFile;
  images?: (Omit<ImageLayer, 'image'> & { file: MediaFile })[];
  input?: Partial<RenderClipInput>;
}

const CAPTIONED = 'Hello there, this is a test.';

export const hashedCases: Record<string, HashedCase> = {
  'ava-backdrop': {},
  'leo-video-zoom-flush': {
    builtIn: 'leo',
    position: 'bottom-center',
    shape: { aspectRatio: '9:16', resolution: '720p' },
    background: 'tone',
    input: { backgroundVolume: 0.6, removeBotBackground: true, botSize: 'large', transitions: { entry: 'zoom_in', exit: 'zoom_out' } },
  },
  'maya-plasma-slides-fade': {
    builtIn: 'maya',
    position: 'center',
    shape: { aspectRatio: '1:1', resolution: '720p' },
    background: 'plasma',
    input: { backgroundVolume: 1, removeBotBackground: true, botSize: 'small', transitions: { entry: 'slide_in_left', exit: 'slide_out_right' } },
  },
  'otto-still-slides': {
    builtIn: 'otto',
    position: 'center-left',
    background: 'still',
    input: { transitions: { entry: 'slide_in_right', exit: 'slide_out_left' } },
  },
  'ava-colour-slides-full': {
    position: 'bottom-left',
    background: 'colour',
    input: { botSize: 'full', transitions: { entry: 'slide_in_up', exit: 'slide_out_down' } },
  },
  'ava-video-wipes': {
    position: 'top-right',
    background: 'tone',
    input: { backgroundVolume: 1, transitions: { entry: 'wipe_in', exit: 'wipe_out' } },
  },
  'ava-fades-captions-text': {
    text: CAPTIONED,
    position: 'center-right',
    shape: { aspectRatio: '16:9', resolution: '1080p' },
    input: {
      captions: 'burn',
      transitions: { entry: 'fade_in', exit: 'fade_out' },
      theme: { font: 'montserrat', primaryColor: '#C0392B', textColor: '#FFFFEE' },
      overlays: [
        { type: 'text', text: 'The title', style: 'title', start: 0, position: 'top-center' },
        { type: 'text', text: 'A lower third', style: 'lower_third', start: 0.3, end: 1.6, position: 'bottom-left' },
        { type: 'text', text: 'In a box', style: 'caption_box', start: 0, position: 'top-left' },
      ],
    },
  },
  'ava-images-logo': {
    text: CAPTIONED,
    position: 'top-left',
    shape: { aspectRatio: '9:16', resolution: '1080p' },
    background: 'plasma',
    images: [
      { file: 'sticker', position: 'center', size: 0.2, opacity: 0.7, start: 0.2, end: 1.2 },
      { file: 'logo', position: 'top-right', size: 0.12, opacity: 1 },
    ],
    input: {
      removeBotBackground: true,
      captions: 'burn',
      theme: { font: 'merriweather', primaryColor: '#2B59C3', textColor: '#FFFFFF' },
      overlays: [{ type: 'image', url: 'https://example.com/sticker.png', start: 0.2, end: 1.2, position: 'center', size: 0.2, opacity: 0.7 }],
    },
  },
  'photo-card': { look: 'photo', position: 'top-center', shape: { aspectRatio: '1:1', resolution: '1080p' }, input: { botSize: 'medium' } },
  'photo-no-backdrop-zoom': {
    look: 'photo',
    position: 'bottom-center',
    background: 'still',
    input: { removeBotBackground: true, botSize: 'full', transitions: { entry: 'zoom_in' } },
  },
  'photo-full-carried-captions': {
    look: 'photo',
    text: CAPTIONED,
    position: 'bottom-center',
    shape: { aspectRatio: '9:16', resolution: '720p' },
    input: {
      botSize: 'full',
      captions: 'burn',
      overlays: [{ type: 'text', text: 'Ana Pérez\nHost', style: 'lower_third', start: 0, position: 'bottom-left' }],
    },
  },
  'ava-full-carried': { position: 'bottom-center', shape: { aspectRatio: '1:1', resolution: '720p' }, input: { botSize: 'full' } },
  'drawn-card-slide': { look: 'drawn', position: 'bottom-right', input: { botSize: 'large', transitions: { entry: 'slide_in_left' } } },
  'drawn-no-backdrop-fade': {
    look: 'drawn',
    position: 'bottom-left',
    shape: { aspectRatio: '9:16', resolution: '720p' },
    input: { removeBotBackground: true, botSize: 'small', transitions: { exit: 'fade_out' } },
  },
  voice: { input: { mode: 'voice' } },
};

/**
 * A clip's ffmpeg command with its outputs (the H.264/AAC file and the poster's JPEG) replaced by `framemd5`
 * listings of the same filter outputs, written beside the clip: video.framemd5, audio.framemd5, poster.framemd5.
 * Other commands pass unchanged.
 */
export function framemd5Outputs(args: string[]): string[] {
  const graphAt = args.indexOf('-filter_complex');
  if (graphAt < 0) return args;
  const rest = args.slice(graphAt + 2);
  const maps = rest.flatMap((a, i) => (rest[i - 1] === '-map' ? [a] : []));
  const seconds = rest[rest.indexOf('-t') + 1]!;
  const clip = rest.find((a) => a.endsWith('clip.mp4'))!;
  const dir = clip.slice(0, -'clip.mp4'.length);
  const [video, audio, poster] = maps as [string, string, string];
  return [
    ...args.slice(0, graphAt + 2),
    ...['-map', video, '-pix_fmt', 'yuv420p', '-r', '30', '-t', seconds, '-f', 'framemd5', `${dir}video.framemd5`],
    ...['-map', audio, '-ar', '48000', '-ac', '2', '-t', seconds, '-f', 'framemd5', `${dir}audio.framemd5`],
    ...['-map', poster, '-frames:v', '1', '-f', 'framemd5', `${dir}poster.framemd5`],
  ];
}
