import type { Mode } from '#commons/config';
import { FetchError, HttpStatusError } from '#commons/net/errors';
import { guardedFetch, MEDIA_PACE } from '#commons/net/guarded-fetch';
import { isTransientError } from '#commons/net/transient';
import { JobFailure } from '#domain/errors';
import { limits } from '#domain/limits';

/**
 * Downloads a bot's image_url through the address guard (the backgrounds' guarded fetch: no link-local or
 * metadata addresses, no private ranges on AWS, every redirect re-checked), at most limits.maxBotImageBytes.
 * What the caller can fix fails the bot with our words (never the URL or the network stack's); a passing fault,
 * a 5xx or a 429 is rethrown for a retry.
 */
export async function fetchBotImage(url: string, mode: Mode): Promise<Buffer> {
  try {
    const response = await guardedFetch(url, {
      mode,
      timeoutMs: limits.botImageTimeoutMs,
      maxBytes: limits.maxBotImageBytes,
      maxRedirects: 5,
      pace: MEDIA_PACE,
    });
    return response.body ?? Buffer.alloc(0);
  } catch (error) {
    if (isTransientError(error)) throw error;
    if (error instanceof HttpStatusError) {
      if (error.status >= 500 || error.status === 429) throw error;
      throw new JobFailure('image_unavailable', `the image URL answered HTTP ${error.status}`);
    }
    if (error instanceof FetchError) {
      if (error.code === 'too_large') throw new JobFailure('image_too_large', `the image is larger than ${limits.maxBotImageBytes / 1024 / 1024} MB`);
      if (error.code === 'address_not_allowed')
        throw new JobFailure('image_unavailable', 'the image URL leads to an address we do not fetch from (private, loopback or link-local)');
      if (error.code === 'timeout')
        throw new JobFailure('image_unavailable', `the image did not download within ${limits.botImageTimeoutMs / 1000} s`);
      throw new JobFailure(
        'image_unavailable',
        'the image URL could not be fetched (no such host, a failed connection, too many redirects or not an http(s) URL)',
      );
    }
    throw error;
  }
}
