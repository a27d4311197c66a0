/** The request and error schemas of the OpenAPI document (openapi.ts), beside the zod ones they describe. */
import { DEFAULT_BOT_VOICE, DRAWN_PARTS, DRAWN_SHAPE_PARTS, type DrawnPart } from '#domain/account-bot';
import { BOT_POSITIONS } from '#domain/choices';
import { createRequestSchema } from '#domain/create-request';
import { jsonSchemaOf } from '#domain/json-schema';
import { limits } from '#domain/limits';
import { MOUTH_SHAPES, type MouthShape, SHAPE_FRAMES } from '#domain/look';

const file = (description: string) => ({ type: 'string', contentMediaType: 'application/octet-stream', description });

const SHAPE_SOUNDS: Record<MouthShape, string> = {
  round: 'rounded lips ("oo", "o", "w")',
  wide: 'lips spread wide ("ee", "eh")',
  fv: 'the lower lip to the upper teeth (f, v)',
};
const drawnPartDescription = (part: DrawnPart) => {
  const shape = MOUTH_SHAPES.find((s) => DRAWN_SHAPE_PARTS[s] === part);
  const layer = `PNG with alpha, ${limits.minDrawnImageSide} to ${limits.maxDrawnImageSide} px a side`;
  if (part === 'mouth_closed') return `A drawn layer: ${layer}. The face with its mouth closed; every other layer is its size.`;
  if (!shape) return `A drawn layer: ${layer}.`;
  return `Optional drawn mouth shape: ${SHAPE_SOUNDS[shape]}, drawn at its most open; ${layer}. The look gets its frames (${SHAPE_FRAMES[shape].join(', ')}).`;
};

/** PUT /v1/bot/{uid}: a multipart form (files) or JSON (image_url only). */
export const putBotFields = {
  name: { type: 'string', maxLength: limits.maxBotNameChars, description: 'Required.' },
  description: { type: 'string', maxLength: limits.maxBotDescriptionChars },
  voice: { type: 'string', description: `A voice id from GET /v1/voices. Default: ${DEFAULT_BOT_VOICE}.` },
  default_position: { type: 'string', enum: [...BOT_POSITIONS] },
  webhook: { type: 'string', description: 'Receives a signed bot.ready or bot.failed event when the preparation settles.' },
  image_url: {
    type: 'string',
    description: `A photo (JPEG, PNG or WebP, at most ${limits.maxBotImageBytes / 1024 / 1024} MB), fetched through the address guard.`,
  },
  video_url: {
    type: 'string',
    description: `A recording of the person (MP4, MOV or WebM, at most ${limits.maxRecordingBytes / 1024 / 1024} MB) for a video bot, fetched through the address guard. Needs consent.`,
  },
  video_upload: {
    type: 'string',
    pattern: '^upl_[A-Za-z0-9_-]{16}$',
    description:
      'A recording uploaded with POST /v1/uploads (content_type video/*) for a video bot: your own upload, unused and unexpired; it serves this bot only. Needs consent.',
  },
  consent: {
    type: 'boolean',
    description:
      'Required (true) for a video bot: you state that the person filmed agreed to be made into a bot. The record keeps when and by which key.',
  },
};
export const putBotRequest = {
  type: 'object',
  required: ['name'],
  description:
    `Exactly one source: image, image_url, the drawn layers (${DRAWN_PARTS.join(', ')}: mouth_closed and mouth_open required), or a recording (video, video_url or video_upload, with consent). ` +
    `An upload's whole body is at most ${limits.maxBotBodyBytes} bytes (what API Gateway and Lambda carry); larger photos go by image_url, larger recordings by video_upload.`,
  properties: {
    ...putBotFields,
    image: file('A photo: JPEG, PNG or WebP.'),
    video: file('A recording for a video bot: MP4, MOV or WebM within the body limit (larger ones go by video_upload). Needs consent.'),
    ...Object.fromEntries(DRAWN_PARTS.map((part) => [part, file(drawnPartDescription(part))])),
  },
};

/** PUT /v1/templates/{uid}: the create request's fields but the webhook, and a name. */
export function templateRequest() {
  const {
    properties,
    required: _required,
    description: _description,
    ...create
  } = jsonSchemaOf(createRequestSchema) as { properties: Record<string, unknown>; required: string[]; description: string };
  const { webhook: _webhook, process_done_webhook: _alias, ...fields } = properties;
  return {
    ...create,
    description:
      'A template: the text fields of its clips (text, clip_name, background, voice, bot_uid, bot_position, transitions, and the text and url of each overlay) may hold {{name}} or {{name|default}}.',
    required: ['name', 'clips'],
    properties: { name: { type: 'string', maxLength: limits.maxTemplateNameChars }, ...fields },
  };
}

export const templateVideoRequest = {
  type: 'object',
  required: ['webhook'],
  properties: {
    webhook: { type: 'string', description: 'Address notified when the video is ready, as in a create request.' },
    variables: {
      type: 'object',
      additionalProperties: { type: 'string', maxLength: limits.maxVariableChars },
      description: 'A value for each variable of the template; those with a default may be left out.',
    },
  },
};

const batchRows = {
  type: 'array',
  maxItems: limits.maxBatchRows,
  items: { type: 'object', additionalProperties: { type: 'string', maxLength: limits.maxVariableChars } },
  description: 'One object of variable values per video (as `variables` of a video from the template).',
};
const batchFields = {
  webhook: { type: 'string', description: 'Receives batch.completed once every row has settled (signed like every event).' },
  notify_each: { type: 'boolean', default: false, description: "Each video's own video.completed / video.failed goes to the webhook too." },
  dry_run: {
    type: 'boolean',
    default: false,
    description:
      "Check every row as a batch would be and make nothing: 200 {dry_run, template_uid, rows, first_row: {row, variables, clips}} with the first row's clips filled in, or the batch's 400.",
  },
};
export const batchRequest = {
  json: {
    type: 'object',
    required: ['webhook', 'rows'],
    properties: { ...batchFields, rows: batchRows },
  },
  multipart: {
    type: 'object',
    required: ['webhook', 'rows'],
    properties: {
      ...batchFields,
      rows: {
        type: 'string',
        format: 'binary',
        description: `A CSV file (UTF-8, RFC 4180 quoting, at most ${limits.maxBatchCsvBytes} bytes): a header row of variable names, then one row per video. An empty cell leaves the variable to its default.`,
      },
    },
  },
};

export const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
  },
};
