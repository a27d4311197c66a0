/**
 * The engine's input, made from a clip's render spec (domain/render-spec.ts) and nothing else of the clip: what the
 * engine draws and says is what the render cache's key hashed.
 */
import type { Bot } from '#domain/bot';
import type { RenderSpec, VideoRenderSpec } from '#domain/render-spec';
import { transitionsOf } from '#domain/render-spec';
import type { BackgroundMedia } from '#media/background-media';
import type { ImageMedia } from '#media/image-media';
import { type ImageSubject, LOGO, overlayImageSubject } from '#media/remote-media';
import { type ImageLayer, logoLayerSize } from './engine/image-layers.ts';
import type { RenderClipInput, SpeechEngine } from './engine/types.ts';

/** An image the clip draws over itself, before its download: where it comes from and how it is drawn. */
export type ImageLayerSource = Omit<ImageLayer, 'image'> & { url: string; subject: ImageSubject };

/** The pictures a video clip draws over itself, bottom first: its image overlays in their order, then the logo on top. */
export function imageLayersOf(spec: VideoRenderSpec): ImageLayerSource[] {
  const overlays = (spec.overlays ?? []).flatMap((overlay, index): ImageLayerSource[] =>
    overlay.type === 'image'
      ? [
          {
            url: overlay.url,
            subject: overlayImageSubject(index),
            position: overlay.position,
            size: overlay.size,
            opacity: overlay.opacity,
            // A window from the clip's first frame has no start to fade in at; an end past the clip is cut by it.
            ...(overlay.start > 0 && { start: overlay.start }),
            ...(overlay.end !== undefined && { end: overlay.end }),
          },
        ]
      : [],
  );
  const { logo } = spec;
  const logos = logo
    ? [{ url: logo.url, subject: LOGO, position: logo.position, size: logoLayerSize(logo.size, spec.frame), opacity: logo.opacity }]
    : [];
  return [...overlays, ...logos];
}

/** What one run of the engine needs beside the spec: the bot it draws, the media fetched for it, its budget. */
export interface EngineRun {
  /** The bot whose look the spec names (the engine seeds the poses with its uid). */
  bot: Bot;
  lookDirectory?: string;
  /** The spec's background, downloading. */
  background?: Promise<BackgroundMedia>;
  /** imageLayersOf(spec), downloading (none for a voice). */
  imageLayers: (ImageLayer & { image: Promise<ImageMedia> })[];
  workDir: string;
  speech: SpeechEngine;
  budgetScale?: number;
  deadline?: number;
}

export function engineInputOf(spec: RenderSpec, run: EngineRun): RenderClipInput {
  const { bot, lookDirectory, background, imageLayers, ...rest } = run;
  const spoken = {
    text: spec.text,
    pronunciations: (spec.pronunciations ?? []).map(([word, say]) => ({ word, say })),
    voice: spec.bot.voice,
    ...rest,
  };
  if (spec.mode === 'voice') return { ...spoken, mode: 'voice' };
  return {
    ...spoken,
    mode: 'video',
    bot,
    lookDirectory,
    imageLayers,
    frame: spec.frame,
    position: spec.position,
    botSize: spec.botSize,
    removeBotBackground: spec.removeBotBackground,
    ...(spec.footage && { footage: spec.footage }),
    background,
    backgroundVolume: spec.backgroundVolume,
    transitions: transitionsOf(spec),
    captions: spec.captions,
    ...(spec.overlays && { overlays: spec.overlays }),
    ...(spec.theme && { theme: spec.theme }),
  };
}
