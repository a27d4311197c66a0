/**
 * Making a bot (PUT /v1/bot/{uid}, multipart): the form's state, a uid suggested from the name, the checks the
 * page can make before sending, and the multipart body. Pure, so it is tested without a browser.
 */
import type { DrawnPart } from '#domain/account-bot';
import { limits } from '#domain/limits';
import { mediaType } from './media-type.ts';
import { BOT_UID, MAX_IMAGE_BYTES, PHOTO_TYPES } from './options.ts';

/** A problem by the API's path of its field (the shape of the API's `details[]`). */
interface Problem {
  path: string;
  message: string;
}

/** The drawn bot's layers, as the API names them (DRAWN_PARTS); the first two are required. */
export const DRAWN_LAYERS = [
  { field: 'mouth_closed', label: 'Mouth closed', required: true },
  { field: 'mouth_open', label: 'Mouth open', required: true },
  { field: 'mouth_half', label: 'Mouth half open', required: false },
  { field: 'eyes_closed', label: 'Eyes closed', required: false },
  { field: 'mouth_round', label: 'Mouth round ("oo", "o")', required: false },
  { field: 'mouth_wide', label: 'Mouth wide ("ee")', required: false },
  { field: 'mouth_fv', label: 'Lip to teeth ("f", "v")', required: false },
] as const satisfies readonly { field: DrawnPart; label: string; required: boolean }[];
export type DrawnLayer = (typeof DRAWN_LAYERS)[number]['field'];

export interface BotDraft {
  /** A photo (uploaded or by URL), drawn PNG layers, or a recording of a person (a file, or the webcam's). */
  source: 'photo' | 'drawn' | 'video';
  image: File | null;
  imageUrl: string;
  layers: Partial<Record<DrawnLayer, File>>;
  /** The recording, chosen or made with the webcam, and its length when the browser could read it. */
  video: File | null;
  videoSeconds: number | null;
  /** The person filmed agreed to be made into a bot (the API's `consent`). */
  consent: boolean;
  name: string;
  uid: string;
  /** The person typed a uid: stop suggesting one from the name. */
  uidEdited: boolean;
  description: string;
  /** '' leaves it to the API's default. */
  voice: string;
  defaultPosition: string;
  /** Where to POST bot.ready / bot.failed; '' sends none. */
  webhook: string;
}

export const emptyBotDraft = (): BotDraft => ({
  source: 'photo',
  image: null,
  imageUrl: '',
  layers: {},
  video: null,
  videoSeconds: null,
  consent: false,
  name: '',
  uid: '',
  uidEdited: false,
  description: '',
  voice: '',
  defaultPosition: '',
  webhook: '',
});

/** The request paths whose problems a change of a draft field answers, where they are not the field's own name. */
const ANSWERED_BY: Partial<Record<keyof BotDraft, readonly string[]>> = {
  video: ['video', 'video_upload', 'video_url'],
  image: ['image', 'image_url'],
  imageUrl: ['image', 'image_url'],
  defaultPosition: ['default_position'],
};

/**
 * The problems' paths a change of the draft answers: those of each field whose value it changes (a drawn layer's by
 * the layer's name). A field set to what it held answers nothing (the name's keystroke sets the suggested uid again
 * when the uid follows it: the uid's problem stays).
 */
export function answeredPaths(before: BotDraft, change: Partial<BotDraft>): Set<string> {
  const paths = new Set<string>();
  for (const field of Object.keys(change) as (keyof BotDraft)[]) {
    if (field === 'layers') {
      for (const { field: layer } of DRAWN_LAYERS) if (change.layers?.[layer] !== before.layers[layer]) paths.add(layer);
    } else if (change[field] !== before[field]) for (const path of ANSWERED_BY[field] ?? [field]) paths.add(path);
  }
  return paths;
}

/** "Dr. Émile Zola" → "dr-emile-zola": lower case, accents dropped, anything else a single "-", at most 64. */
export function suggestUid(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug.length >= 3 ? slug : '';
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function fileProblems(field: string, file: File, types: readonly string[], kinds: string): Problem[] {
  if (!types.includes(file.type)) return [{ path: field, message: `${file.name} is not ${kinds}.` }];
  if (file.size > MAX_IMAGE_BYTES)
    return [{ path: field, message: `${file.name} is ${megabytes(file.size)}; at most ${megabytes(MAX_IMAGE_BYTES)}.` }];
  return [];
}

/**
 * What the page can tell before sending, under the API's paths. The uid is checked here because it goes in the
 * URL: a "/" or a space would reach another route (or none) instead of a message by the field.
 */
export function botDraftProblems(draft: BotDraft): Problem[] {
  const found: Problem[] = [];
  if (!BOT_UID.test(draft.uid)) found.push({ path: 'uid', message: 'must be 3 to 64 characters of a-z, 0-9, "_" and "-"' });
  if (!draft.name.trim()) found.push({ path: 'name', message: 'is required' });
  if (draft.source === 'photo') {
    if (draft.image) found.push(...fileProblems('image', draft.image, PHOTO_TYPES, 'a JPEG, PNG or WebP picture'));
    else if (!draft.imageUrl.trim()) found.push({ path: 'image', message: 'choose a photo, or give its URL' });
  } else if (draft.source === 'drawn') {
    for (const layer of DRAWN_LAYERS) {
      const file = draft.layers[layer.field];
      if (file) found.push(...fileProblems(layer.field, file, ['image/png'], 'a PNG'));
      else if (layer.required) found.push({ path: layer.field, message: 'a PNG is required' });
    }
  } else {
    found.push(...recordingProblems(draft));
    if (!draft.consent) found.push({ path: 'consent', message: 'tick this to confirm that the person filmed agreed to be made into a bot' });
  }
  return found;
}

/** The recording's problems the page can see: none chosen, not a video, too large, too short or too long. */
function recordingProblems({ video, videoSeconds }: BotDraft): Problem[] {
  if (!video) return [{ path: 'video', message: 'record one with the webcam, or choose a recording' }];
  if (!RECORDING_TYPES.includes(mediaType(video))) return [{ path: 'video', message: `${video.name} is not an MP4, MOV or WebM recording.` }];
  if (video.size > limits.maxRecordingBytes)
    return [{ path: 'video', message: `${video.name} is ${megabytes(video.size)}; at most ${megabytes(limits.maxRecordingBytes)}.` }];
  if (videoSeconds !== null && videoSeconds < limits.minRecordingSeconds)
    return [
      {
        path: 'video',
        message: `is too short: ${videoSeconds.toFixed(1)} s; a recording needs at least ${limits.minRecordingSeconds} s (30 s to 2 minutes is best)`,
      },
    ];
  if (videoSeconds !== null && videoSeconds > limits.maxRecordingSeconds)
    return [{ path: 'video', message: `is too long: ${Math.round(videoSeconds)} s; at most ${limits.maxRecordingSeconds / 60} minutes` }];
  return [];
}

const RECORDING_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];

/** The JSON body of PUT /v1/bot/{uid} for a recording: its upload named by id, with the consent the API requires. */
export function videoBotBody(draft: BotDraft, uploadId: string): Record<string, unknown> {
  const body: Record<string, unknown> = { name: draft.name.trim() };
  if (draft.description.trim()) body.description = draft.description.trim();
  if (draft.voice) body.voice = draft.voice;
  if (draft.defaultPosition) body.default_position = draft.defaultPosition;
  if (draft.webhook.trim()) body.webhook = draft.webhook.trim();
  return { ...body, consent: draft.consent, video_upload: uploadId };
}

/** The multipart body of PUT /v1/bot/{uid}: only what the person gave. */
export function botFormData(draft: BotDraft): FormData {
  const form = new FormData();
  form.set('name', draft.name.trim());
  if (draft.description.trim()) form.set('description', draft.description.trim());
  if (draft.voice) form.set('voice', draft.voice);
  if (draft.defaultPosition) form.set('default_position', draft.defaultPosition);
  if (draft.webhook.trim()) form.set('webhook', draft.webhook.trim());
  if (draft.source === 'photo') {
    if (draft.image) form.set('image', draft.image, draft.image.name);
    else form.set('image_url', draft.imageUrl.trim());
  } else {
    for (const layer of DRAWN_LAYERS) {
      const file = draft.layers[layer.field];
      if (file) form.set(layer.field, file, file.name);
    }
  }
  return form;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const answerField = (answer: string, name: string) => `$(echo "$${answer}" | node -pe 'JSON.parse(require("fs").readFileSync(0)).${name}')`;

/** A recording's three steps as curl: ask for an upload, PUT the file to its link, make the bot naming the upload. */
function videoBotCurl(apiUrl: string, draft: BotDraft): string {
  const type = draft.video ? mediaType(draft.video) : 'video/mp4';
  const name = draft.video?.name ?? 'me.mp4';
  // The JSON in single quotes, the upload id spliced in from the shell between them.
  const body = JSON.stringify(videoBotBody(draft, 'UPLOAD_ID')).replace(/'/g, `'\\''`).replace('"UPLOAD_ID"', `"'"$ID"'"`);
  return [
    `UPLOAD=$(curl -s -X POST ${quote(`${apiUrl}/v1/uploads`)} -H "Authorization: Bearer $KEY" \\`,
    `  -H 'Content-Type: application/json' -d '{"content_type":"${type}","size":'$(stat -c %s ${quote(name)})'}')`,
    `curl -s -X PUT "${answerField('UPLOAD', 'upload_url')}" -H 'Content-Type: ${type}' --data-binary @${quote(name)}`,
    `ID=${answerField('UPLOAD', 'upload_id')}`,
    `curl -s -X PUT ${quote(`${apiUrl}/v1/bot/${draft.uid}`)} -H "Authorization: Bearer $KEY" \\`,
    `  -H 'Content-Type: application/json' -d '${body}'`,
  ].join('\n');
}

/**
 * The same request as curl, the key left as $KEY. Files go as -F field=@file; text as --form-string, which never
 * reads a leading "@" or "<" as a file name the way -F would.
 */
export function botCurlCommand(apiUrl: string, draft: BotDraft): string {
  if (draft.source === 'video') return videoBotCurl(apiUrl, draft);
  const lines = [`curl -s -X PUT ${quote(`${apiUrl}/v1/bot/${draft.uid}`)}`, `  -H "Authorization: Bearer $KEY"`];
  for (const [field, value] of botFormData(draft).entries()) {
    lines.push(typeof value === 'string' ? `  --form-string ${quote(`${field}=${value}`)}` : `  -F ${quote(`${field}=@${value.name}`)}`);
  }
  return lines.join(' \\\n');
}
