/** How callers see an upload (POST /v1/uploads): its id, and how and until when to PUT the file. */
import type { StartedUpload } from '#domain/uploads';

export const toStartedUpload = ({ upload, put }: StartedUpload) => ({
  upload_id: upload.uploadId,
  kind: upload.kind,
  content_type: upload.contentType,
  size: upload.sizeBytes,
  /** PUT the file's bytes here, with exactly `upload_headers`, before `upload_url_expires_at`. */
  upload_url: put.url,
  upload_method: 'PUT',
  upload_headers: put.headers,
  upload_url_expires_at: put.expiresAt,
  /** After this the id names nothing (audio_upload, video_upload). */
  expires_at: new Date(upload.expiresAt * 1000).toISOString(),
});
