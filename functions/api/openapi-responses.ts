/**
 * The response and webhook schemas of the OpenAPI document (openapi.ts): what a caller reads back, as the presenters
 * in functions/commons/presenters build it. The SDK's types are generated from them, and a test checks the
 * presenters' output against them.
 */
import { CAPTION_MODES } from '#domain/choices';
import { ASPECT_RATIOS, RESOLUTIONS, TEST_RESOLUTION } from '#domain/shape';
import { CLIP_STATUSES, VIDEO_STATUSES } from '#domain/video';

const string = { type: 'string' };
const nullableString = { type: ['string', 'null'] };
const nullableNumber = { type: ['number', 'null'] };
const object = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: 'object', required, properties });
const link = object(
  {
    vtt_url: string,
    srt_url: string,
    words_url: {
      type: 'string',
      description:
        'Every spoken word, as a JSON list of `{ "text", "start", "end", "clip" }`: the word as the clip\'s text writes it, its start and end in seconds from the video\'s start, and its clip\'s index.',
    },
  },
  ['vtt_url', 'srt_url'],
);

const test = { type: 'boolean', description: "Made with a test key: 360p, marked TEST, at most 60 s, outside the live account's limits and usage." };
const resolution = { type: 'string', enum: [...RESOLUTIONS, TEST_RESOLUTION], description: `${TEST_RESOLUTION}: a test key's video.` };

const attempts = {
  type: 'array',
  items: object({
    attempt: { type: 'integer' },
    at: string,
    status_code: { type: ['integer', 'null'] },
    error: nullableString,
    duration_ms: { type: 'number' },
  }),
};

/** The 202 of a create (POST /v1/bot, its alias, a template's video). */
const createdVideo = object({
  video_id: string,
  status: { type: 'string', enum: [...VIDEO_STATUSES] },
  create_video: { type: 'boolean' },
  clips: { type: 'integer', description: 'How many clips the video has.' },
  created_at: string,
  url: { type: 'string', description: 'GET it for the status.' },
  test,
});

const videoClip = object(
  {
    index: { type: 'integer' },
    clip_name: string,
    bot_uid: string,
    text: string,
    voice: string,
    status: { type: 'string', enum: [...CLIP_STATUSES] },
    duration_seconds: nullableNumber,
    render_seconds: nullableNumber,
    cached: { type: 'boolean' },
    clip_uid: { type: 'string', description: 'A kept clip (reusable_clip): name it in a later clip.' },
  },
  ['index', 'clip_name', 'bot_uid', 'text', 'status', 'duration_seconds', 'render_seconds', 'cached'],
);

/** GET /v1/video/{id}, and each item of the list. */
const video = object(
  {
    video_id: string,
    url: string,
    status: { type: 'string', enum: [...VIDEO_STATUSES] },
    create_video: { type: 'boolean' },
    test,
    aspect_ratio: { type: 'string', enum: [...ASPECT_RATIOS] },
    resolution,
    captions: { type: 'string', enum: [...CAPTION_MODES] },
    logo: { type: ['object', 'null'] },
    theme: { type: 'object' },
    music: { type: ['object', 'null'] },
    batch_id: string,
    row: { type: 'integer' },
    created_at: string,
    updated_at: string,
    completed_at: nullableString,
    progress: object({ clips_total: { type: 'integer' }, clips_rendered: { type: 'integer' } }),
    clips: { type: 'array', items: videoClip },
    output: {
      oneOf: [
        { type: 'null' },
        object({
          kind: { type: 'string', enum: ['video', 'audio'] },
          content_type: string,
          duration_seconds: { type: 'number' },
          size_bytes: { type: 'integer' },
          download_url: nullableString,
          download_url_expires_at: nullableString,
          thumbnail_url: nullableString,
          captions: { oneOf: [{ type: 'null' }, link] },
          download_endpoint: { type: 'string', description: 'Redirects (with your key) to a fresh download link.' },
        }),
      ],
    },
    error: { oneOf: [{ type: 'null' }, object({ code: string, message: string, clip_index: { type: ['integer', 'null'] } })] },
    webhook: object({ url: string, state: string, attempts }),
  },
  [
    'video_id',
    'url',
    'status',
    'create_video',
    'aspect_ratio',
    'resolution',
    'captions',
    'created_at',
    'updated_at',
    'completed_at',
    'progress',
    'clips',
    'output',
    'error',
    'webhook',
  ],
);

/** The data of video.completed and video.failed (functions/commons/webhooks/event.ts). */
const videoEvent = object({
  type: { type: 'string', enum: ['video.completed', 'video.failed'] },
  timestamp: string,
  data: object(
    {
      video_id: string,
      status: { type: 'string', enum: ['completed', 'failed'] },
      create_video: { type: 'boolean' },
      test,
      aspect_ratio: { type: 'string', enum: [...ASPECT_RATIOS] },
      resolution,
      captions_mode: { type: 'string', enum: [...CAPTION_MODES] },
      video_url: { type: 'string', description: 'A completed video: its presigned download link.' },
      audio_url: { type: 'string', description: 'A completed voice-only video: its presigned download link.' },
      url_expires_at: string,
      thumbnail_url: string,
      captions: link,
      duration_seconds: { type: 'number' },
      size_bytes: { type: 'integer' },
      clips: {
        type: 'array',
        items: object(
          {
            index: { type: 'integer' },
            clip_name: string,
            bot_uid: string,
            voice: string,
            duration_seconds: nullableNumber,
            status: { type: 'string', enum: [...CLIP_STATUSES] },
          },
          ['index', 'clip_name', 'bot_uid', 'duration_seconds', 'status'],
        ),
      },
      error: object({ code: string, message: string, clip_index: { type: 'integer' } }, ['code', 'message']),
    },
    ['video_id', 'status', 'create_video', 'test', 'aspect_ratio', 'resolution', 'captions_mode', 'clips'],
  ),
});

const batchCounts = object({
  pending: { type: 'integer' },
  in_progress: { type: 'integer' },
  completed: { type: 'integer' },
  failed: { type: 'integer' },
  cancelled: { type: 'integer' },
});

/** The 202 of POST /v1/templates/{uid}/batches. */
const createdBatch = object({ batch_id: string, rows: { type: 'integer' }, status: string, url: string });

/** The 200 of a batch's dry run: every row is valid and nothing was made. */
const batchDryRun = object({
  dry_run: { type: 'boolean', const: true },
  template_uid: string,
  rows: { type: 'integer' },
  first_row: { type: 'object', description: "The first row's create request, its placeholders filled." },
});

/** GET /v1/batches/{id} (with a page of its rows' videos), each item of the list, and the cancel's 202. */
const batch = object(
  {
    batch_id: string,
    template_uid: string,
    template_name: string,
    test: { type: 'boolean', description: 'Sent with a test key: its rows make test videos.' },
    status: string,
    rows: { type: 'integer' },
    counts: batchCounts,
    notify_each: { type: 'boolean' },
    cancel_requested: { type: 'boolean' },
    created_at: string,
    updated_at: string,
    completed_at: nullableString,
    url: string,
    webhook: object({ url: string, state: string, attempts }),
    videos: { type: 'array', items: { type: 'object' }, description: 'GET /v1/batches/{id} only: a page of its rows and their videos.' },
    next_cursor: nullableString,
  },
  ['batch_id', 'template_uid', 'template_name', 'test', 'status', 'rows', 'counts', 'created_at', 'completed_at', 'url'],
);

/** The 201 of POST /v1/uploads: the id, and how and until when to PUT the file (functions/commons/presenters/upload.ts). */
const startedUpload = object({
  upload_id: string,
  kind: { type: 'string', enum: ['audio', 'video'] },
  content_type: string,
  size: { type: 'integer' },
  upload_url: string,
  upload_method: { type: 'string', const: 'PUT' },
  upload_headers: { type: 'object', additionalProperties: { type: 'string' } },
  upload_url_expires_at: string,
  expires_at: { type: 'string', description: 'After this the id names nothing.' },
});

export const responseSchemas = {
  CreatedVideo: createdVideo,
  Video: video,
  VideoEvent: videoEvent,
  CreatedBatch: createdBatch,
  BatchDryRun: batchDryRun,
  Batch: batch,
  StartedUpload: startedUpload,
};

/** A response whose body is one of the schemas above. */
export const okWith = (schema: keyof typeof responseSchemas, description: string, status = '200') => ({
  [status]: { description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
});

/** Every operation that needs a key (401) may also be over the key's request rate (429 rate_limited). */
export const errors = (...codes: number[]) =>
  Object.fromEntries(
    [...new Set(codes.includes(401) ? [...codes, 429] : codes)]
      .sort()
      .map((code) => [String(code), { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
  );

export const ok = (description: string, status = '200') => ({
  [status]: { description, content: { 'application/json': { schema: { type: 'object' } } } },
});

/** A deletion's answer: `{"<id>": …, "deleted": true}`. */
export const deleted = (id: string, description: string, example?: string) => ({
  '200': {
    description,
    content: {
      'application/json': {
        schema: { type: 'object', required: [id, 'deleted'], properties: { [id]: { type: 'string' }, deleted: { const: true } } },
        ...(example ? { example: { [id]: example, deleted: true } } : {}),
      },
    },
  },
});
