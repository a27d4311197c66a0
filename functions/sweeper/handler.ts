import type { DeliverMessage } from '#domain/messages';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { SqsDeadLetterInbox, SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { observed } from '#commons/invocation';
import { sweep } from './sweep.ts';

const config = loadConfig({ tables: ['videos'], queues: ['notify'], deadLetters: ['render', 'assemble'] });
const deps = {
  videos: new DynamoVideoRepository(dynamoClient(), config.tables.videos),
  notifyQueue: new SqsQueue<DeliverMessage>(sqsClient(), config.queues.notify),
  deadLetters: Object.values(config.deadLetters).map((url) => new SqsDeadLetterInbox(sqsClient(), url)),
  now: () => new Date(),
};

/** Runs on a schedule (EventBridge on AWS, a timer locally). */
export const handler = observed(async () => sweep(deps));
