import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mode } from '#commons/config';
import { JobFailedError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { MusicSpec } from '#domain/music';
import { fetchMediaToFile } from '#media/fetch-media';
import { MediaBudgetError, MediaRejectedError } from '#media/media';
import { decodeMusic } from '#media/music';
import { presetWav } from '#media/music-presets';

/**
 * The video's music bed as a WAV in `workDir`, at most `seconds` long: a preset made here, or the caller's file
 * downloaded (functions/media/fetch-media.ts: the address guard, a size and a time limit), then identified and
 * decoded (functions/media/music.ts). What the caller can fix becomes a JobFailedError whose message is ours alone,
 * never ffmpeg's words.
 */
export async function musicBed(music: MusicSpec, workDir: string, seconds: number, mode: Mode): Promise<string> {
  if (music.preset !== undefined) {
    const path = join(workDir, `music-${music.preset}.wav`);
    await writeFile(path, presetWav(music.preset));
    return path;
  }
  const download = join(workDir, 'music-download');
  await fetchMediaToFile(music.url, download, {
    mode,
    maxBytes: limits.maxMusicBytes,
    timeoutMs: limits.musicTimeoutMs,
    code: 'music',
    noun: { file: 'the music file', url: 'the music URL' },
    ownCodes: true,
  });
  try {
    return await decodeMusic(download, workDir, seconds);
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
