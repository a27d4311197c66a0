import { unwrap, type VidbotApi, type VidbotOptions } from './client.ts';
import { VidbotError } from './errors.ts';
import { retryingFetch } from './retry.ts';

/** A file to send: its bytes and media type (a File or Blob carries its own). */
export type UploadInput = Blob | { bytes: Uint8Array; contentType: string };

export interface UploadedFile {
  /** Name it as audio_upload (a clip) or video_upload (a video bot) within a day; it serves one request. */
  upload_id: string;
  expires_at: string;
}

/** POST /v1/uploads with the file's type and size, then PUT the bytes to the link it signs, with exactly its headers. */
export async function uploadFile(api: VidbotApi, options: VidbotOptions, file: UploadInput): Promise<UploadedFile> {
  const blob = file instanceof Blob ? file : new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.contentType });
  if (!blob.type) throw new TypeError('the file needs a media type (audio/… or video/…)');
  const started = unwrap(await api.POST('/v1/uploads', { body: { content_type: blob.type as never, size: blob.size } }));
  // The link is signed for this type and size, and carries no key: only the headers it names go with it.
  const send = retryingFetch(options.fetch ?? ((request) => globalThis.fetch(request)), options.retry);
  const put = await send(new Request(started.upload_url, { method: started.upload_method, headers: started.upload_headers, body: blob }));
  if (!put.ok) throw new VidbotError(put.status, 'upload_failed', `the upload's PUT answered ${put.status}`);
  return { upload_id: started.upload_id, expires_at: started.expires_at };
}
