import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoAccountStore, DynamoBotCatalog, DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoTemplateStore } from '#commons/aws/dynamo-templates';
import { DynamoUploadStore } from '#commons/aws/dynamo-uploads';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { readFields } from '#commons/body';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { type HttpResult, httpHandler, json, type KeyedRequest } from '#commons/http';
import { type CallerInput, hashOf, idempotentOperation } from '#commons/idempotent';
import { logger } from '#commons/logger';
import { recordVideoCreated } from '#commons/metrics';
import { toCreatedVideo } from '#commons/presenters/video';
import { newId } from '#domain/api-keys';
import { parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError, TooManyVideosInProgressError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { RenderClipMessage } from '#domain/messages';
import { fieldsFromTemplate, ownTemplate } from '#domain/templates';
import { createVideo } from '#domain/videos';
import { listBots } from './bot-listing.ts';
import { unreachableProblems } from './unreachable.ts';

const config = loadConfig({
  tables: ['accounts', 'bots', 'accountBots', 'videos', 'clips', 'idempotency', 'templates', 'uploads'],
  queues: ['render'],
  bucket: true,
});
const bots = new DynamoBotCatalog(dynamoClient(), config.tables.bots);
const accountBots = new DynamoAccountBotStore(dynamoClient(), config.tables.accountBots);
const deps = {
  bots,
  accountBots,
  accounts: new DynamoAccountStore(dynamoClient(), config.tables.accounts),
  videos: new DynamoVideoRepository(dynamoClient(), config.tables.videos),
  clips: new DynamoClipLibrary(dynamoClient(), config.tables.clips),
  renderQueue: new SqsQueue<RenderClipMessage>(sqsClient(), config.queues.render),
  now: () => new Date(),
  newVideoId: () => newId('vid'),
  voices: config.voices,
  recordings: { uploads: new DynamoUploadStore(dynamoClient(), config.tables.uploads), objects: new S3ObjectStore(s3Client(), config.bucket) },
};
const objects = new S3ObjectStore(s3Client(), config.bucket);
const templates = new DynamoTemplateStore(dynamoClient(), config.tables.templates);

async function create(input: CallerInput & { fields: Record<string, unknown> }): Promise<HttpResult> {
  try {
    const command = parseCreateVideo(input.fields);
    const unreachable = unreachableProblems(command, config.mode);
    if (unreachable.length) throw new InvalidRequestError(unreachable);
    const created = await createVideo(command, { tenantId: input.tenantId, keyId: input.keyId }, deps);
    logger.info('video created', { video_id: created.videoId, clips: created.clipCount, create_video: created.createVideo });
    recordVideoCreated();
    const body = toCreatedVideo(created, input.baseUrl);
    return json(202, body, { Location: body.url });
  } catch (error) {
    if (error instanceof TooManyVideosInProgressError) logger.info('create refused: videos in progress at the limit', { limit: error.limit });
    throw error;
  }
}

/** A retried create with the same Idempotency-Key gets the first one's answer and makes no second video. */
const createOnce = idempotentOperation<{ fields: Record<string, unknown> }>(config.tables.idempotency, create);

async function createVideoOperation(request: KeyedRequest): Promise<HttpResult> {
  const fields = await readFields(request, limits.maxBodyBytes);
  // The fields, not the raw bytes: a multipart body carries a random boundary, so a retried `curl -F` is byte-
  // for-byte different while asking for the same video.
  return createOnce.run(request, { fields }, hashOf(fields));
}

const TEMPLATE_VIDEO_FIELDS = new Set(['webhook', 'process_done_webhook', 'variables']);

/** POST /v1/templates/{uid}/videos: the template's fields filled with the caller's values, then created as any video. */
async function createFromTemplateOperation(request: KeyedRequest): Promise<HttpResult> {
  const body = await readFields(request, limits.maxBodyBytes);
  const unknown = Object.keys(body).filter((key) => !TEMPLATE_VIDEO_FIELDS.has(key));
  if (unknown.length)
    throw new InvalidRequestError(unknown.map((path) => ({ path, message: 'is not a field of a video from a template (webhook, variables)' })));
  const uid = request.pathParams.uid ?? '';
  const template = await ownTemplate(templates, request.caller.tenantId, uid);
  const { variables, ...webhook } = body;
  const fields = { ...fieldsFromTemplate(template, parseJsonField(variables, 'variables')), ...webhook };
  return createOnce.run(request, { fields }, hashOf({ template: uid, ...body }));
}

/** A form sends an object field as its JSON text. */
function parseJsonField(value: unknown, path: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new InvalidRequestError([{ path, message: 'must be a JSON object of variable names to text values' }]);
  }
}

const routes = httpHandler({
  'POST /v1/bot': createVideoOperation,
  'POST /v1/create_video': createVideoOperation,
  'POST /v1/templates/{uid}/videos': createFromTemplateOperation,
  // API Gateway delivers POST /v1/bot/ to the same resource; the interface makes it "list all bots".
  'POST /v1/bot/': (request) => listBots(request.caller.tenantId, { bots, accountBots, objects, voices: config.voices }),
});

export const handler = (event: APIGatewayProxyEvent, context: Context) => {
  createOnce.registerLambdaContext(context);
  return routes(event, context);
};
