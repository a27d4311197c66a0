/** PUT /v1/bot/{uid}: the request's fields and image parts, checked, become a PutBotCommand (account-bots.ts). */
import { z } from 'zod';
import './zod-messages.ts';
import { DEFAULT_BOT_VOICE, DRAWN_PARTS, type DrawnPart, isBuiltInUid } from './account-bot.ts';
import { BOT_UID_PATTERN, BOT_UID_RULE, type BotPosition } from './choices.ts';
import { normaliseWebhook } from './create-request.ts';
import { type FieldProblem, ForbiddenError, InvalidRequestError } from './errors.ts';
import { httpUrlSchema, positionSchema } from './field-schemas.ts';
import { limits } from './limits.ts';
import { nameProblem, refuseWith, textProblem } from './text-rules.ts';
import { findVoice, type VoiceOptions } from './voices.ts';

/** Built-in bots are named `bot_…`; an account's bot may not be, so a future built-in can never collide with one. */
const BUILT_IN_PREFIX = 'bot_';
const DEFAULT_BOT_POSITION: BotPosition = 'bottom-right';

/** An image part of the request, as received. */
export interface ImagePart {
  bytes: Buffer;
  contentType?: string;
}

export type BotImages =
  | { kind: 'photo'; image: ImagePart }
  | { kind: 'photo_url'; url: string }
  | { kind: 'drawn'; parts: Partial<Record<DrawnPart, ImagePart>> }
  | { kind: 'video'; video: ImagePart }
  | { kind: 'video_url'; url: string }
  /** An upload of the caller's (POST /v1/uploads), claimed when the bot is accepted (account-bots.ts). */
  | { kind: 'video_upload'; uploadId: string };

export interface PutBotCommand {
  uid: string;
  name: string;
  description: string;
  voice: string;
  defaultPosition: BotPosition;
  webhookUrl?: string;
  images: BotImages;
  /** Set for a video bot: the caller stated that the person filmed agreed to be cloned. */
  consent?: true;
}

/** What a video bot's request without consent (true, or "true" from a form) is told. */
const NO_CONSENT = 'must be true: state that the person filmed agreed to be made into a bot';

const textFields = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(limits.maxBotNameChars).superRefine(refuseWith(nameProblem)),
  description: z.string().trim().max(limits.maxBotDescriptionChars).superRefine(refuseWith(textProblem)).default(''),
  voice: z.string().trim().min(1).max(100).default(DEFAULT_BOT_VOICE),
  default_position: positionSchema.optional(),
  webhook: z.string().trim().max(limits.maxUrlChars).optional(),
  image_url: z.string().trim().optional(),
  video_url: z.string().trim().optional(),
  video_upload: z.string().trim().min(1, 'is empty: give the upload_id of POST /v1/uploads').max(100).optional(),
  // JSON's true, or a form's "true" (a checkbox): anything else is no consent.
  consent: z.union([z.boolean(), z.string().trim()], { error: NO_CONSENT }).optional(),
});
const KNOWN_FIELDS = new Set([
  'name',
  'description',
  'voice',
  'default_position',
  'webhook',
  'image_url',
  'image',
  ...DRAWN_PARTS,
  'video_url',
  'video_upload',
  'video',
  'consent',
]);
/** The multipart files a PUT may carry. */
export const BOT_FILE_FIELDS = ['image', ...DRAWN_PARTS, 'video'] as const;

/** The containers a recording may be, by their first bytes: MP4/MOV (`ftyp`) and WebM/Matroska (EBML). */
function sniffVideo(bytes: Buffer): boolean {
  if (bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp') return true;
  return bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3;
}

/** The image formats a photo may be, by their first bytes (the preparation decodes and checks them properly). */
function sniffImage(bytes: Buffer): 'jpeg' | 'png' | 'webp' | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/**
 * The uid check: 400 for a malformed one or one in the built-in namespace, 403 for a built-in bot's own uid
 * (it exists and is not the caller's to change).
 */
function checkOwnUid(uid: string): void {
  if (isBuiltInUid(uid)) throw new ForbiddenError(`"${uid}" is a built-in bot; it cannot be changed or deleted.`);
  if (!BOT_UID_PATTERN.test(uid)) throw new InvalidRequestError([{ path: 'uid', message: BOT_UID_RULE }]);
  if (uid.startsWith(BUILT_IN_PREFIX))
    throw new InvalidRequestError([{ path: 'uid', message: `must not start with "${BUILT_IN_PREFIX}", which names built-in bots` }]);
}

/**
 * Validates a PUT: the text fields (from JSON or the form) and the image parts (multipart files). Exactly one
 * image source: `image`, `image_url`, or the drawn parts (`mouth_closed` and `mouth_open`, optionally
 * `mouth_half` and `eyes_closed`).
 */
export function parsePutBot(uid: string, fields: Record<string, unknown>, files: Record<string, ImagePart>, voices: VoiceOptions): PutBotCommand {
  checkOwnUid(uid);
  const problems: FieldProblem[] = [];
  for (const name of [...Object.keys(fields), ...Object.keys(files)])
    if (!KNOWN_FIELDS.has(name)) problems.push({ path: name, message: 'is not a bot field' });
    else if (name in files && !(BOT_FILE_FIELDS as readonly string[]).includes(name))
      problems.push({ path: name, message: 'is text: send it as UTF-8, not as a binary file' });
  for (const name of BOT_FILE_FIELDS) if (name in fields) problems.push({ path: name, message: 'must be sent as a file (multipart/form-data)' });
  const parsed = textFields.safeParse(fields);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push({ path: issue.path.join('.') || '(body)', message: issue.message });
    throw new InvalidRequestError(problems);
  }
  const text = parsed.data;
  if (!findVoice(text.voice, voices)) problems.push({ path: 'voice', message: `unknown voice "${text.voice}"; list the voices with GET /v1/voices` });
  let webhookUrl: string | undefined;
  if (text.webhook) {
    const result = httpUrlSchema.safeParse(normaliseWebhook(text.webhook));
    if (result.success) webhookUrl = result.data;
    else problems.push({ path: 'webhook', message: result.error.issues[0]?.message ?? 'is not a valid URL' });
  }

  const drawnGiven = DRAWN_PARTS.filter((part) => files[part]);
  const sources = [
    files.image ? 'image' : undefined,
    text.image_url ? 'image_url' : undefined,
    drawnGiven.length ? 'mouth_closed/mouth_open' : undefined,
    files.video ? 'video' : undefined,
    text.video_url ? 'video_url' : undefined,
    text.video_upload ? 'video_upload' : undefined,
  ].filter(Boolean);
  let images: BotImages | undefined;
  if (sources.length === 0)
    problems.push({
      path: 'image',
      message:
        'is required: send image (a photo), image_url, mouth_closed and mouth_open (drawn PNGs), or video_url, video_upload or video (a recording)',
    });
  // Named at the second source given: a field to take away (the drawn layers by the first of them given).
  else if (sources.length > 1)
    problems.push({
      path: sources[1] === 'mouth_closed/mouth_open' ? drawnGiven[0]! : sources[1]!,
      message: `give one image source, not ${sources.join(' and ')}`,
    });
  else if (text.video_upload) images = { kind: 'video_upload', uploadId: text.video_upload };
  else if (files.video || text.video_url) images = videoSource(files.video, text.video_url, problems);
  else if (files.image) {
    if (!sniffImage(files.image.bytes)) problems.push({ path: 'image', message: 'must be a JPEG, PNG or WebP image' });
    images = { kind: 'photo', image: files.image };
  } else if (text.image_url) {
    const result = httpUrlSchema.safeParse(text.image_url);
    if (result.success) images = { kind: 'photo_url', url: result.data };
    else problems.push({ path: 'image_url', message: result.error.issues[0]?.message ?? 'is not a valid URL' });
  } else {
    for (const part of ['mouth_closed', 'mouth_open'] as const)
      if (!files[part]) problems.push({ path: part, message: 'is required for a drawn bot' });
    for (const part of drawnGiven) if (sniffImage(files[part]!.bytes) !== 'png') problems.push({ path: part, message: 'must be a PNG (with alpha)' });
    images = { kind: 'drawn', parts: Object.fromEntries(drawnGiven.map((part) => [part, files[part]!])) };
  }
  for (const [name, part] of Object.entries(files)) {
    const max = name === 'video' ? limits.maxRecordingBytes : limits.maxBotImageBytes;
    if (part.bytes.length > max) problems.push({ path: name, message: `is larger than ${max / 1024 / 1024} MB` });
  }
  const isVideo = images?.kind === 'video' || images?.kind === 'video_url' || images?.kind === 'video_upload';
  if (isVideo && text.consent !== true && text.consent !== 'true') problems.push({ path: 'consent', message: NO_CONSENT });
  if (images && !isVideo && text.consent !== undefined)
    problems.push({ path: 'consent', message: 'is only for a bot made from a recording (video_url, video_upload or video)' });
  if (problems.length || !images) throw new InvalidRequestError(problems);
  return {
    uid,
    name: text.name,
    description: text.description,
    voice: text.voice,
    defaultPosition: text.default_position ?? DEFAULT_BOT_POSITION,
    webhookUrl,
    images,
    ...(isVideo ? { consent: true as const } : {}),
  };
}

/** A video bot's recording: a file (MP4, MOV or WebM by its first bytes) or a URL. */
function videoSource(file: ImagePart | undefined, url: string | undefined, problems: FieldProblem[]): BotImages | undefined {
  if (file) {
    if (!sniffVideo(file.bytes)) problems.push({ path: 'video', message: 'must be an MP4, MOV or WebM recording' });
    return { kind: 'video', video: file };
  }
  const result = httpUrlSchema.safeParse(url);
  if (result.success) return { kind: 'video_url', url: result.data };
  problems.push({ path: 'video_url', message: result.error.issues[0]?.message ?? 'is not a valid URL' });
  return undefined;
}
