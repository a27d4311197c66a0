import { queryParameters } from '#commons/query-parameters';
import { BOT_UID_PATTERN } from '#domain/choices';
import { createRequestSchema } from '#domain/create-request';
import { jsonSchemaOf } from '#domain/json-schema';
import { lexiconRequestSchema } from '#domain/lexicon';
import { limits } from '#domain/limits';
import { uploadRequestSchema } from '#domain/uploads';
import { VIDEO_STATUSES } from '#domain/video';
import { deleted, errors, ok, okWith, responseSchemas } from './openapi-responses.ts';
import { batchRequest, errorSchema, putBotJsonRequest, putBotRequest, templateRequest, templateVideoRequest } from './openapi-schemas.ts';

/** What several paths share, made afresh for each document. */
function sharedParts() {
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
    responses: { ...okWith('CreatedVideo', 'Accepted: the render is queued', '202'), ...errors(400, 401, 409, 413, 415, 422, 429, 500) },
  };
  const uidParam = [{ name: 'uid', in: 'path', required: true, schema: { type: 'string', pattern: BOT_UID_PATTERN.source } }];
  const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
  return { create, uidParam, idParam };
}
type Shared = ReturnType<typeof sharedParts>;

/** Bots, and creating a video (POST /v1/bot and its alias). */
function botPaths({ create, uidParam }: Shared) {
  return {
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
        summary: 'Create or replace a bot of your account from a photo, drawn images or a recording; it is prepared asynchronously',
        parameters: uidParam,
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': { schema: { $ref: '#/components/schemas/PutBotRequest' } },
            'application/json': { schema: putBotJsonRequest },
          },
        },
        responses: { ...ok('Accepted: the bot record, status preparing', '202'), ...errors(400, 401, 403, 413, 415, 500) },
      },
      delete: {
        operationId: 'deleteBot',
        parameters: uidParam,
        responses: { ...deleted('uid', 'Deleted: the bot and its files are gone'), ...errors(401, 403, 404) },
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
  };
}

/** The account's pronunciation lexicon. */
function lexiconPaths() {
  return {
    '/v1/lexicon': {
      get: { operationId: 'getLexicon', responses: { ...ok('Your lexicon: {"entries": [{"word", "say"}], "updated_at"}'), ...errors(401) } },
      put: {
        operationId: 'putLexicon',
        summary: 'Replace your lexicon: words (whole words, any case) and how every voice says them; captions show the word as written',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/LexiconRequest' } } } },
        responses: { ...ok('The lexicon as stored'), ...errors(400, 401, 413, 415) },
      },
      delete: { operationId: 'deleteLexicon', responses: { ...ok('Removed: {"entries": [], "updated_at": null}'), ...errors(401) } },
    },
  };
}

/** Uploads: a file PUT straight to storage, named later by its id. */
function uploadPaths() {
  return {
    '/v1/uploads': {
      post: {
        operationId: 'createUpload',
        summary:
          'Ask to upload a file (a recording for audio_upload, footage for video_upload): answers an upload_id and a presigned upload_url to PUT exactly the declared content type and size to; the id is yours alone, serves one request and expires after a day',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/UploadRequest' } },
            'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/UploadRequest' } },
          },
        },
        responses: {
          ...okWith('StartedUpload', 'Recorded: PUT the file to upload_url with exactly upload_headers', '201'),
          ...errors(400, 401, 413, 415),
        },
      },
    },
    '/v1/uploads/{id}': {
      delete: {
        operationId: 'withdrawUpload',
        summary:
          'Withdraw an upload not used yet: no request may name it after, its file (if PUT) is deleted, and it counts against your pending uploads only until its upload_url expires; 409 upload_in_use once a request has taken it',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { ...deleted('upload_id', 'Withdrawn', 'upl_Zk3'), ...errors(401, 404, 409) },
      },
    },
  };
}

/** Templates, and the videos and batches made from one. */
function templatePaths({ create, uidParam }: Shared) {
  return {
    '/v1/templates': {
      get: {
        operationId: 'listTemplates',
        parameters: queryParameters('GET /v1/templates'),
        responses: { ...ok('Your templates'), ...errors(400, 401) },
      },
    },
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
          ...okWith('CreatedBatch', 'Accepted: the batch is queued', '202'),
          ...okWith('BatchDryRun', 'dry_run: every row is valid; nothing was made'),
          ...errors(400, 401, 404, 409, 413, 415, 422, 429),
        },
      },
    },
  };
}

/** Batches once sent. */
function batchPaths() {
  return {
    '/v1/batches': {
      get: {
        operationId: 'listBatches',
        parameters: queryParameters('GET /v1/batches'),
        responses: { ...ok('Your batches, newest first'), ...errors(400, 401) },
      },
    },
    '/v1/batches/{id}': {
      get: {
        operationId: 'getBatch',
        summary: "A batch: its status, counts by outcome, and a page of its rows' videos (`videos`, paged by limit and cursor)",
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, ...queryParameters('GET /v1/batches/{id}')],
        responses: { ...okWith('Batch', 'The batch'), ...errors(400, 401, 404) },
      },
      delete: {
        operationId: 'cancelBatch',
        summary: 'Cancel the rows not yet released; those rendering finish. batch.completed follows with status cancelled',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { ...okWith('Batch', 'Cancel requested: the batch', '202'), ...errors(401, 404, 409) },
      },
    },
  };
}

/** The voices a clip may name. */
function voicePaths() {
  return {
    '/v1/voices': {
      get: {
        operationId: 'listVoices',
        summary: "Every voice this deployment speaks (espeak-ng's; Amazon Polly's too on AWS); a clip names one with `voice`",
        parameters: queryParameters('GET /v1/voices'),
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
  };
}

/** Your videos, and the clips kept for reuse. */
function videoPaths({ idParam }: Shared) {
  return {
    '/v1/video': {
      get: {
        operationId: 'listVideos',
        parameters: queryParameters('GET /v1/video'),
        responses: { ...ok('Your videos, newest first'), ...errors(400, 401) },
      },
    },
    '/v1/video/{id}': {
      get: {
        operationId: 'getVideo',
        parameters: idParam,
        responses: { ...okWith('Video', 'The video, with a fresh download link when completed'), ...errors(401, 404) },
      },
      delete: {
        operationId: 'deleteVideo',
        parameters: idParam,
        responses: { ...deleted('video_id', 'Deleted: the video and its file are gone', 'vid_Zk3'), ...errors(401, 404, 409) },
      },
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
      get: {
        operationId: 'listKeptClips',
        parameters: queryParameters('GET /v1/clips'),
        responses: { ...ok('Clips kept with reusable_clip'), ...errors(400, 401) },
      },
    },
  };
}

/** The account, this document, health, the console, and the webhook inbox. */
function servicePaths() {
  return {
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
        parameters: queryParameters('GET /v1/inbox'),
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
  };
}

/** What a video's webhook receives (signed with Standard Webhooks: the webhook-id, webhook-timestamp and webhook-signature headers). */
function videoWebhooks() {
  const event = (summary: string) => ({
    post: {
      summary,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/VideoEvent' } } } },
      responses: { '200': { description: 'Received (any 2xx)' } },
    },
  });
  return { 'video.completed': event('A video is ready to download'), 'video.failed': event('A video could not be made') };
}

/**
 * The OpenAPI 3.1 document, built from the same zod schemas that validate requests (zod 4 emits JSON Schema
 * 2020-12, which OpenAPI 3.1 uses as is): the create request is domain/create-request.ts's createRequestSchema.
 */
export function openApiDocument(serverUrl: string) {
  const shared = sharedParts();
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
        LexiconRequest: jsonSchemaOf(lexiconRequestSchema),
        UploadRequest: jsonSchemaOf(uploadRequestSchema),
        PutBotRequest: putBotRequest,
        Error: errorSchema,
        ...responseSchemas,
      },
    },
    webhooks: videoWebhooks(),
    paths: {
      ...botPaths(shared),
      ...templatePaths(shared),
      ...batchPaths(),
      ...lexiconPaths(),
      ...uploadPaths(),
      ...voicePaths(),
      ...videoPaths(shared),
      ...servicePaths(),
    },
  };
}
