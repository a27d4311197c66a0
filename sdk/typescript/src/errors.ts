/** One problem with a request field, as the API names it (`clips[0].text`, `rows[3].first_name`). */
export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * An answer of the API that is not a success: its HTTP status, the API's `code` (`invalid_request`,
 * `rate_limited`, `video_not_ready`, …), the fields at fault, and how long to wait when the API said so.
 */
export class VidbotError extends Error {
  override readonly name = 'VidbotError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldProblem[] = [],
    /** Seconds from Retry-After (429, 503 and a full account), else undefined. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** Builds the error from a failed response and its parsed body (the API's `{ "error": {…} }`, or anything else). */
  static from(response: Response, body: unknown): VidbotError {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
    const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
    const message = typeof error?.message === 'string' ? error.message : `${response.status} ${response.statusText}`.trim();
    const details = Array.isArray(error?.details)
      ? error.details.filter((d): d is FieldProblem => typeof d?.path === 'string' && typeof d?.message === 'string')
      : [];
    return new VidbotError(response.status, code, message, details, retryAfterSeconds(response.headers.get('retry-after')));
  }
}

/** A video that ended `failed` while it was awaited: its error's code and message, and the clip that failed. */
export class VideoFailedError extends Error {
  override readonly name = 'VideoFailedError';
  constructor(
    readonly videoId: string,
    readonly code: string,
    message: string,
    readonly clipIndex?: number,
  ) {
    super(message);
  }
}

/** Waiting took longer than the deadline the caller gave; the video may still finish. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(
    readonly id: string,
    readonly lastStatus: string,
    timeoutMs: number,
  ) {
    super(`${id} is still ${lastStatus} after ${Math.round(timeoutMs / 1000)} s`);
  }
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
