import { JobFailedError } from '#domain/errors';
import { type PictureBudget, PictureBudgetExceededError } from '#domain/picture-budget';
import type { ObjectStore } from '#domain/ports';
import { type BackgroundMedia, inspectBackground } from '#media/background-media';
import { MediaBudgetError, MediaRejectedError } from '#media/media';
import { backgroundRules, fetchedToFile } from '#media/remote-media';
import { pictureBudgetFailure } from './image.ts';

/**
 * A clip's background as the fetch stage brought it into the bucket (`key`), read into `path` and inspected (accepted
 * format, bounded picture size and frame rate; see functions/media/background-media.ts).
 */
export async function fetchedBackground(
  objects: Pick<ObjectStore, 'getToFile'>,
  key: string,
  path: string,
  workDir: string,
  budget?: PictureBudget,
): Promise<BackgroundMedia> {
  await fetchedToFile(objects, key, path, backgroundRules);
  return inspectBackgroundFile(path, workDir, budget);
}

/**
 * Inspects a downloaded background: what the caller can fix becomes a JobFailedError whose message is ours alone, never
 * ffmpeg's.
 * @internal Exported for its tests (the fetch stage downloads, this inspects).
 */
export async function inspectBackgroundFile(path: string, workDir: string, budget?: PictureBudget): Promise<BackgroundMedia> {
  try {
    return await inspectBackground(path, workDir, budget);
  } catch (error) {
    if (error instanceof PictureBudgetExceededError) throw pictureBudgetFailure(error);
    if (error instanceof MediaRejectedError) throw new JobFailedError('background_invalid', `the background ${error.reason}`);
    // Probing or remuxing it went over its watchdog: the file, not our service, is at fault.
    if (error instanceof MediaBudgetError)
      throw new JobFailedError(
        'background_invalid',
        `the background could not be read within ${error.limitSeconds} s; it may be damaged or too demanding to decode`,
      );
    throw error;
  }
}
