import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { jobConsumer, mediaDeadlineOf } from '#commons/queue-consumer';
import { removeLeftoverWorkDirs } from '#commons/workdirs';
import { assembleMessageSchema, type DeliverMessage, type FetchMediaMessage } from '#domain/messages';
import { concatClips } from '#media/concat';
import { mixMusic } from '#media/music';
import { extractPoster } from '#media/poster';
import { type AssembleDeps, assembleJob } from './assemble-job.ts';
import { musicBed } from './music.ts';

const config = loadConfig({ tables: ['videos'], queues: ['notify', 'fetch'], bucket: true, consumer: true, assemblyLease: true });
const objects = new S3ObjectStore(s3Client(), config.bucket);
const deps: AssembleDeps = {
  videos: new DynamoVideoRepository(dynamoClient(), config.tables.videos),
  objects,
  notifyQueue: new SqsQueue<DeliverMessage>(sqsClient(), config.queues.notify),
  fetchQueue: new SqsQueue<FetchMediaMessage>(sqsClient(), config.queues.fetch),
  concat: concatClips,
  poster: extractPoster,
  // A music file at a URL is in the bucket: the fetch stage (functions/fetcher) brought it.
  musicBed: (music, workDir, seconds, fetchedKey, deadline) => musicBed(music, workDir, seconds, { key: fetchedKey, objects }, deadline),
  mixMusic,
  assemblyLeaseSeconds: config.assemblyLeaseSeconds,
};
export const handler = jobConsumer(assembleMessageSchema, assembleJob, {
  deps: ({ context }) => ({ ...deps, mediaDeadline: () => mediaDeadlineOf(context) }),
  maxReceives: config.maxReceiveCount,
  // A run killed by the timeout left its work dir here; nothing else runs in this environment now.
  beforeBatch: () => removeLeftoverWorkDirs('assemble'),
});
