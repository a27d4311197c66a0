import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AssembleMessage, DeliverMessage, RenderClipMessage } from '#domain/messages';
import { isTerminal, type VideoRecord } from '#domain/video';
import type { Log } from './log.ts';

/**
 * The local SQS emulator keeps messages in memory, so a restart loses whatever was queued. The video records
 * hold the truth, so the work is re-derived from them and enqueued again: clips not yet rendered, assemblies
 * not yet done, webhook events not yet delivered. Every consumer is idempotent (messages carry ids only and
 * the repository's transitions are conditional), so a message that was in fact already handled is harmless.
 */
export async function requeueUnfinishedWork(options: {
  doc: DynamoDBDocumentClient;
  sqs: SQSClient;
  videosTable: string;
  queueUrls: { render?: string; assemble?: string; notify?: string };
  log: Log;
}) {
  const { doc, sqs, videosTable, queueUrls, log } = options;
  const outbox: Record<'render' | 'assemble' | 'notify', Array<RenderClipMessage | AssembleMessage | DeliverMessage>> = {
    render: [],
    assemble: [],
    notify: [],
  };
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new ScanCommand({ TableName: videosTable, ExclusiveStartKey: cursor }));
    for (const video of (page.Items ?? []) as VideoRecord[]) {
      if (isTerminal(video.status)) {
        const delivery = video.delivery;
        if (delivery?.eventId && (delivery.state === 'pending' || delivery.state === 'delivering')) {
          outbox.notify.push({ kind: 'deliver', videoId: video.videoId, eventId: delivery.eventId, attempt: (delivery.attempts?.length ?? 0) + 1 });
        }
      } else if (video.status === 'assembling' || (video.status === 'rendering' && video.renderedCount >= video.clipCount)) {
        outbox.assemble.push({ kind: 'assemble', videoId: video.videoId });
      } else {
        for (let clipIndex = 0; clipIndex < video.clipCount; clipIndex++) {
          if (video.clipResults?.[String(clipIndex)]?.status !== 'rendered') outbox.render.push({ kind: 'render-clip', videoId: video.videoId, clipIndex });
        }
      }
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);

  for (const [queue, messages] of Object.entries(outbox) as [keyof typeof outbox, unknown[]][]) {
    const url = queueUrls[queue];
    if (!url || !messages.length) continue;
    for (let i = 0; i < messages.length; i += 10) {
      const batch = messages.slice(i, i + 10);
      await sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })) }));
    }
  }
  const counts = { render: outbox.render.length, assemble: outbox.assemble.length, notify: outbox.notify.length };
  if (counts.render + counts.assemble + counts.notify > 0) log.info('re-enqueued unfinished work lost with the in-memory queues', counts);
  return counts;
}
