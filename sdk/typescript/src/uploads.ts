import { unwrap, type VidbotOptions } from './client.ts';
import { VidbotError } from './errors.ts';
import { retryingFetch } from './retry.ts';

/** A file to send: its bytes and media type (a File or Blob carries its own). */
export type UploadInput = Blob | { bytes: Uint8Array; contentType: string };

/**
 * What POST /v1/uploads answers (the route is documented in docs/api.md). Written here, not generated, while the
 * service's OpenAPI document does not yet describe the route.
 */
interface StartedUpload {
  upload_id: string;
  upload_url: string;
  upload_method: string;
  upload_headers: Record<string, string>;
  expires_at: string;
}

export interface UploadedFile {
  /** Name it as audio_upload (a clip) or video_upload (a video bot) within a day; it serves one request. */
  upload_id: string;
  expires_at: string;
}

/** POST /v1/uploads with the file's type and size, then PUT the bytes to the link it signs, with exactly its headers. */
export async function uploadFile(options: VidbotOptions, file: UploadInput): Promise<UploadedFile> {
  const blob = file instanceof Blob ? file : new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.contentType });
  const contentType = blob.type;
  if (!contentType) throw new TypeError('the file needs a media type (audio/… or video/…)');
  const send = retryingFetch(options.fetch ?? ((request) => globalThis.fetch(request)), options.retry);
  const response = await send(
    new Request(`${options.baseUrl.replace(/\/+$/, '')}/v1/uploads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${options.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content_type: contentType, size: blob.size }),
    }),
  );
  const body = await response.json().catch(() => undefined);
  const started = unwrap<StartedUpload>({ data: body as StartedUpload, error: response.ok ? undefined : body, response });
  // The link is signed for this type and size: the PUT carries exactly the headers it names, and no key.
  const put = await send(new Request(started.upload_url, { method: started.upload_method || 'PUT', headers: started.upload_headers, body: blob }));
  if (!put.ok) throw new VidbotError(put.status, 'upload_failed', `the upload's PUT answered ${put.status}`);
  return { upload_id: started.upload_id, expires_at: started.expires_at };
}
