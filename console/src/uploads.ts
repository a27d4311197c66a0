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
 * Uploads `file` and answers its upload id. `field` is the request field that will name it: a refusal of the
 * upload itself (a type or size the API does not take) is reported there, as the API would report the field.
 */
export async function uploadFile(call: <T>(method: string, path: string, body?: unknown) => Promise<T>, file: Blob, field: string): Promise<string> {
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
