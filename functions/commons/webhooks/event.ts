/**
 * The webhook event vidbot sends when a video reaches a terminal state, one per outcome:
 *
 * ```json
 * {
 *   "type": "video.completed",
 *   "timestamp": "2025-01-01T12:00:00.000Z",
 *   "data": {
 *     "video_id": "vid_...", "status": "completed", "create_video": true, "aspect_ratio": "16:9", "resolution": "720p",
 *     "captions_mode": "none",
 *     "video_url": "https://...", "url_expires_at": "2025-01-08T12:00:00.000Z",
 *     "captions": { "vtt_url": "https://...", "srt_url": "https://...", "words_url": "https://..." },
 *     "duration_seconds": 12.4, "size_bytes": 1843200,
 *     "clips": [{ "index": 0, "clip_name": "intro", "bot_uid": "bot_1", "voice": "espeak:es+f3", "duration_seconds": 6.2, "status": "rendered" }]
 *   }
 * }
 * ```
 *
 * A voice-only video carries `audio_url` instead of `video_url`. A failed one carries no URL, duration or size,
 * and has `"error": { "code", "message", "clip_index"? }`. Fields that do not apply are left out, never null
 * (except a clip's `duration_seconds`, null when the clip was not rendered); a clip's `voice` is there when its
 * request named one.
 *
 * `timestamp` is when the outcome happened (the video's completedAt), not when this attempt is sent: the
 * `webhook-timestamp` header carries that. The event id (`webhook-id`) is stable per video outcome, so a
 * receiver can drop duplicates of redelivered events.
 */

import type { CaptionMode } from '#domain/choices';
import type { PublicCaptionLinks } from '#domain/links';
import type { AspectRatio, Resolution } from '#domain/shape';
import type { ClipStatus, VideoEventType } from '#domain/video';

export interface VideoEventClip {
  index: number;
  clip_name: string;
  bot_uid: string;
  /** The clip's own voice, when its request named one (else the bot's voice spoke). */
  voice?: string;
  duration_seconds: number | null;
  status: ClipStatus;
}

export interface VideoEventData {
  video_id: string;
  status: 'completed' | 'failed';
  create_video: boolean;
  /** Made with a test key (360p, marked TEST): never a live video. */
  test: boolean;
  aspect_ratio: AspectRatio;
  resolution: Resolution;
  /** The request's `captions`: "burn" when they are drawn into the picture, else "none" (`captions` is the files' links). */
  captions_mode: CaptionMode;
  /** Completed full video: presigned download URL. */
  video_url?: string;
  /** Completed voice-only video: presigned download URL. */
  audio_url?: string;
  url_expires_at?: string;
  /** Completed full video: presigned link to its JPEG poster. */
  thumbnail_url?: string;
  /** Completed video or voice: presigned links to its captions as WebVTT and SRT, and to its words as JSON. */
  captions?: PublicCaptionLinks;
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
 * The event a bot of an account sends when its preparation settles (PUT /v1/bot/{uid} with a `webhook`):
 * `bot.ready` or `bot.failed`, `data` being the bot as GET /v1/bot/{uid} shows it (with `error` when failed). The
 * event id is stable per bot version and outcome.
 */
export interface BotEvent {
  type: 'bot.ready' | 'bot.failed';
  timestamp: string;
  data: Record<string, unknown> & { uid: string; status: 'ready' | 'failed' };
}

/**
 * The event a batch sends once every row has settled (POST /v1/templates/{uid}/batches): `data` is the batch's
 * summary (status, rows, counts by outcome, its URL). The event id is stable per batch.
 */
export interface BatchEvent {
  type: 'batch.completed';
  timestamp: string;
  data: Record<string, unknown> & { batch_id: string; status: string };
}
