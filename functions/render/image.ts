import type { Mode } from '#commons/config';
import { JobFailedError } from '#domain/errors';
import { limits } from '#domain/limits';
import { type PictureBudget, PictureBudgetExceededError } from '#domain/picture-budget';
import { fetchMediaToFile } from '#media/fetch-media';
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

/**
 * Downloads an image drawn over a clip (the logo, an overlay's image) into `path` (functions/media/fetch-media.ts:
 * the address guard, a size and a time limit), then inspects it (a still PNG, JPEG or WebP within the pixel limits, decoded once: see
 * functions/media/image-media.ts). What the caller can fix becomes a JobFailedError `<subject>_invalid`,
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
  await fetchMediaToFile(url, path, {
    mode,
    maxBytes: limits.maxImageLayerBytes,
    timeoutMs: limits.imageLayerTimeoutMs,
    code: subject.code,
    noun: { file: subject.name, url: `the URL of ${subject.name}` },
    ownCodes: true,
  });
  try {
    return await inspectImage(path, fit, budget);
  } catch (error) {
    if (error instanceof PictureBudgetExceededError) throw pictureBudgetFailure(error);
    if (error instanceof MediaRejectedError) throw new JobFailedError(`${subject.code}_invalid`, `${subject.name} ${error.reason}`);
    if (error instanceof MediaBudgetError)
      throw new JobFailedError(`${subject.code}_invalid`, `${subject.name} could not be decoded within ${error.limitSeconds} s; it may be damaged`);
    throw error;
  }
}

/** The clip's pictures declare more pixels than a clip may decode (limits.maxClipPicturePixels). */
export const pictureBudgetFailure = (error: PictureBudgetExceededError) =>
  new JobFailedError(
    'clip_pictures_too_large',
    `its background, logo and overlays' images declare ${(error.pixels / 1e6).toFixed(1)} million pixels in all; a clip may have at most ${error.maxPixels / 1e6} million: use smaller pictures (they are drawn at most as large as the frame)`,
  );
