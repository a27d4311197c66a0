import type { Mode } from '#commons/config';
import { FetchError, HttpStatusError } from '#commons/net/errors';
import { guardedFetch, MEDIA_PACE } from '#commons/net/guarded-fetch';
import { isTransientError } from '#commons/net/transient';
import { JobFailure } from '#domain/errors';
import { limits } from '#domain/limits';

/** What a bot is made from by URL: a photo (image_url) or a recording (video_url), with their limits and words. */
const FILES = {
  image: { noun: 'image', maxBytes: limits.maxBotImageBytes, timeoutMs: limits.botImageTimeoutMs },
  video: { noun: 'recording', maxBytes: limits.maxRecordingBytes, timeoutMs: limits.botVideoTimeoutMs },
} as const;

/**
 * Downloads a bot's image_url or video_url through the address guard (the backgrounds' guarded fetch: no
 * link-local or metadata addresses, no private ranges on AWS, every redirect re-checked), within its size limit.
 * What the caller can fix fails the bot with our words (`image_…` or `video_…`, never the URL or the network
 * stack's); a passing fault, a 5xx or a 429 is rethrown for a retry.
 */
async function fetchBotFile(url: string, mode: Mode, what: keyof typeof FILES): Promise<Buffer> {
  const { noun, maxBytes, timeoutMs } = FILES[what];
  try {
    const response = await guardedFetch(url, { mode, timeoutMs, maxBytes, maxRedirects: 5, pace: MEDIA_PACE });
    return response.body ?? Buffer.alloc(0);
  } catch (error) {
    if (isTransientError(error)) throw error;
    if (error instanceof HttpStatusError) {
      if (error.status >= 500 || error.status === 429) throw error;
      throw new JobFailure(`${what}_unavailable`, `the ${noun} URL answered HTTP ${error.status}`);
    }
    if (error instanceof FetchError) {
      if (error.code === 'too_large') throw new JobFailure(`${what}_too_large`, `the ${noun} is larger than ${maxBytes / 1024 / 1024} MB`);
      if (error.code === 'address_not_allowed')
        throw new JobFailure(`${what}_unavailable`, `the ${noun} URL leads to an address we do not fetch from (private, loopback or link-local)`);
      if (error.code === 'timeout') throw new JobFailure(`${what}_unavailable`, `the ${noun} did not download within ${timeoutMs / 1000} s`);
      throw new JobFailure(
        `${what}_unavailable`,
        `the ${noun} URL could not be fetched (no such host, a failed connection, too many redirects or not an http(s) URL)`,
      );
    }
    throw error;
  }
}

export const fetchBotImage = (url: string, mode: Mode) => fetchBotFile(url, mode, 'image');
export const fetchRecording = (url: string, mode: Mode) => fetchBotFile(url, mode, 'video');
