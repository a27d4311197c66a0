import type { Mode } from '#commons/config';
import { JobFailedError } from '#domain/errors';
import { limits } from '#domain/limits';
import { type PictureBudget, PictureBudgetExceededError } from '#domain/picture-budget';
import { type BackgroundMedia, inspectBackground } from '#media/background-media';
import { fetchMediaToFile } from '#media/fetch-media';
import { MediaBudgetError, MediaRejectedError } from '#media/media';
import { pictureBudgetFailure } from './image.ts';

/**
 * Downloads a clip's background (functions/media/fetch-media.ts: the address guard, a size and a time limit), then
 * inspects it (accepted format, bounded picture size and frame rate; see functions/media/background-media.ts). What
 * the caller can fix becomes a JobFailedError whose message is ours alone, never ffmpeg's.
 */
export async function fetchBackground(url: string, path: string, workDir: string, mode: Mode, budget?: PictureBudget): Promise<BackgroundMedia> {
  await fetchMediaToFile(url, path, {
    mode,
    maxBytes: limits.maxBackgroundBytes,
    timeoutMs: limits.backgroundTimeoutMs,
    code: 'background',
    noun: { file: 'the background', url: 'the background URL' },
    ownCodes: true,
  });
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
