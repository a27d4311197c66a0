import { createHash } from 'node:crypto';
import { IdempotencyAlreadyInProgressError, IdempotencyConfig, IdempotencyValidationError, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoAccountStore, DynamoBotCatalog, DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoTemplateStore } from '#commons/aws/dynamo-templates';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { readFields } from '#commons/body';
import { dynamoBaseClient, dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { BadRequestError, ConflictError, IdempotencyKeyReusedError } from '#commons/errors';
import { type HttpRequest, type HttpResult, httpHandler, json } from '#commons/http';
import { logger } from '#commons/logger';
import { recordVideoCreated } from '#commons/metrics';
import { refusalWithoutResolving } from '#commons/net/address-guard';
import { toCreatedVideo } from '#commons/presenters/video';
import { newId } from '#domain/api-keys';
import { type CreateVideoCommand, parseCreateVideo } from '#domain/create-request';
import { type FieldProblem, InvalidRequest, TooManyVideosInProgress } from '#domain/errors';
import { limits } from '#domain/limits';
import type { RenderClipMessage } from '#domain/messages';
import { fieldsFromTemplate, ownTemplate } from '#domain/templates';
import { createVideo } from '#domain/videos';
import { listBots } from './bot-listing.ts';

const config = loadConfig({
  tables: ['accounts', 'bots', 'accountBots', 'videos', 'clips', 'idempotency', 'templates'],
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
};
const objects = new S3ObjectStore(s3Client(), config.bucket);
const templates = new DynamoTemplateStore(dynamoClient(), config.tables.templates);

interface CreateInput {
  tenantId: string;
  keyId: string;
  idempotencyKey: string;
  bodyHash: string;
  fields: Record<string, unknown>;
  baseUrl: string;
}

/** JSON with object keys sorted at every level: equal field sets give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * Addresses the service will never fetch from or deliver to (metadata, link-local, and on AWS private and
 * loopback ones), refused at once when the URL names them literally rather than when the render or the
 * delivery runs into them. Names are judged through DNS at fetch time.
 */
function refuseUnreachable(command: CreateVideoCommand) {
  const problems: FieldProblem[] = [];
  const check = (path: string, value: string | undefined) => {
    const reason = value ? refusalWithoutResolving(new URL(value), config.mode) : undefined;
    if (reason) problems.push({ path, message: `points at an address vidbot does not connect to (${reason.replace(/_/g, ' ')})` });
  };
  check('webhook', command.webhookUrl);
  for (const [index, clip] of command.clips.entries()) check(`clips[${index}].background`, 'background' in clip ? clip.background : undefined);
  if (problems.length) throw new InvalidRequest(problems);
}

async function create(input: Omit<CreateInput, 'idempotencyKey' | 'bodyHash'>): Promise<HttpResult> {
  try {
    const command = parseCreateVideo(input.fields);
    refuseUnreachable(command);
    const created = await createVideo(command, { tenantId: input.tenantId, keyId: input.keyId }, deps);
    logger.info('video created', { video_id: created.videoId, clips: created.clipCount, create_video: created.createVideo });
    recordVideoCreated();
    const body = toCreatedVideo(created, input.baseUrl);
    return json(202, body, { Location: body.url });
  } catch (error) {
    if (error instanceof TooManyVideosInProgress) logger.info('create refused: videos in progress at the limit', { limit: error.limit });
    throw error;
  }
}

/**
 * An Idempotency-Key makes a retried create safe: Powertools' idempotency utility keeps the first response for
 * 24 h in DynamoDB, keyed by tenant and key, and refuses the same key with a different body.
 */
const idempotency = new IdempotencyConfig({
  eventKeyJmesPath: '[tenantId, idempotencyKey]',
  payloadValidationJmesPath: 'bodyHash',
  expiresAfterSeconds: limits.idempotencyTtlSeconds,
  throwOnNoIdempotencyKey: true,
});
const createOnce = makeIdempotent(async (input: CreateInput) => create(input), {
  persistenceStore: new DynamoDBPersistenceLayer({ tableName: config.tables.idempotency, awsSdkV3Client: dynamoBaseClient() }),
  config: idempotency,
});

/** Creates the video of these fields, once per Idempotency-Key when the caller sends one (`bodyHash` names the request). */
async function createOnceFor(request: HttpRequest, fields: Record<string, unknown>, bodyHash: string): Promise<HttpResult> {
  const caller = request.caller!;
  const base = { tenantId: caller.tenantId, keyId: caller.keyId, fields, baseUrl: request.baseUrl };
  const idempotencyKey = request.headers['idempotency-key']?.trim();
  if (idempotencyKey === undefined) return create(base);
  if (!/^[\x21-\x7e]{1,255}$/.test(idempotencyKey))
    throw new BadRequestError('Idempotency-Key must be 1-255 visible ASCII characters.', [{ path: 'Idempotency-Key', message: 'invalid' }]);
  try {
    return await createOnce({ ...base, idempotencyKey, bodyHash });
  } catch (error) {
    if (error instanceof IdempotencyValidationError) throw new IdempotencyKeyReusedError();
    if (error instanceof IdempotencyAlreadyInProgressError)
      throw new ConflictError('A request with this Idempotency-Key is still being processed; retry shortly.', 'idempotency_in_progress');
    throw error;
  }
}

const hashOf = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex');

async function createVideoOperation(request: HttpRequest): Promise<HttpResult> {
  const fields = await readFields(request, limits.maxBodyBytes);
  // The fields, not the raw bytes: a multipart body carries a random boundary, so a retried `curl -F` is byte-
  // for-byte different while asking for the same video.
  return createOnceFor(request, fields, hashOf(fields));
}

const TEMPLATE_VIDEO_FIELDS = new Set(['webhook', 'process_done_webhook', 'variables']);

/** POST /v1/templates/{uid}/videos: the template's fields filled with the caller's values, then created as any video. */
async function createFromTemplateOperation(request: HttpRequest): Promise<HttpResult> {
  const body = await readFields(request, limits.maxBodyBytes);
  const unknown = Object.keys(body).filter((key) => !TEMPLATE_VIDEO_FIELDS.has(key));
  if (unknown.length)
    throw new InvalidRequest(unknown.map((path) => ({ path, message: 'is not a field of a video from a template (webhook, variables)' })));
  const uid = request.pathParams.uid ?? '';
  const template = await ownTemplate(templates, request.caller!.tenantId, uid);
  const { variables, ...webhook } = body;
  const fields = { ...fieldsFromTemplate(template, parseJsonField(variables, 'variables')), ...webhook };
  return createOnceFor(request, fields, hashOf({ template: uid, ...body }));
}

/** A form sends an object field as its JSON text. */
function parseJsonField(value: unknown, path: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new InvalidRequest([{ path, message: 'must be a JSON object of variable names to text values' }]);
  }
}

const routes = httpHandler({
  'POST /v1/bot': createVideoOperation,
  'POST /v1/create_video': createVideoOperation,
  'POST /v1/templates/{uid}/videos': createFromTemplateOperation,
  // API Gateway delivers POST /v1/bot/ to the same resource; the interface makes it "list all bots".
  'POST /v1/bot/': (request) => listBots(request.caller!.tenantId, { bots, accountBots, objects, voices: config.voices }),
});

export const handler = (event: APIGatewayProxyEvent, context: Context) => {
  idempotency.registerLambdaContext(context);
  return routes(event, context);
};
