import { limits } from '#domain/limits';
import type { Mode } from '#commons/config';
import { FetchError, HttpStatusError } from '#commons/net/errors';
import { guardedFetch } from '#commons/net/guarded-fetch';
import { isTransientError } from '#commons/net/transient';
import { ClipFailure } from './clip-job.ts';
import { probe } from './engine/process.ts';

/**
 * Downloads a clip's background through the address guard (no link-local or metadata addresses; no private
 * ranges on AWS; every redirect re-checked), with a size and a time limit, and checks that it is a video.
 * What the caller can fix becomes a ClipFailure; a passing network fault is rethrown for a retry.
 */
/** The URL as it may appear in errors and logs: a presigned background's signature stays out of them. */
const shown = (url: string) => url.replace(/[?#].*$/, '');

export async function fetchBackground(url: string, path: string, mode: Mode): Promise<void> {
  try {
    await guardedFetch(url, { mode, timeoutMs: limits.backgroundTimeoutMs, maxBytes: limits.maxBackgroundBytes, toFile: path, maxRedirects: 5 });
  } catch (error) {
    if (isTransientError(error)) throw error;
    if (error instanceof HttpStatusError) {
      if (error.status >= 500 || error.status === 429) throw error; // their server may recover: retried
      throw new ClipFailure('background_unavailable', `the background ${shown(url)} answered HTTP ${error.status}`);
    }
    if (error instanceof FetchError) {
      const code =
        error.code === 'too_large'
          ? 'background_too_large'
          : error.code === 'timeout'
            ? 'background_timeout'
            : error.code === 'address_not_allowed'
              ? 'background_not_allowed'
              : 'background_unavailable';
      const detail =
        error.code === 'too_large'
          ? `is larger than ${limits.maxBackgroundBytes / 1024 / 1024} MiB`
          : error.code === 'timeout'
            ? `did not download within ${limits.backgroundTimeoutMs / 1000} s`
            : error.message;
      throw new ClipFailure(code, `the background ${shown(url)} ${detail}`);
    }
    throw error;
  }
  const media = await probe(path).catch(() => undefined);
  if (!media?.streams.some((s) => s.codec_type === 'video'))
    throw new ClipFailure('background_invalid', `the background ${shown(url)} is not a video file ffmpeg can read`);
}
