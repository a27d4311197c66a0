import type { ObjectStore, PresignedLink } from './ports.ts';
import type { VideoRecord } from './video.ts';

/**
 * Download links in API responses and webhook events are presigned for up to a week (S3's SigV4 maximum), or
 * until the signing credentials expire if that is sooner; GET /v1/video/{id}/download always redirects to a
 * fresh one.
 */
const DOWNLOAD_LINK_SECONDS = 7 * 24 * 3600;

const outputFileName = (videoId: string, kind: 'video' | 'audio') => `${videoId}.${kind === 'video' ? 'mp4' : 'mp3'}`;

/** A fresh download link for a completed video's output, or undefined if there is none. */
export async function downloadLink(objects: ObjectStore, video: VideoRecord, seconds = DOWNLOAD_LINK_SECONDS): Promise<PresignedLink | undefined> {
  if (video.status !== 'completed' || !video.output) return undefined;
  return objects.presignGet(video.output.objectKey, seconds, outputFileName(video.videoId, video.output.kind));
}

/** A fresh link to a completed video's poster (JPEG), or undefined if it has none. */
export async function posterLink(objects: ObjectStore, video: VideoRecord, seconds = DOWNLOAD_LINK_SECONDS): Promise<PresignedLink | undefined> {
  if (video.status !== 'completed' || !video.output?.posterKey) return undefined;
  return objects.presignGet(video.output.posterKey, seconds);
}

export interface CaptionLinks {
  vtt: PresignedLink;
  srt: PresignedLink;
  /** Absent for a video completed before its words were kept. */
  words?: PresignedLink;
}

/** Fresh links to a completed video's caption files and words file, or undefined if it has none. */
export async function captionLinks(objects: ObjectStore, video: VideoRecord, seconds = DOWNLOAD_LINK_SECONDS): Promise<CaptionLinks | undefined> {
  const captions = video.status === 'completed' ? video.output?.captions : undefined;
  if (!captions) return undefined;
  const [vtt, srt, words] = await Promise.all([
    objects.presignGet(captions.vttKey, seconds, `${video.videoId}.vtt`),
    objects.presignGet(captions.srtKey, seconds, `${video.videoId}.srt`),
    captions.wordsKey ? objects.presignGet(captions.wordsKey, seconds, `${video.videoId}.words.json`) : undefined,
  ]);
  return { vtt, srt, ...(words && { words }) };
}

/** The caption links as callers read them (the video's record and its webhook event). */
export const publicCaptionLinks = (links: CaptionLinks) => ({
  vtt_url: links.vtt.url,
  srt_url: links.srt.url,
  ...(links.words && { words_url: links.words.url }),
});
export type PublicCaptionLinks = ReturnType<typeof publicCaptionLinks>;
