import { JobFailedError } from '#domain/errors';
import { type PictureBudget, PictureBudgetExceededError } from '#domain/picture-budget';
import type { ObjectStore } from '#domain/ports';
import { type ImageMedia, inspectImage, type PictureFit } from '#media/image-media';
import { MediaBudgetError, MediaRejectedError } from '#media/media';
import { fetchedToFile, type ImageSubject, imageRules } from '#media/remote-media';

/**
 * An image drawn over a clip (the logo, an overlay's image) as the fetch stage brought it into the bucket (`key`),
 * read into `path` and inspected (inspectImageFile).
 */
export async function fetchedImage(
  objects: Pick<ObjectStore, 'getToFile'>,
  key: string,
  path: string,
  subject: ImageSubject,
  fit?: PictureFit,
  budget?: PictureBudget,
): Promise<ImageMedia> {
  await fetchedToFile(objects, key, path, imageRules(subject));
  return inspectImageFile(path, subject, fit, budget);
}

/**
 * Inspects a downloaded image (a still PNG, JPEG or WebP within the pixel limits, decoded once: see
 * functions/media/image-media.ts). What the caller can fix becomes a JobFailedError `<subject>_invalid` whose message is
 * ours alone, never ffmpeg's words. A picture larger than `fit` is scaled down to it; one over what is left of the
 * clip's `budget` fails the clip with `clip_pictures_too_large`.
 * @internal Exported for its tests (the fetch stage downloads, this inspects).
 */
export async function inspectImageFile(path: string, subject: ImageSubject, fit?: PictureFit, budget?: PictureBudget): Promise<ImageMedia> {
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
