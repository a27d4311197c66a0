/**
 * How callers see a video: in the API (GET /v1/video/{id}, the list) and in its webhook event. Every public
 * shape of a video is built here, from the domain's record.
 */

import { type CaptionLinks, type PublicCaptionLinks, publicCaptionLinks } from '#domain/links';
import { toPublicOverlay, toPublicTheme } from '#domain/overlays';
import type { PresignedLink } from '#domain/ports';
import { captionModeOf, clipStatusOf, type DeliveryAttempt, eventTypeFor, logoOf, type VideoRecord } from '#domain/video';
import { type CreatedVideo, keptClipUid } from '#domain/videos';
import type { VideoEvent, VideoEventClip, VideoEventData } from '../webhooks/event.ts';

/** The video's logo as the request gave it (defaults applied), or null. */
function publicLogo(video: VideoRecord) {
  const logo = logoOf(video);
  return logo ? { url: logo.url, position: logo.position, size: logo.size, opacity: logo.opacity } : null;
}

/** The answer to a create (202): the new video's id and where to watch it. */
export function toCreatedVideo(created: CreatedVideo, baseUrl: string) {
  const url = `${baseUrl}/v1/video/${created.videoId}`;
  return {
    video_id: created.videoId,
    status: created.status,
    create_video: created.createVideo,
    clips: created.clipCount,
    created_at: created.createdAt,
    url,
    test: created.test,
  };
}

/** How callers see a video (GET /v1/video/{id}, the list, and the webhook's clips). */
export function toPublicVideo(video: VideoRecord, baseUrl: string, download?: PresignedLink, poster?: PresignedLink, captions?: CaptionLinks) {
  return {
    video_id: video.videoId,
    url: `${baseUrl}/v1/video/${video.videoId}`,
    status: video.status,
    create_video: video.createVideo,
    test: video.test === true,
    ...publicShape(video),
    captions: captionModeOf(video),
    logo: publicLogo(video),
    ...(video.clips[0]?.theme && { theme: toPublicTheme(video.clips[0].theme) }),
    // A batch's video: its batch and row (GET /v1/batches/{id} lists the batch's videos).
    ...(video.batch && { batch_id: video.batch.batchId, row: video.batch.row }),
    created_at: video.createdAt,
    updated_at: video.updatedAt,
    completed_at: video.completedAt ?? null,
    progress: { clips_total: video.clipCount, clips_rendered: video.renderedCount },
    clips: publicClips(video),
    music: publicMusic(video),
    output: video.output
      ? {
          kind: video.output.kind,
          content_type: video.output.contentType,
          duration_seconds: video.output.durationSeconds,
          size_bytes: video.output.sizeBytes,
          download_url: download?.url ?? null,
          download_url_expires_at: download?.expiresAt ?? null,
          /** A JPEG of the video's own size, once the first clip's entry transition is over (videos only). */
          thumbnail_url: poster?.url ?? null,
          /** The captions as WebVTT and SRT, and every spoken word's time as JSON (presigned like the download). */
          captions: captions ? publicCaptionLinks(captions) : null,
          /** Stable: redirects (with your key) to a fresh link whenever you need one. */
          download_endpoint: `${baseUrl}/v1/video/${video.videoId}/download`,
        }
      : null,
    error: video.error ? { code: video.error.code, message: video.error.message, clip_index: video.error.clipIndex ?? null } : null,
    webhook: {
      url: video.webhookUrl,
      state: video.delivery.state,
      attempts: presentAttempts(video.delivery.attempts),
    },
  };
}

/** A webhook's delivery attempts as callers see them (a video's `webhook`, a bot's `webhook_delivery`). */
export const presentAttempts = (attempts: DeliveryAttempt[]) =>
  attempts.map((a) => ({ attempt: a.attempt, at: a.at, status_code: a.statusCode ?? null, error: a.error ?? null, duration_ms: a.durationMs }));

/** The video's aspect ratio and resolution (a voice-only video has them too: its clips may be kept and reused). */
function publicShape(video: VideoRecord) {
  const { shape } = video;
  return { aspect_ratio: shape.aspectRatio, resolution: shape.resolution };
}

/** The video's music as asked for (its defaults applied), or null. */
function publicMusic({ music }: VideoRecord) {
  if (!music) return null;
  return music.url !== undefined ? { url: music.url, volume: music.volume } : { preset: music.preset, volume: music.volume };
}

function publicClips(video: VideoRecord) {
  return video.clips.map((clip) => {
    const result = video.clipResults[String(clip.index)];
    return {
      index: clip.index,
      clip_name: clip.clipName,
      bot_uid: clip.botUid,
      text: clip.text,
      ...(clip.voice !== undefined && { voice: clip.voice }),
      ...(clip.overlays?.length && { overlays: clip.overlays.map(toPublicOverlay) }),
      status: clipStatusOf(video, clip.index),
      duration_seconds: result?.durationSeconds ?? null,
      render_seconds: result?.renderMs !== undefined ? result.renderMs / 1000 : null,
      cached: result?.cached ?? false,
      ...(clip.reusable && result?.contentHash ? { clip_uid: keptClipUid(result.contentHash) } : {}),
    };
  });
}

/**
 * Builds the event of a terminal video. `links` is the presigned URL of the output (completed videos only).
 * `now` is the event time when the record has no completedAt. Throws if the video is not terminal.
 */
export function buildVideoEvent(
  video: VideoRecord,
  links: { url?: string; expiresAt?: string; posterUrl?: string; captions?: PublicCaptionLinks },
  now: Date,
): VideoEvent {
  if (video.status !== 'completed' && video.status !== 'failed') throw new Error(`video ${video.videoId} is ${video.status}, not terminal`);
  const clips: VideoEventClip[] = [...video.clips]
    .sort((a, b) => a.index - b.index)
    .map((clip, position) => {
      const result = video.clipResults[String(clip.index)];
      const duration = result?.durationSeconds ?? video.output?.clipDurations[position];
      return {
        index: clip.index,
        clip_name: clip.clipName,
        bot_uid: clip.botUid,
        ...(clip.voice !== undefined && { voice: clip.voice }),
        duration_seconds: duration ?? null,
        status: clipStatusOf(video, clip.index),
      };
    });
  // `captions` here is the caption files' links (below): the video's choice is `captions_mode`.
  const data: VideoEventData = {
    video_id: video.videoId,
    status: video.status,
    create_video: video.createVideo,
    test: video.test === true,
    ...publicShape(video),
    captions_mode: captionModeOf(video),
    clips,
  };
  if (video.status === 'completed') {
    if (links.url) data[video.createVideo ? 'video_url' : 'audio_url'] = links.url;
    if (links.url && links.expiresAt) data.url_expires_at = links.expiresAt;
    if (links.posterUrl) data.thumbnail_url = links.posterUrl;
    if (links.captions) data.captions = links.captions;
    if (video.output) {
      data.duration_seconds = video.output.durationSeconds;
      data.size_bytes = video.output.sizeBytes;
    }
  } else {
    const error = video.error ?? { code: 'internal_error', message: 'the video could not be produced' };
    data.error = { code: error.code, message: error.message, ...(error.clipIndex !== undefined ? { clip_index: error.clipIndex } : {}) };
  }
  return { type: eventTypeFor(video.status), timestamp: video.completedAt ?? now.toISOString(), data };
}
