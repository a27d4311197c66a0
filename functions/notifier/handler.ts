import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoBatchStore } from '#commons/aws/dynamo-batches';
import { DynamoKeyStore } from '#commons/aws/dynamo-stores';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { dynamoBaseClient, dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { queueConsumer } from '#commons/queue-consumer';
import { type NotifyMessage, notifyMessageSchema } from '#domain/messages';
import { type DeliveryDeps, deliverEvent, type Receipt } from './delivery-job.ts';
import { batchEvents } from './owners/batch-events.ts';
import { botEvents } from './owners/bot-events.ts';
import { videoEvents } from './owners/video-events.ts';

const config = loadConfig({ tables: ['videos', 'accountBots', 'batches', 'keys', 'idempotency'], queues: ['notify'], bucket: true });
/**
 * Test-only knob: the local runtime's tests shrink the 24-hour retry schedule with it. Unset on AWS.
 */
const delayScale = Number(process.env.VIDBOT_DELIVERY_DELAY_SCALE ?? 1) || 1;
const objects = new S3ObjectStore(s3Client(), config.bucket);
const deps: DeliveryDeps = {
  owners: {
    deliver: videoEvents({ videos: new DynamoVideoRepository(dynamoClient(), config.tables.videos), objects }),
    'deliver-bot': botEvents({ accountBots: new DynamoAccountBotStore(dynamoClient(), config.tables.accountBots), objects, voices: config.voices }),
    'deliver-batch': batchEvents({ batches: new DynamoBatchStore(dynamoClient(), config.tables.batches) }),
  },
  keys: new DynamoKeyStore(dynamoClient(), config.tables.keys),
  mode: config.mode,
  now: () => new Date(),
};

/** A failed attempt that is to be tried again: thrown out of the idempotent section (see deliverOnce). */
class RetryLaterError extends Error {
  constructor(
    readonly retryInSeconds: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'RetryLaterError';
  }
}

/**
 * One delivery per event and attempt key, even if the queue hands the same message out twice (or the sweeper
 * re-queued it): the idempotency store holds the event id while it is being delivered and after it succeeded.
 * Only a finished outcome is stored: a failed attempt throws, which removes the in-progress record, so the
 * next receive of the message makes a real attempt instead of replaying the stored failure.
 */
const idempotency = new IdempotencyConfig({ eventKeyJmesPath: 'idempotencyKey', expiresAfterSeconds: 48 * 3600, throwOnNoIdempotencyKey: true });
const deliverOnce = makeIdempotent(
  async (input: { idempotencyKey: string; message: NotifyMessage; receipt: Receipt }) => {
    const { message, receipt } = input;
    const outcome = await deliverEvent(message, receipt, deps);
    if (!outcome.done) throw new RetryLaterError(outcome.retryInSeconds, outcome.reason);
    return outcome;
  },
  {
    persistenceStore: new DynamoDBPersistenceLayer({ tableName: config.tables.idempotency, awsSdkV3Client: dynamoBaseClient() }),
    config: idempotency,
  },
);

async function deliverRecord({ message, record, receive }: { message: NotifyMessage; record: SQSRecord; receive: number }): Promise<void> {
  // A redelivery asked for by the caller is a new delivery; the record's own attempts key the retries.
  const idempotencyKey = `${message.eventId}:${message.redelivery ? `redeliver:${record.messageId}` : 'first'}`;
  try {
    await deliverOnce({ idempotencyKey, message, receipt: { messageId: record.messageId, receiveCount: receive } });
  } catch (error) {
    if (!(error instanceof RetryLaterError)) throw error;
    // Each receive is one attempt: hide the message until the next attempt is due and report it as failed,
    // so SQS (not a sleeping Lambda) schedules the retry and its redrive policy dead-letters the last one.
    const seconds = Math.max(0, Math.round(error.retryInSeconds * delayScale));
    await sqsClient().send(
      new ChangeMessageVisibilityCommand({ QueueUrl: config.queues.notify, ReceiptHandle: record.receiptHandle, VisibilityTimeout: seconds }),
    );
    throw new Error(`${error.message}; next attempt in ${seconds} s`);
  }
}

export const handler = queueConsumer(notifyMessageSchema, deliverRecord, {
  // An in-progress record outlives a crashed invocation only until the function's own timeout.
  beforeBatch: (context) => idempotency.registerLambdaContext(context),
});
