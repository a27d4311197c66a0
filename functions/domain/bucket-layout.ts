/**
 * Where everything lives in the media bucket, in one place: every prefix, the key of every object, the tags and
 * expiries of what is temporary. The functions build their keys here; the grants (infra/wiring.ts) and the
 * lifecycle rules (infra/constructs/media-storage.ts) read the same prefixes and days.
 *
 *   renders/<hash>.mp4|mp3  (+ .cues.json, .poster.jpg)   a rendered clip, tagged temporary: expires
 *   kept/<hash>.mp4|mp3     (+ .cues.json, .poster.jpg)   a clip kept for reuse, tagged kept: stays
 *   outputs/<tenant>/<video>.mp4|mp3|jpg|vtt|srt|words.json  a finished video, its poster, its captions and words
 *   uploads/<tenant>/<uid>/<version>/<part>               a bot's uploaded images, until it is prepared
 *   looks/<tenant>/<uid>/<version>/<file>                 a prepared bot's look
 *   retired-looks/<tenant>/<uid>/<version>/<file>         a replaced look, for the clips pinned to it
 *   batches/<tenant>/<batch>.json                         what a batch was made from (its template and rows)
 *   upload-files/<tenant>/<upload_id>                     a file PUT by its caller (POST /v1/uploads), for a day
 *   fetched/<tenant>/<video>/<use>-<sha256 of URL>        a video's media brought from its URL by the fetch stage
 *   tmp/                                                  scratch
 */
export const BUCKET_PREFIXES = {
  renders: 'renders/',
  kept: 'kept/',
  outputs: 'outputs/',
  uploads: 'uploads/',
  looks: 'looks/',
  retiredLooks: 'retired-looks/',
  batches: 'batches/',
  uploadFiles: 'upload-files/',
  fetched: 'fetched/',
  tmp: 'tmp/',
} as const;

// --- Rendered clips ----------------------------------------------------------------------------------------------

const extension = (mode: 'video' | 'voice') => (mode === 'video' ? 'mp4' : 'mp3');

/** A render, tagged temporary: it expires TEMPORARY_EXPIRY_DAYS after it was last written. */
export const renderObjectKey = (hash: string, mode: 'video' | 'voice') => `${BUCKET_PREFIXES.renders}${hash}.${extension(mode)}`;
/**
 * A kept clip (reusable_clip: true), tagged kept: it never expires. Kept clips have their own prefix so that no
 * write of a temporary render can ever retag one (the tags of an object are those of its last PUT).
 */
export const keptObjectKey = (hash: string, mode: 'video' | 'voice') => `${BUCKET_PREFIXES.kept}${hash}.${extension(mode)}`;

/** A rendered clip's cues (captions), beside it: `renders/<hash>.cues.json`, `kept/<hash>.cues.json`. */
export const cuesObjectKey = (clipObjectKey: string) => clipObjectKey.replace(/\.(mp4|mp3)$/, '.cues.json');

/** A rendered video clip's poster (JPEG), beside it: `renders/<hash>.poster.jpg`; the first clip's is its video's. */
export function posterObjectKey(clipObjectKey: string): string {
  if (!clipObjectKey.endsWith('.mp4')) throw new Error(`only a video clip has a poster, not ${clipObjectKey}`);
  return clipObjectKey.replace(/\.mp4$/, '.poster.jpg');
}

/** Object tags read by the bucket's lifecycle rules: temporary renders expire, kept clips stay. */
const RETENTION_TAG = 'retention';
export const TEMPORARY = { [RETENTION_TAG]: 'temporary' };
export const KEPT = { [RETENTION_TAG]: 'kept' };

/** The retention of what lies beside a rendered clip (its cues, its poster): the clip's own. */
export const retentionBeside = (clipObjectKey: string) => (clipObjectKey.startsWith(BUCKET_PREFIXES.kept) ? KEPT : TEMPORARY);

// --- Finished videos ---------------------------------------------------------------------------------------------

export const outputObjectKey = (tenantId: string, videoId: string, kind: 'video' | 'audio') =>
  `${BUCKET_PREFIXES.outputs}${tenantId}/${videoId}.${kind === 'video' ? 'mp4' : 'mp3'}`;
export const videoPosterKey = (tenantId: string, videoId: string) => `${BUCKET_PREFIXES.outputs}${tenantId}/${videoId}.jpg`;
export const captionObjectKey = (tenantId: string, videoId: string, format: 'vtt' | 'srt' | 'words.json') =>
  `${BUCKET_PREFIXES.outputs}${tenantId}/${videoId}.${format}`;

// --- Bots of an account ------------------------------------------------------------------------------------------

export const uploadKey = (tenantId: string, uid: string, version: string, part: string) =>
  `${BUCKET_PREFIXES.uploads}${tenantId}/${uid}/${version}/${part}`;
export const lookPrefix = (tenantId: string, uid: string, version: string) => `${BUCKET_PREFIXES.looks}${tenantId}/${uid}/${version}`;
export const lookFileKey = (tenantId: string, uid: string, version: string, file: string) => `${lookPrefix(tenantId, uid, version)}/${file}`;
/** Where a replaced look's files go (the bucket's lifecycle rule expires them). */
export const retiredLookFileKey = (tenantId: string, uid: string, version: string, file: string) =>
  `${BUCKET_PREFIXES.retiredLooks}${tenantId}/${uid}/${version}/${file}`;

// --- Batches -----------------------------------------------------------------------------------------------------

export const batchInputKey = (tenantId: string, batchId: string) => `${BUCKET_PREFIXES.batches}${tenantId}/${batchId}.json`;

// --- Uploads (POST /v1/uploads) ----------------------------------------------------------------------------------

/** The one key an upload's presigned PUT may write: under its account, so no id reaches another account's file. */
export const uploadFileKey = (tenantId: string, uploadId: string) => `${BUCKET_PREFIXES.uploadFiles}${tenantId}/${uploadId}`;

// --- Expiry (the lifecycle rules) --------------------------------------------------------------------------------

/** Days after which objects tagged TEMPORARY are deleted. */
export const TEMPORARY_EXPIRY_DAYS = 7;
/** Days after which retired looks are deleted: far beyond a video's deadline. */
export const RETIRED_LOOK_EXPIRY_DAYS = 1;
/**
 * Days after which uploads (a bot's images before it is prepared, a caller's upload-files/) and scratch files are
 * deleted.
 */
export const UPLOAD_EXPIRY_DAYS = 1;
export const TMP_EXPIRY_DAYS = 1;
/** Days after which fetched media is deleted: far beyond a video's one-hour deadline. */
export const FETCHED_EXPIRY_DAYS = 1;
/**
 * Days after which a caller's upload-files/ are deleted: its id may be named for one day (limits.uploadLifetimeSeconds),
 * and the work that named it late in that day (a render, a bot's preparation) still has a day to read it.
 */
export const UPLOAD_FILE_EXPIRY_DAYS = 2;
