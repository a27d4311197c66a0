import { DEFAULT_BOT_VOICE, DRAWN_PARTS } from '#domain/account-bot';
import { BOT_POSITIONS, BOT_UID_PATTERN } from '#domain/choices';
import { createRequestSchema } from '#domain/create-request';
import { jsonSchemaOf } from '#domain/json-schema';
import { limits } from '#domain/limits';
import { VIDEO_STATUSES } from '#domain/video';

/**
 * The OpenAPI 3.1 document, built from the same zod schemas that validate requests (zod 4 emits JSON Schema
 * 2020-12, which OpenAPI 3.1 uses as is): the create request is domain/create-request.ts's createRequestSchema.
 */
const file = (description: string) => ({ type: 'string', contentMediaType: 'application/octet-stream', description });

/** PUT /v1/bot/{uid}: a multipart form (files) or JSON (image_url only). */
const putBotFields = {
  name: { type: 'string', maxLength: limits.maxBotNameChars, description: 'Required.' },
  description: { type: 'string', maxLength: limits.maxBotDescriptionChars },
  voice: { type: 'string', description: `A voice id from GET /v1/voices. Default: ${DEFAULT_BOT_VOICE}.` },
  default_position: { type: 'string', enum: [...BOT_POSITIONS] },
  webhook: { type: 'string', description: 'Receives a signed bot.ready or bot.failed event when the preparation settles.' },
  image_url: {
    type: 'string',
    description: `A photo (JPEG, PNG or WebP, at most ${limits.maxBotImageBytes / 1024 / 1024} MB), fetched through the address guard.`,
  },
};
const putBotRequest = {
  type: 'object',
  required: ['name'],
  description:
    `Exactly one image source: image, image_url, or mouth_closed and mouth_open (${DRAWN_PARTS.join(', ')}). ` +
    `An upload's whole body is at most ${limits.maxBotBodyBytes} bytes (what API Gateway and Lambda carry); larger photos go by image_url.`,
  properties: {
    ...putBotFields,
    image: file('A photo: JPEG, PNG or WebP.'),
    ...Object.fromEntries(DRAWN_PARTS.map((part) => [part, file('A drawn layer: PNG with alpha.')])),
  },
};

/** PUT /v1/templates/{uid}: the create request's fields but the webhook, and a name. */
function templateRequest() {
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
      'A template: the text fields of its clips (text, clip_name, background, voice, bot_uid, bot_position, transitions) may hold {{name}} or {{name|default}}.',
    required: ['name', 'clips'],
    properties: { name: { type: 'string', maxLength: limits.maxTemplateNameChars }, ...fields },
  };
}

const templateVideoRequest = {
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
const batchRequest = {
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

const errorSchema = {
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

/** Every operation that needs a key (401) may also be over the key's request rate (429 rate_limited). */
const errors = (...codes: number[]) =>
  Object.fromEntries(
    [...new Set(codes.includes(401) ? [...codes, 429] : codes)]
      .sort()
      .map((code) => [String(code), { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
  );

const ok = (description: string, status = '200') => ({ [status]: { description, content: { 'application/json': { schema: { type: 'object' } } } } });

const deleted = {
  '200': {
    description: 'Deleted: the video and its file are gone',
    content: {
      'application/json': {
        schema: { type: 'object', required: ['video_id', 'deleted'], properties: { video_id: { type: 'string' }, deleted: { const: true } } },
        example: { video_id: 'vid_Zk3', deleted: true },
      },
    },
  },
};

export function openApiDocument(serverUrl: string) {
  const createBody = {
    required: true,
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/CreateVideoRequest' } },
      'multipart/form-data': { schema: { $ref: '#/components/schemas/CreateVideoRequest' } },
      'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/CreateVideoRequest' } },
    },
  };
  const create = {
    summary: 'Create a video (or the voice only) from clips',
    parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }],
    requestBody: createBody,
    responses: { ...ok('Accepted: the render is queued', '202'), ...errors(400, 401, 409, 413, 415, 422, 429, 500) },
  };
  const uidParam = [{ name: 'uid', in: 'path', required: true, schema: { type: 'string', pattern: BOT_UID_PATTERN.source } }];
  const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
  const pageParams = [
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: limits.maxPageSize, default: limits.defaultPageSize } },
    { name: 'cursor', in: 'query', schema: { type: 'string' } },
  ];
  return {
    openapi: '3.1.0',
    info: {
      title: 'vidbot',
      version: '1.0.0',
      description: `Bots that speak your text, rendered into videos. Statuses: ${VIDEO_STATUSES.join(', ')}`,
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        CreateVideoRequest: jsonSchemaOf(createRequestSchema),
        TemplateRequest: templateRequest(),
        PutBotRequest: putBotRequest,
        Error: errorSchema,
      },
    },
    paths: {
      '/v1/bot': {
        post: { ...create, operationId: 'createVideo' },
        get: { operationId: 'listBots', summary: 'List all bots', responses: { ...ok('The bots'), ...errors(401) } },
      },
      '/v1/bot/': {
        post: {
          operationId: 'listBotsPost',
          summary: "List all bots (the interface's form: POST with a trailing slash)",
          responses: { ...ok('The bots'), ...errors(401) },
        },
      },
      '/v1/create_video': { post: { ...create, operationId: 'createVideoAlias' } },
      '/v1/bot/{uid}': {
        get: { operationId: 'getBot', parameters: uidParam, responses: { ...ok('The bot: built in, or one of your own'), ...errors(401, 404) } },
        put: {
          operationId: 'putBot',
          summary: 'Create or replace a bot of your account from a photo or drawn images; it is prepared asynchronously',
          parameters: uidParam,
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': { schema: { $ref: '#/components/schemas/PutBotRequest' } },
              'application/json': { schema: { type: 'object', required: ['name', 'image_url'], properties: putBotFields } },
            },
          },
          responses: { ...ok('Accepted: the bot record, status preparing', '202'), ...errors(400, 401, 403, 413, 415, 500) },
        },
        delete: {
          operationId: 'deleteBot',
          parameters: uidParam,
          responses: {
            '200': {
              description: 'Deleted: the bot and its files are gone',
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['uid', 'deleted'], properties: { uid: { type: 'string' }, deleted: { const: true } } },
                },
              },
            },
            ...errors(401, 403, 404),
          },
        },
      },
      '/v1/bot/{uid}/redeliver': {
        post: {
          operationId: 'redeliverBotWebhook',
          summary: "Send a settled bot's event (bot.ready or bot.failed) to its webhook again, as a new chain of attempts",
          parameters: uidParam,
          responses: { ...ok('Redelivery queued', '202'), ...errors(401, 403, 404, 409) },
        },
      },
      '/v1/templates': { get: { operationId: 'listTemplates', parameters: pageParams, responses: { ...ok('Your templates'), ...errors(400, 401) } } },
      '/v1/templates/{uid}': {
        get: { operationId: 'getTemplate', parameters: uidParam, responses: { ...ok('The template and its variables'), ...errors(401, 404) } },
        put: {
          operationId: 'putTemplate',
          summary: "Create or replace a template: a create request (no webhook) whose clips' text fields may hold {{name}} or {{name|default}}",
          parameters: uidParam,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/TemplateRequest' } } } },
          responses: { ...ok('The template, with the variables its placeholders name'), ...errors(400, 401, 413, 415) },
        },
        delete: {
          operationId: 'deleteTemplate',
          parameters: uidParam,
          responses: { ...ok('Deleted: {"uid": …, "deleted": true}'), ...errors(401, 404) },
        },
      },
      '/v1/templates/{uid}/videos': {
        post: {
          operationId: 'createVideoFromTemplate',
          summary: 'Create a video from a template with the values of its variables: answered as POST /v1/bot',
          parameters: [...uidParam, create.parameters[0]!],
          requestBody: { required: true, content: { 'application/json': { schema: templateVideoRequest } } },
          responses: create.responses,
        },
      },
      '/v1/templates/{uid}/batches': {
        post: {
          operationId: 'createBatch',
          summary: `One video per row of data (at most ${limits.maxBatchRows}): every row is checked first, and one bad row refuses the batch (400 naming rows[i].field) with nothing made`,
          parameters: [...uidParam, create.parameters[0]!],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: batchRequest.json }, 'multipart/form-data': { schema: batchRequest.multipart } },
          },
          responses: {
            ...ok('Accepted: {"batch_id", "rows", "status": "queued", "url"}', '202'),
            ...ok('dry_run: every row is valid; nothing was made. {"dry_run", "template_uid", "rows", "first_row"}'),
            ...errors(400, 401, 404, 409, 413, 415, 422, 429),
          },
        },
      },
      '/v1/batches': {
        get: { operationId: 'listBatches', parameters: pageParams, responses: { ...ok('Your batches, newest first'), ...errors(400, 401) } },
      },
      '/v1/batches/{id}': {
        get: {
          operationId: 'getBatch',
          summary: "A batch: its status, counts by outcome, and a page of its rows' videos (`videos`, paged by limit and cursor)",
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, ...pageParams],
          responses: { ...ok('The batch'), ...errors(400, 401, 404) },
        },
        delete: {
          operationId: 'cancelBatch',
          summary: 'Cancel the rows not yet released; those rendering finish. batch.completed follows with status cancelled',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { ...ok('Cancel requested: the batch', '202'), ...errors(401, 404, 409) },
        },
      },
      '/v1/voices': {
        get: {
          operationId: 'listVoices',
          summary: "Every voice this deployment speaks (espeak-ng's; Amazon Polly's too on AWS); a clip names one with `voice`",
          parameters: [
            {
              name: 'language',
              in: 'query',
              required: false,
              description: 'A BCP 47 tag: `es` lists es, es-419, es-US…; `es-MX` only es-MX.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': {
              description: 'The voices',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['voices'],
                    properties: {
                      voices: {
                        type: 'array',
                        items: {
                          type: 'object',
                          required: ['id', 'language', 'language_name', 'gender', 'engine'],
                          properties: {
                            id: { type: 'string', examples: ['espeak:es+f3', 'polly:Lucia'] },
                            language: { type: 'string', description: 'BCP 47' },
                            language_name: { type: 'string', description: 'In English' },
                            gender: { enum: ['female', 'male', null] },
                            engine: { enum: ['espeak', 'polly'] },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
            ...errors(400, 401),
          },
        },
      },
      '/v1/video': {
        get: { operationId: 'listVideos', parameters: pageParams, responses: { ...ok('Your videos, newest first'), ...errors(400, 401) } },
      },
      '/v1/video/{id}': {
        get: {
          operationId: 'getVideo',
          parameters: idParam,
          responses: { ...ok('The video, with a fresh download link when completed'), ...errors(401, 404) },
        },
        delete: { operationId: 'deleteVideo', parameters: idParam, responses: { ...deleted, ...errors(401, 404, 409) } },
      },
      '/v1/video/{id}/download': {
        get: {
          operationId: 'downloadVideo',
          parameters: idParam,
          responses: { '302': { description: 'Redirect to a fresh download link' }, ...errors(401, 404, 409) },
        },
      },
      '/v1/video/{id}/redeliver': {
        post: { operationId: 'redeliverWebhook', parameters: idParam, responses: { ...ok('Redelivery queued', '202'), ...errors(401, 404, 409) } },
      },
      '/v1/clips': {
        get: { operationId: 'listKeptClips', parameters: pageParams, responses: { ...ok('Clips kept with reusable_clip'), ...errors(400, 401) } },
      },
      '/v1/account': { get: { operationId: 'getAccount', responses: { ...ok("The key's account"), ...errors(401) } } },
      '/v1/openapi.json': { get: { operationId: 'openApi', responses: ok('This document') } },
      '/health': { get: { operationId: 'health', security: [], responses: ok('Ready') } },
      '/': {
        get: {
          operationId: 'console',
          security: [],
          summary: 'The console (an HTML page; it asks for your key)',
          responses: { '200': { description: 'The page', content: { 'text/html': {} } } },
        },
      },
      '/v1/inbox': {
        get: {
          operationId: 'listInboxEvents',
          summary: "Your webhook inbox's verified events, newest first, and its inbox_url",
          parameters: pageParams,
          responses: { ...ok('The events'), ...errors(400, 401) },
        },
      },
      '/v1/inbox/{account}': {
        post: {
          operationId: 'receiveInboxEvent',
          security: [],
          summary:
            "A webhook delivery into the account's inbox: kept 7 days if its Standard Webhooks signature verifies with one of the account's secrets, else 401 invalid_signature and nothing is stored",
          parameters: [{ name: 'account', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { ...ok('Kept'), ...errors(400, 401) },
        },
      },
    },
  };
}
