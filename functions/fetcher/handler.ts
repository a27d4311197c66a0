import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { jobConsumer } from '#commons/queue-consumer';
import { removeLeftoverWorkDirs } from '#commons/workdirs';
import { type AssembleMessage, type DeliverMessage, fetchMediaMessageSchema, type RenderClipMessage } from '#domain/messages';
import { fetchMediaToFile } from '#media/fetch-media';
import { type FetchJobDeps, fetchJob } from './fetch-job.ts';

const config = loadConfig({ tables: ['videos'], queues: ['render', 'assemble', 'notify'], bucket: true, consumer: true });
const deps: FetchJobDeps = {
  videos: new DynamoVideoRepository(dynamoClient(), config.tables.videos),
  objects: new S3ObjectStore(s3Client(), config.bucket),
  renderQueue: new SqsQueue<RenderClipMessage>(sqsClient(), config.queues.render),
  assembleQueue: new SqsQueue<AssembleMessage>(sqsClient(), config.queues.assemble),
  notifyQueue: new SqsQueue<DeliverMessage>(sqsClient(), config.queues.notify),
  download: fetchMediaToFile,
  mode: config.mode,
};
export const handler = jobConsumer(fetchMediaMessageSchema, fetchJob, {
  deps: () => deps,
  maxReceives: config.maxReceiveCount,
  // A run killed by the timeout left its work dir here; nothing else runs in this environment now.
  beforeBatch: () => removeLeftoverWorkDirs('fetch'),
});
