import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { AssembleMessage, DeliverMessage } from '#domain/messages';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { logger } from '#commons/logger';
import { failureReport } from '#commons/net/transient';
import { queues } from '../../infra/wiring.ts';
import { failVideo } from '../render/clip-job.ts';
import { concatClips } from '../render/engine/concat.ts';
import { runAssembleJob, type AssembleDeps } from './assemble-job.ts';

const config = loadConfig({ tables: ['videos'], queues: ['notify'], bucket: true });
const deps: AssembleDeps = {
  videos: new DynamoVideoRepository(dynamoClient(), config.tables.videos),
  objects: new S3ObjectStore(s3Client(), config.bucket),
  notifyQueue: new SqsQueue<DeliverMessage>(sqsClient(), config.queues.notify),
  concat: concatClips,
};
const processor = new BatchProcessor(EventType.SQS);

async function assembleRecord(record: SQSRecord): Promise<void> {
  const message = JSON.parse(record.body) as AssembleMessage;
  const receive = Number(record.attributes.ApproximateReceiveCount ?? 1);
  try {
    await runAssembleJob(message, deps);
  } catch (error) {
    const report = failureReport(error, { attempt: receive, maxAttempts: queues.assemble.maxReceiveCount });
    logger.error('assembly attempt failed', { video_id: message.videoId, ...report, error: error as Error });
    if (!report.willRetry) await failVideo(deps, message.videoId, { code: 'assembly_failed', message: report.message });
    if (report.transient) throw error;
  }
}

export const handler = async (event: SQSEvent, context: Context) => processPartialResponse(event, assembleRecord, processor, { context });
