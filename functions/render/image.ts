import type { Mode } from '#commons/config';
import { FetchError, HttpStatusError } from '#commons/net/errors';
import { guardedFetch, MEDIA_PACE } from '#commons/net/guarded-fetch';
import { isTransientError } from '#commons/net/transient';
import { JobFailure } from '#domain/errors';
import { limits } from '#domain/limits';
import { type PictureBudget, PictureBudgetExceeded } from '#domain/picture-budget';
import { type ImageMedia, inspectImage, type PictureFit } from '#media/image-media';
import { MediaBudgetError, MediaRejectedError } from '#media/media';

/**
 * Whose image it is, for the clip's failure: `code` prefixes its codes (`logo` gives `logo_invalid`,
 * `overlay_image` gives `overlay_image_invalid`), `name` begins its messages ("the logo", "the image of overlay 2").
 */
export interface ImageSubject {
  code: string;
  name: string;
}

export const LOGO: ImageSubject = { code: 'logo', name: 'the logo' };
/** The image of a clip's overlay `index` (0-based; its message counts from 1, as a person does). */
export const overlayImageSubject = (index: number): ImageSubject => ({ code: 'overlay_image', name: `the image of overlay ${index + 1}` });

/** The codes and messages of what the download can end in that the caller can fix. */
function fetchFailure(error: FetchError, { code, name }: ImageSubject): JobFailure {
  switch (error.code) {
    case 'too_large':
      return new JobFailure(`${code}_too_large`, `${name} is larger than ${limits.maxImageLayerBytes / 1024 / 1024} MiB`);
    case 'timeout':
      return new JobFailure(`${code}_timeout`, `${name} did not download within ${limits.imageLayerTimeoutMs / 1000} s; use a faster host`);
    case 'address_not_allowed':
      return new JobFailure(`${code}_not_allowed`, `the URL of ${name} leads to an address we do not fetch from (private, loopback or link-local)`);
    case 'invalid_url':
      return new JobFailure(`${code}_unavailable`, `the URL of ${name} (or a redirect it gave) is not a valid http(s) URL`);
    case 'too_many_redirects':
      return new JobFailure(`${code}_unavailable`, `the URL of ${name} redirected too many times`);
    case 'network_error':
      return new JobFailure(`${code}_unavailable`, `the URL of ${name} could not be reached (no such host, or the connection failed)`);
    case 'http_error':
      return new JobFailure(`${code}_unavailable`, `the URL of ${name} did not answer with the file`);
  }
}

/**
 * Downloads an image drawn over a clip (the logo, an overlay's image) into `path` through the address guard (no
 * link-local or metadata addresses; no private ranges on AWS; every redirect re-checked), with a size and a time
 * limit, then inspects it (a still PNG, JPEG or WebP within the pixel limits, decoded once: see
 * functions/media/image-media.ts). What the caller can fix becomes a JobFailure `<subject>_invalid`,
 * `_unavailable`, `_too_large`, `_timeout` or `_not_allowed` whose message is ours alone: never the URL (a
 * redirect may have named an internal host), never the network stack's or ffmpeg's words. A passing network
 * fault, a 5xx or a 429 is rethrown for a retry. A picture larger than `fit` is scaled down to it; one over what
 * is left of the clip's `budget` fails the clip with `clip_pictures_too_large`.
 */
export async function fetchImage(
  url: string,
  path: string,
  mode: Mode,
  subject: ImageSubject,
  fit?: PictureFit,
  budget?: PictureBudget,
): Promise<ImageMedia> {
  try {
    await guardedFetch(url, {
      mode,
      timeoutMs: limits.imageLayerTimeoutMs,
      maxBytes: limits.maxImageLayerBytes,
      toFile: path,
      maxRedirects: 5,
      pace: MEDIA_PACE,
    });
  } catch (error) {
    if (isTransientError(error)) throw error;
    if (error instanceof HttpStatusError) {
      if (error.status >= 500 || error.status === 429) throw error; // their server may recover: retried
      throw new JobFailure(`${subject.code}_unavailable`, `the URL of ${subject.name} answered HTTP ${error.status}`);
    }
    if (error instanceof FetchError) throw fetchFailure(error, subject);
    throw error;
  }
  try {
    return await inspectImage(path, fit, budget);
  } catch (error) {
    if (error instanceof PictureBudgetExceeded) throw pictureBudgetFailure(error);
    if (error instanceof MediaRejectedError) throw new JobFailure(`${subject.code}_invalid`, `${subject.name} ${error.reason}`);
    if (error instanceof MediaBudgetError)
      throw new JobFailure(`${subject.code}_invalid`, `${subject.name} could not be decoded within ${error.limitSeconds} s; it may be damaged`);
    throw error;
  }
}

/** The clip's pictures declare more pixels than a clip may decode (limits.maxClipPicturePixels). */
export const pictureBudgetFailure = (error: PictureBudgetExceeded) =>
  new JobFailure(
    'clip_pictures_too_large',
    `its background, logo and overlays' images declare ${(error.pixels / 1e6).toFixed(1)} million pixels in all; a clip may have at most ${error.maxPixels / 1e6} million: use smaller pictures (they are drawn at most as large as the frame)`,
  );
