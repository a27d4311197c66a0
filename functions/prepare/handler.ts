import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { jobConsumer } from '#commons/queue-consumer';
import { makeWorkDir, removeLeftoverWorkDirs } from '#commons/workdirs';
import { type DeliverBotMessage, prepareBotMessageSchema } from '#domain/messages';
import { buildDrawnLook, type DrawnImages } from './drawn-look.ts';
import { buildFootageLook } from './footage/footage-look.ts';
import { fetchBotImage, fetchRecording } from './image-url.ts';
import type { PreparedLook } from './look.ts';
import { buildPhotoLook } from './photo-look.ts';
import { type PrepareJobDeps, prepareJob } from './prepare-job.ts';

const config = loadConfig({ tables: ['accountBots'], queues: ['notify'], bucket: true, consumer: true });
const objects = new S3ObjectStore(s3Client(), config.bucket);

/** An upload's bytes, by way of a work dir (the object store's port reads into files). */
async function readObject(key: string): Promise<Buffer | undefined> {
  const dir = await makeWorkDir('prepare', 'upload');
  try {
    const path = join(dir, 'object');
    return (await objects.getToFile(key, path)) ? await readFile(path) : undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The look builders: the consumer's one seam. */
interface LookBuilders {
  buildPhotoLook: (image: Buffer) => Promise<PreparedLook>;
  buildDrawnLook: (images: DrawnImages) => Promise<PreparedLook>;
  buildFootageLook: PrepareJobDeps['buildFootageLook'];
}

/** A video bot's look, its recording streamed into a work dir first (ffmpeg reads files; the dir goes after). */
async function buildFootageLookOf(writeRecording: (path: string) => Promise<void>): Promise<PreparedLook> {
  const dir = await makeWorkDir('prepare', 'footage');
  try {
    const path = join(dir, 'recording');
    await writeRecording(path);
    return await buildFootageLook(path, (await stat(path)).size, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const prepareConsumer = (builders: LookBuilders) => {
  const deps: PrepareJobDeps = {
    accountBots: new DynamoAccountBotStore(dynamoClient(), config.tables.accountBots),
    objects,
    readObject,
    notifyQueue: new SqsQueue<DeliverBotMessage>(sqsClient(), config.queues.notify),
    ...builders,
    fetchImage: (url) => fetchBotImage(url, config.mode),
    fetchRecording: (url, path) => fetchRecording(url, path, config.mode),
    now: () => new Date(),
  };
  return jobConsumer(prepareBotMessageSchema, prepareJob, {
    deps: () => deps,
    maxReceives: config.maxReceiveCount,
    beforeBatch: () => removeLeftoverWorkDirs('prepare'),
  });
};

export const handler = prepareConsumer({ buildPhotoLook, buildDrawnLook, buildFootageLook: buildFootageLookOf });
