import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AssembleMessage, DeliverMessage, RenderClipMessage } from '#domain/messages';
import { pendingWork } from '#domain/pending-work';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { SqsQueue } from '#commons/aws/sqs-queue';
import type { Log } from './log.ts';

/**
 * The local SQS emulator keeps messages in memory, so a restart loses whatever was queued. The video records
 * hold the truth: the work each still owes is read from it by the rule the sweeper uses (domain/pending-work)
 * and sent again through the functions' own adapters.
 */
export async function requeueUnfinishedWork(options: {
  doc: DynamoDBDocumentClient;
  sqs: SQSClient;
  videosTable: string;
  queueUrls: { render?: string; assemble?: string; notify?: string };
  log: Log;
}) {
  const { doc, sqs, videosTable, queueUrls, log } = options;
  const videos = new DynamoVideoRepository(doc, videosTable);
  const render = queueUrls.render ? new SqsQueue<RenderClipMessage>(sqs, queueUrls.render) : undefined;
  const assemble = queueUrls.assemble ? new SqsQueue<AssembleMessage>(sqs, queueUrls.assemble) : undefined;
  const notify = queueUrls.notify ? new SqsQueue<DeliverMessage>(sqs, queueUrls.notify) : undefined;
  const counts = { render: 0, assemble: 0, notify: 0 };
  const nowSeconds = Math.floor(Date.now() / 1000);
  for await (const video of videos.scanAll()) {
    const work = pendingWork(video, nowSeconds);
    if (render && work.render.length) {
      await render.sendBatch(work.render);
      counts.render += work.render.length;
    }
    if (assemble && work.assemble) {
      await assemble.send(work.assemble.message, { delaySeconds: work.assemble.delaySeconds });
      counts.assemble++;
    }
    if (notify && work.deliver) {
      await notify.send(work.deliver);
      counts.notify++;
    }
  }
  if (counts.render + counts.assemble + counts.notify > 0) log.info('re-enqueued unfinished work lost with the in-memory queues', counts);
  return counts;
}
