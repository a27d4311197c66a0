import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoBatchStore } from '#commons/aws/dynamo-batches';
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
import { batchUrl, toPublicBatch } from '#commons/presenters/batch';
import { newBatchId } from '#domain/batch-ids';
import { checkRowRecordings, checkRows, parseBatchFields, previewBatch } from '#domain/batch-request';
import { type BatchRow, readBatchRows } from '#domain/batch-rows';
import { cancelBatch, ownBatch, rowStates, startBatch } from '#domain/batches';
import { invalidCursor } from '#domain/errors';
import { limits } from '#domain/limits';
import { downloadLink, posterLink } from '#domain/links';
import type { BatchTickMessage } from '#domain/messages';
import { ownTemplate } from '#domain/templates';
import { pageSize } from './paging.ts';
import { unreachableProblems } from './unreachable.ts';

const config = loadConfig({
  tables: ['batches', 'templates', 'bots', 'accountBots', 'clips', 'accounts', 'videos', 'idempotency', 'uploads'],
  queues: ['batch'],
  bucket: true,
});
const batches = new DynamoBatchStore(dynamoClient(), config.tables.batches);
const templates = new DynamoTemplateStore(dynamoClient(), config.tables.templates);
const videos = new DynamoVideoRepository(dynamoClient(), config.tables.videos);
const objects = new S3ObjectStore(s3Client(), config.bucket);
const accounts = new DynamoAccountStore(dynamoClient(), config.tables.accounts);
const clipDeps = {
  bots: new DynamoBotCatalog(dynamoClient(), config.tables.bots),
  accountBots: new DynamoAccountBotStore(dynamoClient(), config.tables.accountBots),
  clips: new DynamoClipLibrary(dynamoClient(), config.tables.clips),
  accounts,
  voices: config.voices,
};
const recordings = { uploads: new DynamoUploadStore(dynamoClient(), config.tables.uploads), objects };
const startDeps = {
  batches,
  objects,
  recordings,
  batchQueue: new SqsQueue<BatchTickMessage>(sqsClient(), config.queues.batch),
  accounts,
  now: () => new Date(),
  newBatchId,
};

interface BatchInput {
  uid: string;
  webhook: unknown;
  notifyEach: boolean;
  rows: BatchRow[];
}

/** Every row checked, then the batch stored and its first look queued: 202 with where to follow it. */
async function createBatch(input: CallerInput & BatchInput): Promise<HttpResult> {
  const template = await ownTemplate(templates, input.tenantId, input.uid);
  const webhookUrl = await checkRows(template, input, input.tenantId, clipDeps, (command) => unreachableProblems(command, config.mode));
  const batch = await startBatch(template, { webhookUrl, notifyEach: input.notifyEach, rows: input.rows }, input, startDeps);
  logger.info('batch created', { batch_id: batch.batchId, template_uid: template.uid, rows: batch.rowCount });
  const url = batchUrl(input.baseUrl, batch.batchId);
  return json(202, { batch_id: batch.batchId, rows: batch.rowCount, status: batch.status, url }, { Location: url });
}

/** A retried batch with the same Idempotency-Key gets the first answer and makes no second batch. */
const createOnce = idempotentOperation<BatchInput>(config.tables.idempotency, createBatch);

/**
 * `dry_run: true`: every row checked exactly as a batch is, nothing stored or queued: 200 with the row count and
 * the first row's clips filled in (the console's preview), or the same 400 the batch would get.
 */
async function previewBatchRows(tenantId: string, input: BatchInput): Promise<HttpResult> {
  const template = await ownTemplate(templates, tenantId, input.uid);
  const webhookUrl = await checkRows(template, input, tenantId, clipDeps, (command) => unreachableProblems(command, config.mode));
  await checkRowRecordings(template, input.rows, webhookUrl, tenantId, { ...recordings, now: () => new Date() });
  return json(200, { dry_run: true, template_uid: template.uid, rows: input.rows.length, first_row: previewBatch(template, input.rows) });
}

async function createBatchOperation(request: KeyedRequest): Promise<HttpResult> {
  const body = await readFields(request, limits.maxBatchBodyBytes);
  const { webhook, notifyEach, dryRun } = parseBatchFields(body);
  const rows = readBatchRows(body.rows);
  const uid = request.pathParams.uid ?? '';
  if (dryRun) return previewBatchRows(request.caller.tenantId, { uid, webhook, notifyEach, rows });
  return createOnce.run(request, { uid, webhook, notifyEach, rows }, hashOf({ template: uid, ...body }));
}

/** `cursor` of a batch's rows: the next row's number, as the previous page gave it. */
function rowCursor(cursor: string | undefined, rowCount: number): number {
  if (cursor === undefined || cursor === '') return 0;
  const row = /^\d{1,6}$/.test(cursor) ? Number(cursor) : Number.NaN;
  if (!(row < rowCount)) throw invalidCursor();
  return row;
}

/** GET /v1/batches/{id}: the batch, and one page of its rows with their videos. */
async function readBatch(request: KeyedRequest): Promise<HttpResult> {
  const batch = await ownBatch(batches, request.caller.tenantId, request.pathParams.id ?? '');
  const from = rowCursor(request.query.cursor, batch.rowCount);
  const limit = pageSize(request.query);
  const rows = await Promise.all(
    rowStates(batch, from, limit).map(async (row) => {
      const video = row.videoId ? await videos.get(row.videoId) : undefined;
      const [link, poster] = video ? await Promise.all([downloadLink(objects, video), posterLink(objects, video)]) : [];
      const first = video?.clips[0];
      return {
        row: row.row,
        status: row.state === 'released' ? (video?.status ?? 'deleted') : row.state,
        video_id: video ? row.videoId : null,
        // The row's first clip as it was filled in: which row is whom, at a glance.
        clip_name: first?.clipName ?? null,
        text: first?.text ?? null,
        kind: video?.output?.kind ?? null,
        download_url: link?.url ?? null,
        thumbnail_url: poster?.url ?? null,
        error: row.error ?? video?.error?.message ?? null,
      };
    }),
  );
  const next = from + limit < batch.rowCount ? String(from + limit) : null;
  return json(200, { ...toPublicBatch(batch, request.baseUrl), videos: rows, next_cursor: next });
}

const routes = httpHandler({
  'POST /v1/templates/{uid}/batches': createBatchOperation,
  'GET /v1/batches': async (request) => {
    const page = await batches.list(request.caller.tenantId, { limit: pageSize(request.query), cursor: request.query.cursor });
    return json(200, { batches: page.items.map((b) => toPublicBatch(b, request.baseUrl)), next_cursor: page.nextCursor ?? null });
  },
  'GET /v1/batches/{id}': readBatch,
  'DELETE /v1/batches/{id}': async (request) => {
    const batch = await cancelBatch(batches, request.caller.tenantId, request.pathParams.id ?? '');
    logger.info('batch cancel requested', { batch_id: batch.batchId });
    return json(202, toPublicBatch(batch, request.baseUrl));
  },
});

export const handler = (event: APIGatewayProxyEvent, context: Context) => {
  createOnce.registerLambdaContext(context);
  return routes(event, context);
};
