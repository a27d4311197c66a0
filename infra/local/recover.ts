import type { SQSClient } from '@aws-sdk/client-sqs';
import { type DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { SqsQueue } from '#commons/aws/sqs-queue';
import type { AccountBot } from '#domain/account-bot';
import { preparationQueueOf } from '#domain/account-bots';
import { type BatchRecord, isSettled } from '#domain/batches';
import type { AssembleMessage, BatchTickMessage, DeliverBatchMessage, DeliverMessage, PrepareBotMessage, RenderClipMessage } from '#domain/messages';
import { pendingWork } from '#domain/pending-work';
import { DELIVERY_SCHEDULE_SECONDS } from '#functions/notifier/retry.ts';
import type { Log } from './log.ts';

/**
 * How long a recovered event waits before its next attempt: what the schedule still owed since the last attempt
 * (a restart neither hurries the backoff nor starts it again). SQS delays a message by at most 15 minutes, so a
 * longer wait is cut to that.
 * @internal Exported for its tests.
 */
export function recoveredDeliveryDelay(attempts: { at: string }[], nowMs: number): number {
  const last = attempts.at(-1);
  if (!last) return 0;
  const dueMs = Date.parse(last.at) + (DELIVERY_SCHEDULE_SECONDS[Math.min(attempts.length, DELIVERY_SCHEDULE_SECONDS.length - 1)] ?? 0) * 1000;
  return Math.max(0, Math.min(MAX_SQS_DELAY_SECONDS, Math.ceil((dueMs - nowMs) / 1000)));
}
const MAX_SQS_DELAY_SECONDS = 900;

/**
 * The local SQS emulator keeps messages in memory, so a restart loses whatever was queued. The video records
 * hold the truth: the work each still owes is read from it by the rule the sweeper uses (domain/pending-work)
 * and sent again through the functions' own adapters.
 */
export async function requeueUnfinishedWork(options: {
  doc: DynamoDBDocumentClient;
  sqs: SQSClient;
  videosTable: string;
  /** Bots of accounts still `preparing` get their prepare message again. */
  accountBotsTable?: string;
  /** Batches not settled get a look again (of their version); settled ones their undelivered event. */
  batchesTable?: string;
  queueUrls: { render?: string; assemble?: string; notify?: string; prepare?: string; footage?: string; batch?: string };
  log: Log;
}) {
  const { doc, sqs, videosTable, queueUrls, log } = options;
  const videos = new DynamoVideoRepository(doc, videosTable);
  const render = queueUrls.render ? new SqsQueue<RenderClipMessage>(sqs, queueUrls.render) : undefined;
  const assemble = queueUrls.assemble ? new SqsQueue<AssembleMessage>(sqs, queueUrls.assemble) : undefined;
  const notify = queueUrls.notify ? new SqsQueue<DeliverMessage>(sqs, queueUrls.notify) : undefined;
  const counts = { render: 0, assemble: 0, notify: 0, prepare: 0, batch: 0 };
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
      await notify.send(work.deliver, { delaySeconds: recoveredDeliveryDelay(video.delivery.attempts, Date.now()) });
      counts.notify++;
    }
  }
  if (queueUrls.prepare && queueUrls.footage && options.accountBotsTable) {
    const preparations = {
      prepareQueue: new SqsQueue<PrepareBotMessage>(sqs, queueUrls.prepare),
      footageQueue: new SqsQueue<PrepareBotMessage>(sqs, queueUrls.footage),
    };
    for await (const page of paginateScan({ client: doc }, { TableName: options.accountBotsTable })) {
      for (const bot of (page.Items ?? []) as AccountBot[]) {
        if (bot.status !== 'preparing') continue;
        await preparationQueueOf(bot, preparations).send({ kind: 'prepare-bot', tenantId: bot.tenantId, uid: bot.uid, version: bot.version });
        counts.prepare++;
      }
    }
  }
  if (queueUrls.batch && options.batchesTable) {
    const batchQueue = new SqsQueue<BatchTickMessage>(sqs, queueUrls.batch);
    const batchEvents = queueUrls.notify ? new SqsQueue<DeliverBatchMessage>(sqs, queueUrls.notify) : undefined;
    for await (const page of paginateScan({ client: doc }, { TableName: options.batchesTable })) {
      for (const batch of (page.Items ?? []) as BatchRecord[]) {
        const { tenantId, batchId, delivery } = batch;
        if (!isSettled(batch.status)) {
          await batchQueue.send({ kind: 'batch-tick', tenantId, batchId, version: batch.version });
          counts.batch++;
        } else if (batchEvents && delivery && (delivery.state === 'pending' || delivery.state === 'delivering')) {
          const message = { kind: 'deliver-batch' as const, tenantId, batchId, eventId: delivery.eventId, attempt: delivery.attempts.length + 1 };
          await batchEvents.send(message, { delaySeconds: recoveredDeliveryDelay(delivery.attempts, Date.now()) });
          counts.notify++;
        }
      }
    }
  }
  if (counts.render + counts.assemble + counts.notify + counts.prepare + counts.batch > 0)
    log.info('re-enqueued unfinished work lost with the in-memory queues', counts);
  return counts;
}
