/**
 * The media a job takes from strangers' servers, and how each is downloaded: its size and time limits and the codes
 * and words of its failures (functions/media/fetch-media.ts). The fetch stage (functions/fetcher) downloads what
 * these lists name into the bucket; the render and the assembly then read it there (render/background.ts,
 * render/image.ts, render/recording.ts, assemble/music.ts), so a URL that hangs holds a fetch, never a render.
 */
import type { ClipSpec } from '#domain/clip';
import { JobFailedError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { MusicSpec } from '#domain/music';
import type { ObjectStore } from '#domain/ports';
import type { MediaDownload } from './fetch-media.ts';

/** How one kind of media is downloaded: everything of a MediaDownload but the mode, which is the deployment's. */
export type DownloadRules = Omit<MediaDownload, 'mode'>;

/** One URL to bring into the bucket, with its rules. */
export interface RemoteMedia {
  url: string;
  rules: DownloadRules;
}

/**
 * Whose image it is, for the clip's failure: `code` prefixes its codes (`logo` gives `logo_invalid`,
 * `overlay_image` gives `overlay_image_invalid`), `name` begins its messages ("the logo", "the image of overlay 2").
 */
export interface ImageSubject {
  code: string;
  name: string;
}

export const LOGO: ImageSubject = { code: 'logo', name: 'the logo' };
/** The image of a clip's overlay `index` (0-based; its message counts from 1, as a person does). */
export const overlayImageSubject = (index: number): ImageSubject => ({ code: 'overlay_image', name: `the image of overlay ${index + 1}` });

export const backgroundRules: DownloadRules = {
  maxBytes: limits.maxBackgroundBytes,
  timeoutMs: limits.backgroundTimeoutMs,
  code: 'background',
  noun: { file: 'the background', url: 'the background URL' },
  ownCodes: true,
};

export const imageRules = (subject: ImageSubject): DownloadRules => ({
  maxBytes: limits.maxImageLayerBytes,
  timeoutMs: limits.imageLayerTimeoutMs,
  code: subject.code,
  noun: { file: subject.name, url: `the URL of ${subject.name}` },
  ownCodes: true,
});

export const recordingRules: DownloadRules = {
  maxBytes: limits.maxUploadBytes.audio,
  timeoutMs: limits.recordingTimeoutMs,
  code: 'audio',
  noun: { file: 'the recording', url: 'the recording URL' },
};

export const musicRules: DownloadRules = {
  maxBytes: limits.maxMusicBytes,
  timeoutMs: limits.musicTimeoutMs,
  code: 'music',
  noun: { file: 'the music file', url: 'the music URL' },
  ownCodes: true,
};

/**
 * What a clip takes from URLs: its recording (a voice's too), and in a video its background, its overlays' images
 * and its logo. The render asks for exactly these, by URL.
 */
export function clipRemoteMedia(clip: ClipSpec, createVideo: boolean): RemoteMedia[] {
  const recording = clip.recording && 'url' in clip.recording ? [{ url: clip.recording.url, rules: recordingRules }] : [];
  if (!createVideo) return recording;
  const background = clip.background ? [{ url: clip.background, rules: backgroundRules }] : [];
  const overlays = (clip.overlays ?? []).flatMap((overlay, index) =>
    overlay.type === 'image' ? [{ url: overlay.url, rules: imageRules(overlayImageSubject(index)) }] : [],
  );
  const logo = clip.logo ? [{ url: clip.logo.url, rules: imageRules(LOGO) }] : [];
  return [...recording, ...background, ...overlays, ...logo];
}

/** A video's music file, when it has one at a URL (a preset is made, not fetched). */
export const musicRemoteMedia = (music: MusicSpec | undefined): RemoteMedia[] =>
  music?.url !== undefined ? [{ url: music.url, rules: musicRules }] : [];

/**
 * Reads what the fetch stage stored under `key` into `path`. It is there unless removed by hand or expired (a day,
 * against a video's hour): then the video fails by name rather than being retried in vain.
 */
export async function fetchedToFile(objects: Pick<ObjectStore, 'getToFile'>, key: string, path: string, rules: DownloadRules): Promise<void> {
  if (!(await objects.getToFile(key, path)))
    throw new JobFailedError(`${rules.code}_unavailable`, `${rules.noun.file} was fetched but is no longer stored; create the video again`);
}
