import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Mode } from '#commons/config';
import { FetchError, HttpStatusError } from '#commons/net/errors';
import { guardedFetch, MEDIA_PACE } from '#commons/net/guarded-fetch';
import { isTransientError } from '#commons/net/transient';
import type { Recording } from '#domain/clip';
import { JobFailure } from '#domain/errors';
import { limits } from '#domain/limits';
import type { ObjectStore } from '#domain/ports';

/**
 * A clip's recording brought into the render's work dir: downloaded through the address guard (as a background,
 * with its own size and time limits), or read from the caller's upload. What the caller can fix is a JobFailure of
 * ours (audio_too_large, audio_unavailable); a passing network fault is rethrown for a retry. Its SHA-256 is part of
 * the clip's content address: the same words over another recording are another clip.
 */
const FETCH_FAILURES: Record<FetchError['code'], { code: string; message: string }> = {
  too_large: { code: 'audio_too_large', message: `the recording is larger than ${limits.maxUploadBytes.audio / 1024 / 1024} MiB` },
  timeout: { code: 'audio_unavailable', message: `the recording did not download within ${limits.recordingTimeoutMs / 1000} s; use a faster host` },
  address_not_allowed: {
    code: 'audio_unavailable',
    message: 'the recording URL leads to an address we do not fetch from (private, loopback or link-local)',
  },
  invalid_url: { code: 'audio_unavailable', message: 'the recording URL (or a redirect it gave) is not a valid http(s) URL' },
  too_many_redirects: { code: 'audio_unavailable', message: 'the recording URL redirected too many times' },
  network_error: { code: 'audio_unavailable', message: 'the recording URL could not be reached (no such host, or the connection failed)' },
  http_error: { code: 'audio_unavailable', message: 'the recording URL did not answer with the file' },
};

export async function fetchRecording(
  recording: Recording,
  path: string,
  deps: { mode: Mode; objects: Pick<ObjectStore, 'getToFile'> },
): Promise<{ sha256: string }> {
  if ('uploadKey' in recording) {
    if (!(await deps.objects.getToFile(recording.uploadKey, path)))
      throw new JobFailure('audio_unavailable', 'the uploaded recording is gone (an upload is kept two days); upload it again');
  } else await download(recording.url, path, deps.mode);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex') };
}

async function download(url: string, path: string, mode: Mode): Promise<void> {
  try {
    await guardedFetch(url, {
      mode,
      timeoutMs: limits.recordingTimeoutMs,
      maxBytes: limits.maxUploadBytes.audio,
      toFile: path,
      maxRedirects: 5,
      pace: MEDIA_PACE,
    });
  } catch (error) {
    if (isTransientError(error)) throw error;
    if (error instanceof HttpStatusError) {
      if (error.status >= 500 || error.status === 429) throw error; // their server may recover: retried
      throw new JobFailure('audio_unavailable', `the recording URL answered HTTP ${error.status}`);
    }
    if (error instanceof FetchError) {
      const failure = FETCH_FAILURES[error.code];
      throw new JobFailure(failure.code, failure.message);
    }
    throw error;
  }
}
