import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoBatchStore } from '#commons/aws/dynamo-batches';
import { DynamoAccountStore, DynamoBotCatalog, DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { logger } from '#commons/logger';
import { queueConsumer } from '#commons/queue-consumer';
import { type AdvanceBatchDeps, advanceBatch } from '#domain/batches';
import { type BatchTickMessage, batchTickMessageSchema, type DeliverBatchMessage, type RenderClipMessage } from '#domain/messages';

const config = loadConfig({
  tables: ['batches', 'videos', 'accounts', 'bots', 'accountBots', 'clips'],
  queues: ['batch', 'render', 'notify'],
  bucket: true,
});
const deps: AdvanceBatchDeps = {
  batches: new DynamoBatchStore(dynamoClient(), config.tables.batches),
  videos: new DynamoVideoRepository(dynamoClient(), config.tables.videos),
  accounts: new DynamoAccountStore(dynamoClient(), config.tables.accounts),
  bots: new DynamoBotCatalog(dynamoClient(), config.tables.bots),
  accountBots: new DynamoAccountBotStore(dynamoClient(), config.tables.accountBots),
  clips: new DynamoClipLibrary(dynamoClient(), config.tables.clips),
  objects: new S3ObjectStore(s3Client(), config.bucket),
  renderQueue: new SqsQueue<RenderClipMessage>(sqsClient(), config.queues.render),
  batchQueue: new SqsQueue<BatchTickMessage>(sqsClient(), config.queues.batch),
  notifyQueue: new SqsQueue<DeliverBatchMessage>(sqsClient(), config.queues.notify),
  now: () => new Date(),
  newVideoId: () => {
    throw new Error('a batch names its videos itself (rowVideoId)');
  },
  voices: config.voices,
};

/** The batch worker: one look at a batch per message (domain/batches.ts advanceBatch). */
export const handler = queueConsumer(batchTickMessageSchema, async ({ message }) => {
  const outcome = await advanceBatch(message, deps);
  logger.info('batch look', { tenant_id: message.tenantId, batch_id: message.batchId, version: message.version, outcome });
});
