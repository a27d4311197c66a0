import type { CaptionMode } from './choices.ts';
import type { ClipSpec, Logo } from './clip.ts';
import type { MusicSpec } from './music.ts';
import type { Shape } from './shape.ts';

/** queued → rendering → (assembling) → completed, or → failed from any non-terminal state. */
export const VIDEO_STATUSES = ['queued', 'rendering', 'assembling', 'completed', 'failed'] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];
const TERMINAL_STATUSES: readonly VideoStatus[] = ['completed', 'failed'];

/** `cancelled`: the clip of a failed video that was not rendered and did not cause the failure (it never will be). */
export const CLIP_STATUSES = ['queued', 'rendering', 'rendered', 'failed', 'cancelled'] as const;
export type ClipStatus = (typeof CLIP_STATUSES)[number];

/** What the render of one clip produced. */
export interface ClipResult {
  status: ClipStatus;
  /** Content address of the rendered clip (see the render cache). */
  contentHash?: string;
  objectKey?: string;
  durationSeconds?: number;
  /**
   * A rendering clip's recording's length once prepared (trimmed), before it is aligned and drawn: what the video's
   * length is checked against while its clips render (overlong-video.ts).
   */
  recordingSeconds?: number;
  /** True when the clip was found already rendered and was not rendered again. */
  cached?: boolean;
  /** Wall time of this clip's render (download, speech, compositing, encoding, upload), when it was rendered. */
  renderMs?: number;
}

export interface VideoError {
  code: string;
  message: string;
  clipIndex?: number;
}

export interface VideoOutput {
  kind: 'video' | 'audio';
  objectKey: string;
  contentType: string;
  durationSeconds: number;
  sizeBytes: number;
  clipDurations: number[];
  /** A JPEG poster of the video (its first clip after the entry transition); videos only. */
  posterKey?: string;
  /**
   * The video's captions, as WebVTT and SubRip files, and its spoken words as JSON (`wordsKey` absent on a record
   * that names no words file).
   */
  captions?: { vttKey: string; srtKey: string; wordsKey?: string };
}

/** Every object a completed video's output consists of (deleted with the video). */
export const outputObjectKeys = (output: VideoOutput): string[] =>
  [output.objectKey, output.posterKey, output.captions?.vttKey, output.captions?.srtKey, output.captions?.wordsKey].filter(
    (key): key is string => key !== undefined,
  );

/** One attempt to deliver the webhook event. */
export interface DeliveryAttempt {
  attempt: number;
  at: string;
  statusCode?: number;
  error?: string;
  durationMs: number;
}

/** `none`: the video sends no event of its own (a batch's video, unless the batch asked for `notify_each`). */
export type DeliveryState = 'pending' | 'delivering' | 'delivered' | 'failed' | 'none';

/** The stored video: the single source of truth for a render job. */
export interface VideoRecord {
  videoId: string;
  tenantId: string;
  /** The API key that created it: its webhook secret signs the events. */
  keyId: string;
  status: VideoStatus;
  createVideo: boolean;
  /** Aspect ratio and resolution of every clip. */
  shape: Shape;
  webhookUrl: string;
  /** A video made for a row of a batch (POST /v1/templates/{uid}/batches). */
  batch?: { batchId: string; row: number };
  clips: ClipSpec[];
  /** Made with a test key (domain/test-mode.ts): 360p, marked TEST, at most 60 s, outside the live account. */
  test?: true;
  /** Music under the whole video, mixed at assembly (no clip's render depends on it). */
  music?: MusicSpec;
  clipResults: Record<string, ClipResult>;
  clipCount: number;
  renderedCount: number;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
  /** Epoch seconds after which the sweeper fails it if still unfinished. */
  deadlineAt: number;
  /** Epoch seconds until which one assembler holds the video's assembly (see VideoRepository.claimAssembly). */
  assemblyLeaseUntil?: number;
  output?: VideoOutput;
  error?: VideoError;
  /**
   * `chainId`: the queue message that carries the current chain of attempts. Another message with the same
   * event (a re-queue by the sweeper while the first was only late) is a duplicate and is dropped.
   */
  delivery: { state: DeliveryState; attempts: DeliveryAttempt[]; eventId?: string; chainId?: string };
}

/** The video's `captions` choice: every clip of a video that burns its captions carries `captions: "burn"`. */
export const captionModeOf = (video: Pick<VideoRecord, 'clips'>): CaptionMode =>
  video.clips.some((clip) => clip.captions === 'burn') ? 'burn' : 'none';

/** The video's `logo`: every clip of a video with a logo carries it (the same one). */
export const logoOf = (video: Pick<VideoRecord, 'clips'>): Logo | undefined => video.clips.find((clip) => clip.logo)?.logo;

export const isTerminal = (status: VideoStatus) => TERMINAL_STATUSES.includes(status);

/** The webhook events a video's outcomes raise. */
export type VideoEventType = 'video.completed' | 'video.failed';

export const eventTypeFor = (status: 'completed' | 'failed'): VideoEventType => (status === 'completed' ? 'video.completed' : 'video.failed');

/** `evt_<videoId>_<completed|failed>`: the same for every delivery of one outcome, so receivers can drop duplicates. */
export function eventIdFor(videoId: string, type: VideoEventType | 'completed' | 'failed'): string {
  return `evt_${videoId}_${type.replace(/^video\./, '')}`;
}

/**
 * A clip's status as callers see it. A failed video's clips end too: the one that failed it is `failed`, the
 * others not rendered are `cancelled` (a render still running finds the video failed and stands down).
 */
export function clipStatusOf(video: Pick<VideoRecord, 'status' | 'clipResults' | 'error'>, index: number): ClipStatus {
  const status = video.clipResults[String(index)]?.status ?? 'queued';
  if (video.status !== 'failed' || status === 'rendered' || status === 'failed') return status;
  return video.error?.clipIndex === index ? 'failed' : 'cancelled';
}
