import type { Mode } from '#commons/config';
import { FetchError, HttpStatusError } from '#commons/net/errors';
import { guardedFetch, MEDIA_PACE } from '#commons/net/guarded-fetch';
import { isTransientError } from '#commons/net/transient';
import { JobFailure } from '#domain/errors';
import { limits } from '#domain/limits';
import { type PictureBudget, PictureBudgetExceeded } from '#domain/picture-budget';
import { type BackgroundMedia, inspectBackground } from '#media/background-media';
import { MediaBudgetError, MediaRejectedError } from '#media/media';
import { pictureBudgetFailure } from './image.ts';

/**
 * Downloads a clip's background through the address guard (no link-local or metadata addresses; no private
 * ranges on AWS; every redirect re-checked), with a size and a time limit, then inspects it (accepted format,
 * bounded picture size and frame rate; see functions/media/background-media.ts). What the caller can fix becomes a JobFailure
 * whose message is ours alone: never the URL (a redirect may have named an internal host), never an error of
 * the network stack or of ffmpeg. A passing network fault is rethrown for a retry.
 */
const FETCH_FAILURES: Record<FetchError['code'], { code: string; message: string }> = {
  too_large: { code: 'background_too_large', message: `the background is larger than ${limits.maxBackgroundBytes / 1024 / 1024} MiB` },
  timeout: {
    code: 'background_timeout',
    message: `the background did not download within ${limits.backgroundTimeoutMs / 1000} s; use a faster host`,
  },
  address_not_allowed: {
    code: 'background_not_allowed',
    message: 'the background URL leads to an address we do not fetch from (private, loopback or link-local)',
  },
  invalid_url: { code: 'background_unavailable', message: 'the background URL (or a redirect it gave) is not a valid http(s) URL' },
  too_many_redirects: { code: 'background_unavailable', message: 'the background URL redirected too many times' },
  network_error: { code: 'background_unavailable', message: 'the background URL could not be reached (no such host, or the connection failed)' },
  http_error: { code: 'background_unavailable', message: 'the background URL did not answer with the file' },
};

export async function fetchBackground(url: string, path: string, workDir: string, mode: Mode, budget?: PictureBudget): Promise<BackgroundMedia> {
  try {
    await guardedFetch(url, {
      mode,
      timeoutMs: limits.backgroundTimeoutMs,
      maxBytes: limits.maxBackgroundBytes,
      toFile: path,
      maxRedirects: 5,
      pace: MEDIA_PACE,
    });
  } catch (error) {
    if (isTransientError(error)) throw error;
    if (error instanceof HttpStatusError) {
      if (error.status >= 500 || error.status === 429) throw error; // their server may recover: retried
      throw new JobFailure('background_unavailable', `the background URL answered HTTP ${error.status}`);
    }
    if (error instanceof FetchError) {
      const failure = FETCH_FAILURES[error.code];
      throw new JobFailure(failure.code, failure.message);
    }
    throw error;
  }
  try {
    return await inspectBackground(path, workDir, budget);
  } catch (error) {
    if (error instanceof PictureBudgetExceeded) throw pictureBudgetFailure(error);
    if (error instanceof MediaRejectedError) throw new JobFailure('background_invalid', `the background ${error.reason}`);
    // Probing or remuxing it went over its watchdog: the file, not our service, is at fault.
    if (error instanceof MediaBudgetError)
      throw new JobFailure(
        'background_invalid',
        `the background could not be read within ${error.limitSeconds} s; it may be damaged or too demanding to decode`,
      );
    throw error;
  }
}
