/**
 * The console's one way to the API: the public routes, with the key the person entered as a bearer token, on the
 * origin that served the page. Errors keep the API's `details[].path`, so the form can show each next to its field.
 */
import type { FootageWarning } from '#domain/footage-warnings';

export interface Problem {
  path: string;
  message: string;
}

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Problem[] = [],
  ) {
    super(message);
  }
}

/**
 * Where the API is: the page's own path ("/" locally, "/prod/" through API Gateway's stage URL). A page opened
 * as "/prod" (no slash) still resolves to "/prod/".
 */
const apiBase = (pathname = location.pathname) => (pathname.endsWith('/') ? pathname : `${pathname}/`);
export const apiOrigin = () => `${location.origin}${apiBase()}`.replace(/\/$/, '');

/**
 * One API call. A body is sent as JSON, or, when it is a FormData (files: a bot's photo), as multipart/form-data
 * with the boundary the browser chooses (so no Content-Type is set here).
 */
export async function api<T>(key: string, method: string, path: string, body?: unknown): Promise<T> {
  const multipart = body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(`${apiBase()}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined || multipart ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiRequestError(0, 'network_error', 'The API could not be reached. Is the service running?');
  }
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: reported below
  }
  if (!response.ok) {
    const error = parsed?.error;
    // API Gateway refuses a body over its limit itself, before vidbot sees it, without the API's error shape.
    if (response.status === 413 && !error)
      throw new ApiRequestError(413, 'request_too_large', 'The request is too large for the API: send a smaller file, or give its URL instead.');
    throw new ApiRequestError(
      response.status,
      error?.code ?? 'http_error',
      error?.message ?? `The API answered ${response.status}.`,
      Array.isArray(error?.details) ? error.details : [],
    );
  }
  return parsed as T;
}

// --- The API's shapes, as far as the console reads them ------------------------------------------------------

export type BotStatus = 'preparing' | 'ready' | 'failed';

export interface Bot {
  uid: string;
  name: string;
  description: string;
  /** A voice id (`espeak:es`). */
  voice: string;
  default_position: string;
  preview_image_url: string | null;
  built_in: boolean;
  /** What the bot is made from. */
  kind?: 'built_in' | 'photo' | 'drawn' | 'video';
  status: BotStatus;
  error?: { code: string; message: string } | null;
  /** A ready video bot's: how long its recording plays, whether its background can be removed, what it lacks. */
  footage?: { recording_seconds: number; background_removable: boolean; warnings?: FootageWarning[] };
  /** A bot of the account with a webhook: where its bot.ready / bot.failed event went. */
  webhook?: string;
  webhook_delivery?: {
    event_id: string;
    state: string;
    attempts: { attempt: number; at: string; status_code: number | null; error: string | null }[];
  };
  /** A bot of the account: when it last changed (settled, for a ready or failed one). */
  updated_at?: string;
}

type VideoStatus = 'queued' | 'rendering' | 'assembling' | 'completed' | 'failed';

export interface Video {
  video_id: string;
  status: VideoStatus;
  create_video: boolean;
  aspect_ratio?: string;
  resolution?: string;
  /** "burn" when the captions are drawn into the picture (absent from answers before it was shown). */
  captions?: 'none' | 'burn';
  created_at: string;
  completed_at: string | null;
  progress: { clips_total: number; clips_rendered: number };
  clips: {
    index: number;
    clip_name: string;
    bot_uid: string;
    text: string;
    voice?: string;
    status: string;
    duration_seconds: number | null;
    render_seconds: number | null;
    cached: boolean;
    clip_uid?: string;
  }[];
  output: {
    kind: 'video' | 'audio';
    content_type: string;
    duration_seconds: number;
    size_bytes: number;
    download_url: string | null;
    download_url_expires_at: string | null;
    thumbnail_url?: string | null;
    captions?: { vtt_url: string; srt_url: string; words_url?: string } | null;
  } | null;
  error: { code: string; message: string; clip_index: number | null } | null;
  webhook: {
    url: string;
    state: string;
    attempts: { attempt: number; at: string; status_code: number | null; error: string | null; duration_ms: number }[];
  };
}

export interface InboxEvent {
  webhook_id: string;
  type: string | null;
  received_at: string;
  signature_verified: boolean;
  event: any;
  payload: string;
}

export interface KeptClip {
  clip_uid: string;
  clip_name: string;
  bot_uid: string;
  /** The clip's own voice, when its request named one. */
  voice?: string;
  kind: 'video' | 'audio';
  duration_seconds: number;
  created_at: string;
}

export interface Account {
  account_id: string;
  name: string;
  created_at: string;
  key_id: string;
  /** A test key's account: its videos are 360p, marked TEST (docs/test-keys.md). */
  test: boolean;
  videos: { total: number; by_status: Record<string, number>; complete: boolean };
}

export const isFinished = (video: Pick<Video, 'status'>) => video.status === 'completed' || video.status === 'failed';

export interface TemplateVariable {
  name: string;
  required: boolean;
  default?: string;
}

export interface Template {
  uid: string;
  name: string;
  create_video?: boolean;
  aspect_ratio?: string;
  resolution?: string;
  captions?: string;
  clips: Record<string, unknown>[];
  variables: TemplateVariable[];
  created_at: string;
  updated_at: string;
}

type BatchStatus = 'queued' | 'running' | 'completed' | 'completed_with_failures' | 'failed' | 'cancelled';

export interface Batch {
  batch_id: string;
  template_uid: string;
  template_name: string;
  status: BatchStatus;
  rows: number;
  counts: { pending: number; in_progress: number; completed: number; failed: number; cancelled: number };
  created_at: string;
  completed_at: string | null;
  cancel_requested: boolean;
  notify_each: boolean;
  webhook: { url: string; state: string; attempts: { attempt: number; at: string; status_code: number | null; error: string | null }[] };
}

/** One row of a batch as GET /v1/batches/{id} pages them under `videos`. */
export interface BatchRowVideo {
  row: number;
  status: string;
  video_id: string | null;
  clip_name: string | null;
  text: string | null;
  /** What the finished file is: a video (MP4) or the voice alone (MP3). */
  kind: 'video' | 'audio' | null;
  download_url: string | null;
  thumbnail_url: string | null;
  error: string | null;
}

/** A dry run's answer: every row valid, and the first one filled in. */
export interface BatchPreview {
  rows: number;
  first_row: { row: number; variables: Record<string, string>; clips: Record<string, unknown>[] };
}

export const isBatchSettled = (batch: Pick<Batch, 'status'>) => !['queued', 'running'].includes(batch.status);
