/**
 * Sending a file the API names by its upload id (`video_upload`, `audio_upload`): POST /v1/uploads declares its
 * type and size, then the file goes straight to storage with the presigned PUT (docs/uploads.md), never through
 * the API's request body.
 */
import { ApiRequestError, type Problem } from './api.ts';
import { mediaType } from './media-type.ts';

interface UploadAnswer {
  upload_id: string;
  upload_url: string;
  upload_headers: Record<string, string>;
}

/**
 * Each file's upload id while no request has used it: a failed submit sent again names the same upload instead of
 * sending the file anew (an account has few pending uploads, and a recording may be hundreds of megabytes).
 */
const unusedUploads = new WeakMap<Blob, string>();

/** The upload id of `file`: the one it already has if no request has used it yet, else a new upload (uploadFile). */
export async function uploadOnce(call: <T>(method: string, path: string, body?: unknown) => Promise<T>, file: Blob, field: string): Promise<string> {
  const known = unusedUploads.get(file);
  if (known) return known;
  const uploadId = await uploadFile(call, file, field);
  unusedUploads.set(file, uploadId);
  return uploadId;
}

/** A request that named `file`'s upload was accepted: the upload is spent, and sending the file again uploads it anew. */
export const uploadUsed = (file: Blob) => unusedUploads.delete(file);

/**
 * Uploads `file` and answers its upload id. `field` is the request field that will name it: a refusal of the
 * upload itself (a type or size the API does not take) is reported there, as the API would report the field.
 */
async function uploadFile(call: <T>(method: string, path: string, body?: unknown) => Promise<T>, file: Blob, field: string): Promise<string> {
  let answer: UploadAnswer;
  try {
    answer = await call<UploadAnswer>('POST', 'v1/uploads', { content_type: mediaType(file), size: file.size });
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 400) {
      const details: Problem[] = error.details.map((p) => ({ path: field, message: `${p.path}: ${p.message}` }));
      throw new ApiRequestError(400, error.code, error.message, details.length ? details : [{ path: field, message: error.message }]);
    }
    throw error;
  }
  let stored: Response;
  try {
    stored = await fetch(answer.upload_url, { method: 'PUT', headers: answer.upload_headers, body: file });
  } catch {
    throw new ApiRequestError(0, 'upload_failed', 'The file could not be sent to storage. Check the connection and send again.', [
      { path: field, message: 'could not be sent to storage' },
    ]);
  }
  if (!stored.ok)
    throw new ApiRequestError(stored.status, 'upload_failed', `Storage refused the file (HTTP ${stored.status}). Send it again.`, [
      { path: field, message: `storage refused the file (HTTP ${stored.status})` },
    ]);
  return answer.upload_id;
}
