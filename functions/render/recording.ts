import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { JobFailedError } from '#domain/errors';
import type { ObjectStore } from '#domain/ports';
import { fetchedToFile, recordingRules } from '#media/remote-media';

/** Where a clip's recording is in the bucket: the caller's upload, or what the fetch stage brought from its audio_url. */
export interface RecordingObject {
  objectKey: string;
  upload: boolean;
}

/**
 * A clip's recording brought into the render's work dir from the bucket. Its SHA-256 is part of the clip's content
 * address: the same words over another recording are another clip.
 */
export async function fetchRecording(source: RecordingObject, path: string, objects: Pick<ObjectStore, 'getToFile'>): Promise<{ sha256: string }> {
  if (!source.upload) await fetchedToFile(objects, source.objectKey, path, recordingRules);
  else if (!(await objects.getToFile(source.objectKey, path)))
    throw new JobFailedError('audio_unavailable', 'the uploaded recording is gone (an upload is kept two days); upload it again');
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex') };
}
