import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoLexiconStore } from '#commons/aws/dynamo-lexicons';
import { DynamoBotCatalog, DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { hideReceivedMessage, SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { jobConsumer, mediaDeadlineOf } from '#commons/queue-consumer';
import { removeLeftoverWorkDirs } from '#commons/workdirs';
import { type AssembleMessage, type DeliverMessage, type FetchMediaMessage, renderClipMessageSchema } from '#domain/messages';
import { fetchedBackground } from './background.ts';
import { type ClipJobDeps, renderJob } from './clip-job.ts';
import { configureEngineAssets, renderClip } from './engine/index.ts';
import { fetchedImage } from './image.ts';
import { lookDirectories } from './look-cache.ts';
import { fetchRecording } from './recording.ts';
import { speechEngineFor } from './speech/index.ts';
import { warmUpRender } from './warm-up.ts';

const config = loadConfig({
  tables: ['videos', 'bots', 'accountBots', 'clips', 'lexicons'],
  queues: ['assemble', 'notify', 'fetch', 'render'],
  bucket: true,
  consumer: true,
});
configureEngineAssets(config.engineAssets);
// Before the first request: what a first render would otherwise pay on its own time (warm-up.ts).
if (config.renderWarmUp) await warmUpRender(config.voices);
const objects = new S3ObjectStore(s3Client(), config.bucket);
const deps: ClipJobDeps = {
  videos: new DynamoVideoRepository(dynamoClient(), config.tables.videos),
  bots: new DynamoBotCatalog(dynamoClient(), config.tables.bots),
  accountBots: new DynamoAccountBotStore(dynamoClient(), config.tables.accountBots),
  lookDirectory: lookDirectories(objects),
  clips: new DynamoClipLibrary(dynamoClient(), config.tables.clips),
  lexicons: new DynamoLexiconStore(dynamoClient(), config.tables.lexicons),
  objects,
  assembleQueue: new SqsQueue<AssembleMessage>(sqsClient(), config.queues.assemble),
  notifyQueue: new SqsQueue<DeliverMessage>(sqsClient(), config.queues.notify),
  fetchQueue: new SqsQueue<FetchMediaMessage>(sqsClient(), config.queues.fetch),
  renderClip,
  speechFor: (voice) => speechEngineFor(voice),
  voices: config.voices,
  // The media from URLs is in the bucket: the fetch stage (functions/fetcher) brought it.
  fetchBackground: (key, path, workDir, budget, account) => fetchedBackground(objects, key, path, workDir, budget, account),
  fetchImage: (key, path, subject, fit, budget) => fetchedImage(objects, key, path, subject, fit, budget),
  fetchRecording: (recording, path) => fetchRecording(recording, path, objects),
  renderBudgetScale: config.renderBudgetScale,
  now: () => new Date(),
};
export const handler = jobConsumer(renderClipMessageSchema, renderJob, {
  deps: ({ context }) => ({ ...deps, renderDeadline: () => mediaDeadlineOf(context) }),
  maxReceives: config.maxReceiveCount,
  // A render killed by the timeout left its work dir here; nothing else runs in this environment now.
  beforeBatch: () => removeLeftoverWorkDirs('render'),
  retryIn: hideReceivedMessage(sqsClient(), config.queues.render),
  visibilitySeconds: config.visibilitySeconds,
});
