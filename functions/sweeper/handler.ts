import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoBatchStore } from '#commons/aws/dynamo-batches';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsDeadLetterInbox, SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { SWEPT_DEAD_LETTERS } from '#commons/env-names';
import { observed } from '#commons/invocation';
import type { BatchTickMessage, NotifyMessage } from '#domain/messages';
import { sweep } from './sweep.ts';

const config = loadConfig({
  tables: ['videos', 'accountBots', 'batches'],
  queues: ['notify', 'batch'],
  deadLetters: SWEPT_DEAD_LETTERS,
  bucket: true,
});
const deps = {
  videos: new DynamoVideoRepository(dynamoClient(), config.tables.videos),
  batches: new DynamoBatchStore(dynamoClient(), config.tables.batches),
  batchQueue: new SqsQueue<BatchTickMessage>(sqsClient(), config.queues.batch),
  notifyQueue: new SqsQueue<NotifyMessage>(sqsClient(), config.queues.notify),
  accountBots: new DynamoAccountBotStore(dynamoClient(), config.tables.accountBots),
  objects: new S3ObjectStore(s3Client(), config.bucket),
  deadLetters: Object.values(config.deadLetters).map((url) => new SqsDeadLetterInbox(sqsClient(), url)),
  now: () => new Date(),
};

/** Runs on a schedule (EventBridge on AWS, a timer locally). */
export const handler = observed(async () => sweep(deps));
