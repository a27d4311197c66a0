/**
 * Uploads (POST /v1/uploads): a caller's file that goes straight to the media bucket through a presigned PUT, not
 * through API Gateway (10 MB) or Lambda (6 MB), and that a later request names by its id (`audio_upload`,
 * `video_upload`). The PUT's signature covers the declared content type and size, so the bucket refuses any other
 * file; the object's key holds the account, so an id names nothing of another account's; an upload serves one
 * request and expires a day after it was asked for. Pure rules and ports: no AWS here.
 */
import { z } from 'zod';
import { uploadFileKey } from './bucket-layout.ts';
import { ConflictError, InvalidRequestError, NotFoundError, TooManyPendingUploadsError } from './errors.ts';
import { sharedUse } from './fair-use.ts';
import { limits } from './limits.ts';
import type { AccountStore, ObjectStore, UploadStore } from './ports.ts';
import './zod-messages.ts';
import { UPLOAD_ID } from './upload-id.ts';

/** What an upload is for: a recording a clip speaks, or footage a video bot is made from. */
export type UploadKind = 'audio' | 'video';

/**
 * The content types an upload may declare, and the kind each makes. Browsers name the same format several ways
 * (MediaRecorder's `audio/webm`, a dropped `.m4a` as `audio/x-m4a`); every one listed is probed with a pinned
 * demuxer before it is used.
 */
const UPLOAD_CONTENT_TYPES = {
  'audio/wav': 'audio',
  'audio/x-wav': 'audio',
  'audio/wave': 'audio',
  'audio/mpeg': 'audio',
  'audio/mp4': 'audio',
  'audio/x-m4a': 'audio',
  'audio/aac': 'audio',
  'audio/ogg': 'audio',
  'audio/opus': 'audio',
  'audio/webm': 'audio',
  'audio/flac': 'audio',
  'audio/x-flac': 'audio',
  'video/mp4': 'video',
  'video/quicktime': 'video',
  'video/webm': 'video',
} as const satisfies Record<string, UploadKind>;
export type UploadContentType = keyof typeof UPLOAD_CONTENT_TYPES;

/** How long the presigned PUT link works: long enough for 500 MB on a slow line, far shorter than the upload's life. */
const UPLOAD_LINK_SECONDS = 3600;

/** An upload as stored: who asked, what they declared, until when, and which request used it. */
export interface Upload {
  tenantId: string;
  uploadId: string;
  kind: UploadKind;
  contentType: UploadContentType;
  sizeBytes: number;
  createdAt: string;
  /** Epoch seconds after which the id names nothing (also the table's TTL). */
  expiresAt: number;
  /** The request that used it (a video id, a bot), set once. */
  usedBy?: string;
  /**
   * Epoch seconds until which a withdrawn upload still counts against the account's pending uploads: its PUT link's
   * end, while a file may still be PUT to it.
   */
  countsUntil?: number;
}

const contentTypes = Object.keys(UPLOAD_CONTENT_TYPES) as [UploadContentType, ...UploadContentType[]];

export const uploadRequestSchema = z
  .strictObject({
    content_type: z
      .enum(contentTypes, { message: `must be one of ${contentTypes.join(', ')}` })
      .describe("The file's media type: audio/* for a recording (audio_upload), video/* for footage (video_upload)."),
    // A form (curl -F) sends the size as text.
    size: z
      .preprocess((v) => (typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v), z.number().int().positive())
      .describe(
        `The file's exact size in bytes: the upload's PUT must send this Content-Length. At most ${limits.maxUploadBytes.audio} for audio, ${limits.maxUploadBytes.video} for video.`,
      ),
  })
  .superRefine((value, ctx) => {
    const max = limits.maxUploadBytes[UPLOAD_CONTENT_TYPES[value.content_type]];
    if (value.size > max) ctx.addIssue({ code: 'custom', path: ['size'], message: `must be at most ${max} bytes for ${value.content_type}` });
  });
export type UploadRequest = z.infer<typeof uploadRequestSchema>;

/** The body of POST /v1/uploads, checked: a 400 names each bad field. */
export function parseUploadRequest(fields: unknown): UploadRequest {
  const result = uploadRequestSchema.safeParse(fields);
  if (result.success) return result.data;
  throw new InvalidRequestError(
    result.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({ path: key, message: 'is not an upload field (content_type, size)' }))
        : [{ path: issue.path.map(String).join('.') || 'body', message: issue.message }],
    ),
  );
}

export interface StartedUpload {
  upload: Upload;
  /** Where to PUT the file, with exactly these headers, until `expiresAt`. */
  put: { url: string; headers: Record<string, string>; expiresAt: string };
}

export interface UploadDeps {
  uploads: UploadStore;
  /** The caller's account: a test account's pending uploads share its live account's limit. */
  accounts: Pick<AccountStore, 'get'>;
  objects: Pick<ObjectStore, 'presignPut'>;
  now: () => Date;
  newUploadId: () => string;
}

/**
 * Records an upload and signs the PUT that may store exactly the declared file under the caller's account; refused
 * (429, nothing recorded) while the account has `maxPendingUploads` neither used nor expired (a test account: its own
 * and its live account's together, fair-use.ts sharedUse). The count is read
 * before the write, so requests at the same instant may pass it together: at most the API's burst over the limit.
 */
export async function startUpload(tenantId: string, request: UploadRequest, deps: UploadDeps): Promise<StartedUpload> {
  const now = deps.now();
  const pending = await sharedUse(tenantId, deps.accounts, (account) => deps.uploads.countPending(account, Math.floor(now.getTime() / 1000)));
  if (pending >= limits.maxPendingUploads) throw new TooManyPendingUploadsError(limits.maxPendingUploads, limits.pendingUploadsRetryAfterSeconds);
  const upload: Upload = {
    tenantId,
    uploadId: deps.newUploadId(),
    kind: UPLOAD_CONTENT_TYPES[request.content_type],
    contentType: request.content_type,
    sizeBytes: request.size,
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + limits.uploadLifetimeSeconds,
  };
  await deps.uploads.put(upload);
  const link = await deps.objects.presignPut(uploadFileKey(tenantId, upload.uploadId), {
    contentType: upload.contentType,
    sizeBytes: upload.sizeBytes,
    expiresInSeconds: UPLOAD_LINK_SECONDS,
  });
  return { upload, put: { url: link.url, headers: { 'Content-Type': upload.contentType }, expiresAt: link.expiresAt } };
}

/** What `usedBy` holds for an upload its caller withdrew (DELETE /v1/uploads/{id}): no request may take it. */
const WITHDRAWN = 'withdrawn';

export interface ClaimDeps {
  uploads: UploadStore;
  objects: Pick<ObjectStore, 'head'>;
  now: () => Date;
}

/**
 * Takes an upload for one request: it must be the caller's, of the kind the field takes, not expired, its file
 * stored at the declared size, and not used before. `path` is the field that named it (`clips[0].audio_upload`),
 * where every refusal is reported; another account's id reads as an unknown one. The claim is a conditional write,
 * so two requests naming one id cannot both have it. Returns the file's key in the bucket.
 */
export async function claimUpload(
  tenantId: string,
  uploadId: string,
  expected: { kind: UploadKind; path: string; usedBy: string },
  deps: ClaimDeps,
): Promise<{ upload: Upload; key: string }> {
  const refuse = (message: string) => new InvalidRequestError([{ path: expected.path, message }]);
  const upload = UPLOAD_ID.test(uploadId) ? await deps.uploads.get(tenantId, uploadId) : undefined;
  if (!upload) throw refuse('is not an upload of this account (POST /v1/uploads)');
  if (deps.now().getTime() / 1000 >= upload.expiresAt) throw refuse('has expired: an upload may be used for a day after it was asked for');
  if (upload.kind !== expected.kind)
    throw refuse(`is ${upload.kind === 'audio' ? 'an audio' : 'a video'} upload (${upload.contentType}); this field takes ${expected.kind}`);
  if (upload.usedBy === WITHDRAWN) throw refuse('was withdrawn (DELETE /v1/uploads/{upload_id}); upload the file again');
  if (upload.usedBy) throw refuse('was already used by another request; upload the file again');
  // An upload recorded before its kind's limit was lowered: refused before its file is looked at or taken.
  const max = limits.maxUploadBytes[upload.kind];
  if (upload.sizeBytes > max)
    throw refuse(`holds ${upload.sizeBytes} bytes; ${upload.kind === 'video' ? 'a recording' : 'an upload'} may have at most ${max}`);
  const key = uploadFileKey(tenantId, uploadId);
  const head = await deps.objects.head(key);
  if (!head) throw refuse('has no file yet: PUT the file to the upload_url first');
  if (head.sizeBytes !== upload.sizeBytes) throw refuse(`holds ${head.sizeBytes} bytes, not the ${upload.sizeBytes} declared`);
  if (!(await deps.uploads.markUsed(tenantId, uploadId, expected.usedBy))) throw refuse('was already used by another request; upload the file again');
  return { upload: { ...upload, usedBy: expected.usedBy }, key };
}

export interface WithdrawDeps {
  uploads: UploadStore;
  objects: Pick<ObjectStore, 'delete'>;
}

/**
 * Withdraws an upload not used yet (DELETE /v1/uploads/{id}): no request may name it after, it counts against the
 * account's pending uploads only until its PUT link ends (an hour after it was asked for), and its file, if it was
 * PUT, is removed. One used by a request is that
 * request's (its file goes with the bot's preparation or the clip's render): 409. Another account's id, or an id
 * withdrawn before, reads as unknown: 404. A PUT to its link after this stores a file no request reads, which the
 * bucket's lifecycle rule removes.
 */
export async function withdrawUpload(tenantId: string, uploadId: string, deps: WithdrawDeps): Promise<void> {
  const upload = UPLOAD_ID.test(uploadId) ? await deps.uploads.get(tenantId, uploadId) : undefined;
  if (!upload || upload.usedBy === WITHDRAWN) throw new NotFoundError(`No upload ${uploadId} of this account.`);
  const inUse = () => new ConflictError(`Upload ${uploadId} is used by a request; it is removed with that request's work.`, 'upload_in_use');
  if (upload.usedBy) throw inUse();
  // It counts until its link ends: a file PUT to it after this is stored all the same (a link cannot be recalled), so
  // asking, withdrawing and PUTting again and again must not pass the pending uploads' bound.
  const countsUntil = Math.floor(Date.parse(upload.createdAt) / 1000) + UPLOAD_LINK_SECONDS;
  if (!(await deps.uploads.markUsed(tenantId, uploadId, WITHDRAWN, countsUntil))) throw inUse();
  await deps.objects.delete(uploadFileKey(tenantId, uploadId));
}
