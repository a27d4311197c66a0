import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JobFailedError } from '#domain/errors';
import type { MusicSpec } from '#domain/music';
import type { ObjectStore } from '#domain/ports';
import { MediaBudgetError, MediaRejectedError } from '#media/media';
import { decodeMusic } from '#media/music';
import { presetWav } from '#media/music-presets';
import { fetchedToFile, musicRules } from '#media/remote-media';

/**
 * The video's music bed as a WAV in `workDir`, at most `seconds` long: a preset made here, or the caller's file as the
 * fetch stage stored it under `fetchedKey`, identified and decoded (decodeMusicFile) by `deadline` (ms since the epoch).
 */
export async function musicBed(
  music: MusicSpec,
  workDir: string,
  seconds: number,
  fetched: { key: string; objects: Pick<ObjectStore, 'getToFile'> },
  deadline?: number,
): Promise<string> {
  if (music.preset !== undefined) {
    const path = join(workDir, `music-${music.preset}.wav`);
    await writeFile(path, presetWav(music.preset));
    return path;
  }
  const download = join(workDir, 'music-download');
  await fetchedToFile(fetched.objects, fetched.key, download, musicRules);
  return decodeMusicFile(download, workDir, seconds, deadline);
}

/**
 * A caller's music file identified and decoded (functions/media/music.ts). What the caller can fix becomes a
 * JobFailedError whose message is ours alone, never ffmpeg's words.
 * @internal Exported for its tests (the fetch stage downloads, this inspects).
 */
export async function decodeMusicFile(download: string, workDir: string, seconds: number, deadline?: number): Promise<string> {
  try {
    return await decodeMusic(download, workDir, seconds, deadline);
  } catch (error) {
    if (error instanceof MediaRejectedError) throw new JobFailedError('music_invalid', `the music file ${error.reason}`);
    if (error instanceof MediaBudgetError)
      throw new JobFailedError(
        'music_invalid',
        `the music file could not be read within ${error.limitSeconds} s; it may be damaged or too demanding to decode`,
      );
    throw error;
  }
}
