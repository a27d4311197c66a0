import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mode } from '#commons/config';
import { FetchError, HttpStatusError } from '#commons/net/errors';
import { guardedFetch, MEDIA_PACE } from '#commons/net/guarded-fetch';
import { isTransientError } from '#commons/net/transient';
import { JobFailure } from '#domain/errors';
import { limits } from '#domain/limits';
import type { MusicSpec } from '#domain/music';
import { MediaBudgetError, MediaRejectedError } from '#media/media';
import { decodeMusic } from '#media/music';
import { presetWav } from '#media/music-presets';

/**
 * The video's music bed as a WAV in `workDir`, at most `seconds` long: a preset made here, or the caller's file
 * downloaded through the address guard (no link-local or metadata addresses; no private ranges on AWS; every
 * redirect re-checked) with a size and a time limit, then identified and decoded (functions/media/music.ts).
 * What the caller can fix becomes a JobFailure whose message is ours alone, as for backgrounds
 * (functions/render/background.ts): never the URL, never the network stack's or ffmpeg's words. A passing
 * network fault is rethrown for a retry.
 */
const FETCH_FAILURES: Record<FetchError['code'], { code: string; message: string }> = {
  too_large: { code: 'music_too_large', message: `the music file is larger than ${limits.maxMusicBytes / 1024 / 1024} MiB` },
  timeout: { code: 'music_timeout', message: `the music file did not download within ${limits.musicTimeoutMs / 1000} s; use a faster host` },
  address_not_allowed: {
    code: 'music_not_allowed',
    message: 'the music URL leads to an address we do not fetch from (private, loopback or link-local)',
  },
  invalid_url: { code: 'music_unavailable', message: 'the music URL (or a redirect it gave) is not a valid http(s) URL' },
  too_many_redirects: { code: 'music_unavailable', message: 'the music URL redirected too many times' },
  network_error: { code: 'music_unavailable', message: 'the music URL could not be reached (no such host, or the connection failed)' },
  http_error: { code: 'music_unavailable', message: 'the music URL did not answer with the file' },
};

export async function musicBed(music: MusicSpec, workDir: string, seconds: number, mode: Mode): Promise<string> {
  if (music.preset !== undefined) {
    const path = join(workDir, `music-${music.preset}.wav`);
    await writeFile(path, presetWav(music.preset));
    return path;
  }
  const download = join(workDir, 'music-download');
  try {
    await guardedFetch(music.url, {
      mode,
      timeoutMs: limits.musicTimeoutMs,
      maxBytes: limits.maxMusicBytes,
      toFile: download,
      maxRedirects: 5,
      pace: MEDIA_PACE,
    });
  } catch (error) {
    if (isTransientError(error)) throw error;
    if (error instanceof HttpStatusError) {
      if (error.status >= 500 || error.status === 429) throw error; // their server may recover: retried
      throw new JobFailure('music_unavailable', `the music URL answered HTTP ${error.status}`);
    }
    if (error instanceof FetchError) {
      const failure = FETCH_FAILURES[error.code];
      throw new JobFailure(failure.code, failure.message);
    }
    throw error;
  }
  try {
    return await decodeMusic(download, workDir, seconds);
  } catch (error) {
    if (error instanceof MediaRejectedError) throw new JobFailure('music_invalid', `the music file ${error.reason}`);
    if (error instanceof MediaBudgetError)
      throw new JobFailure(
        'music_invalid',
        `the music file could not be read within ${error.limitSeconds} s; it may be damaged or too demanding to decode`,
      );
    throw error;
  }
}
