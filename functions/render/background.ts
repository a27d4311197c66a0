import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { JobFailedError } from '#domain/errors';
import { type PictureBudget, PictureBudgetExceededError } from '#domain/picture-budget';
import type { ObjectStore } from '#domain/ports';
import { type BackgroundMedia, type BackgroundVerdict, type BackgroundVerdicts, inspectBackground } from '#media/background-media';
import { MediaBudgetError, MediaRejectedError } from '#media/media';
import { backgroundRules, fetchedToFile } from '#media/remote-media';
import { pictureBudgetFailure } from './image.ts';

/** How many verdicts an environment keeps (a few hundred bytes each); the oldest goes first. */
const KEPT_VERDICTS = 64;

/**
 * The backgrounds this environment has inspected, by account and the SHA-256 of their bytes: a loop an account sends
 * again (another URL, another video) is not inspected again. Keyed by content, so no URL can pass another file off
 * under a verdict; and by account, so no account learns from a render's speed what another sent.
 */
class KeptVerdicts implements BackgroundVerdicts {
  private readonly verdicts = new Map<string, BackgroundVerdict>();
  get(key: string) {
    return this.verdicts.get(key);
  }
  set(key: string, verdict: BackgroundVerdict) {
    this.verdicts.set(key, verdict);
    if (this.verdicts.size > KEPT_VERDICTS) this.verdicts.delete(this.verdicts.keys().next().value!);
  }
}
const keptVerdicts = new KeptVerdicts();

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * A clip's background as the fetch stage brought it into the bucket (`key`), read into `path` and inspected (accepted
 * format, bounded picture size and frame rate; see functions/media/background-media.ts), unless `account` already
 * had the same bytes inspected in this environment.
 */
export async function fetchedBackground(
  objects: Pick<ObjectStore, 'getToFile'>,
  key: string,
  path: string,
  workDir: string,
  budget?: PictureBudget,
  account?: string,
): Promise<BackgroundMedia> {
  await fetchedToFile(objects, key, path, backgroundRules);
  const known = account === undefined ? undefined : { key: `${account}/${await sha256Of(path)}`, verdicts: keptVerdicts };
  return inspectBackgroundFile(path, workDir, budget, known);
}

/**
 * Inspects a downloaded background: what the caller can fix becomes a JobFailedError whose message is ours alone, never
 * ffmpeg's.
 * @internal Exported for its tests (the fetch stage downloads, this inspects).
 */
export async function inspectBackgroundFile(
  path: string,
  workDir: string,
  budget?: PictureBudget,
  known?: Parameters<typeof inspectBackground>[3],
): Promise<BackgroundMedia> {
  try {
    return await inspectBackground(path, workDir, budget, known);
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
