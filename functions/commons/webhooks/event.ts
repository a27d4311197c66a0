/**
 * The webhook event vidbot sends when a video reaches a terminal state, one per outcome:
 *
 * ```json
 * {
 *   "type": "video.completed",
 *   "timestamp": "2025-01-01T12:00:00.000Z",
 *   "data": {
 *     "video_id": "vid_...", "status": "completed", "create_video": true,
 *     "video_url": "https://...", "url_expires_at": "2025-01-08T12:00:00.000Z",
 *     "duration_seconds": 12.4, "size_bytes": 1843200,
 *     "clips": [{ "index": 0, "clip_name": "intro", "bot_uid": "bot_1", "duration_seconds": 6.2, "status": "rendered" }]
 *   }
 * }
 * ```
 *
 * A voice-only video carries `audio_url` instead of `video_url`. A failed one carries no URL, duration or size,
 * and has `"error": { "code", "message", "clip_index"? }`. Fields that do not apply are left out, never null
 * (except a clip's `duration_seconds`, null when the clip was not rendered).
 *
 * `timestamp` is when the outcome happened (the video's completedAt), not when this attempt is sent: the
 * `webhook-timestamp` header carries that. The event id (`webhook-id`) is stable per video outcome, so a
 * receiver can drop duplicates of redelivered events.
 */
import { eventTypeFor, type ClipStatus, type VideoEventType, type VideoRecord } from '#domain/video';

export interface VideoEventClip {
  index: number;
  clip_name: string;
  bot_uid: string;
  duration_seconds: number | null;
  status: ClipStatus;
}

export interface VideoEventData {
  video_id: string;
  status: 'completed' | 'failed';
  create_video: boolean;
  /** Completed full video: presigned download URL. */
  video_url?: string;
  /** Completed voice-only video: presigned download URL. */
  audio_url?: string;
  url_expires_at?: string;
  duration_seconds?: number;
  size_bytes?: number;
  clips: VideoEventClip[];
  error?: { code: string; message: string; clip_index?: number };
}

export interface VideoEvent {
  type: VideoEventType;
  timestamp: string;
  data: VideoEventData;
}

/**
 * Builds the event of a terminal video. `links` is the presigned URL of the output (completed videos only).
 * `now` is the event time when the record has no completedAt. Throws if the video is not terminal.
 */
export function buildVideoEvent(video: VideoRecord, links: { url?: string; expiresAt?: string }, now: Date): VideoEvent {
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
        duration_seconds: duration ?? null,
        status: result?.status ?? 'queued',
      };
    });
  const data: VideoEventData = { video_id: video.videoId, status: video.status, create_video: video.createVideo, clips };
  if (video.status === 'completed') {
    if (links.url) data[video.createVideo ? 'video_url' : 'audio_url'] = links.url;
    if (links.url && links.expiresAt) data.url_expires_at = links.expiresAt;
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
