import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { AssembleMessage, DeliverMessage } from '#domain/messages';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { removeLeftoverWorkDirs } from '#commons/workdirs';
import { concatClips } from '#media/concat';
import { handleAssembleMessage, type AssembleDeps } from './assemble-job.ts';

const config = loadConfig({ tables: ['videos'], queues: ['notify'], bucket: true, consumer: true, assemblyLease: true });
const deps: AssembleDeps = {
  videos: new DynamoVideoRepository(dynamoClient(), config.tables.videos),
  objects: new S3ObjectStore(s3Client(), config.bucket),
  notifyQueue: new SqsQueue<DeliverMessage>(sqsClient(), config.queues.notify),
  concat: concatClips,
  assemblyLeaseSeconds: config.assemblyLeaseSeconds,
};
const processor = new BatchProcessor(EventType.SQS);

async function assembleRecord(record: SQSRecord): Promise<void> {
  const message = JSON.parse(record.body) as AssembleMessage;
  await handleAssembleMessage(message, Number(record.attributes.ApproximateReceiveCount ?? 1), config.maxReceiveCount, deps);
}

export const handler = async (event: SQSEvent, context: Context) => {
  // A run killed by the timeout left its work dir here; nothing else runs in this environment now.
  await removeLeftoverWorkDirs('assemble');
  return processPartialResponse(event, assembleRecord, processor, { context });
};
