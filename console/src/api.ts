/**
 * The console's one way to the API: the public routes, with the key the person entered as a bearer token, on the
 * origin that served the page. Errors keep the API's `details[].path`, so the form can show each next to its field.
 */

export interface Problem {
  path: string;
  message: string;
}

export class ApiFailure extends Error {
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

export async function api<T>(key: string, method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${apiBase()}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiFailure(0, 'network_error', 'The API could not be reached. Is the service running?');
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
    throw new ApiFailure(response.status, error?.code ?? 'http_error', error?.message ?? `The API answered ${response.status}.`, Array.isArray(error?.details) ? error.details : []);
  }
  return parsed as T;
}

// --- The API's shapes, as far as the console reads them ------------------------------------------------------

/** One of GET /v1/voices. */
export interface Voice {
  id: string;
  language: string;
  language_name: string;
  gender: 'female' | 'male' | null;
  engine: string;
}

export interface Bot {
  uid: string;
  name: string;
  description: string;
  /** The voice id it speaks with in this deployment (one of GET /v1/voices). */
  voice: string;
  default_position: string;
  preview_image_url: string | null;
}

type VideoStatus = 'queued' | 'rendering' | 'assembling' | 'completed' | 'failed';

export interface Video {
  video_id: string;
  status: VideoStatus;
  create_video: boolean;
  created_at: string;
  completed_at: string | null;
  progress: { clips_total: number; clips_rendered: number };
  clips: { index: number; clip_name: string; bot_uid: string; status: string; duration_seconds: number | null; render_seconds: number | null; cached: boolean; clip_uid?: string }[];
  output: { kind: 'video' | 'audio'; content_type: string; duration_seconds: number; size_bytes: number; download_url: string | null; download_url_expires_at: string | null; thumbnail_url?: string | null } | null;
  error: { code: string; message: string; clip_index: number | null } | null;
  webhook: { url: string; state: string; attempts: { attempt: number; at: string; status_code: number | null; error: string | null; duration_ms: number }[] };
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
  kind: 'video' | 'audio';
  duration_seconds: number;
  created_at: string;
}

export interface Account {
  account_id: string;
  name: string;
  created_at: string;
  key_id: string;
  videos: { total: number; by_status: Record<string, number>; complete: boolean };
}

export const isFinished = (video: Pick<Video, 'status'>) => video.status === 'completed' || video.status === 'failed';
