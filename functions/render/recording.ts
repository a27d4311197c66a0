import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Mode } from '#commons/config';
import type { Recording } from '#domain/clip';
import { JobFailedError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { ObjectStore } from '#domain/ports';
import { fetchMediaToFile } from '#media/fetch-media';

/**
 * A clip's recording brought into the render's work dir: downloaded (functions/media/fetch-media.ts, with its own
 * size and time limits: audio_too_large, audio_unavailable), or read from the caller's upload. Its SHA-256 is part
 * of the clip's content address: the same words over another recording are another clip.
 */
export async function fetchRecording(
  recording: Recording,
  path: string,
  deps: { mode: Mode; objects: Pick<ObjectStore, 'getToFile'> },
): Promise<{ sha256: string }> {
  if ('uploadKey' in recording) {
    if (!(await deps.objects.getToFile(recording.uploadKey, path)))
      throw new JobFailedError('audio_unavailable', 'the uploaded recording is gone (an upload is kept two days); upload it again');
  } else
    await fetchMediaToFile(recording.url, path, {
      mode: deps.mode,
      maxBytes: limits.maxUploadBytes.audio,
      timeoutMs: limits.recordingTimeoutMs,
      code: 'audio',
      noun: { file: 'the recording', url: 'the recording URL' },
    });
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex') };
}
