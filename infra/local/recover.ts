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
  // delaySeconds: an assembly whose lease is still held (claimed just before the restart) is sent once it has
  // run out; sooner, the message would find the assembly claimed by a run that no longer exists and stand down.
  const outbox: Record<'render' | 'assemble' | 'notify', Array<{ body: RenderClipMessage | AssembleMessage | DeliverMessage; delaySeconds?: number }>> = {
    render: [],
    assemble: [],
    notify: [],
  };
  const nowSeconds = Math.floor(Date.now() / 1000);
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new ScanCommand({ TableName: videosTable, ExclusiveStartKey: cursor }));
    for (const video of (page.Items ?? []) as VideoRecord[]) {
      if (isTerminal(video.status)) {
        const delivery = video.delivery;
        if (delivery?.eventId && (delivery.state === 'pending' || delivery.state === 'delivering')) {
          outbox.notify.push({ body: { kind: 'deliver', videoId: video.videoId, eventId: delivery.eventId, attempt: (delivery.attempts?.length ?? 0) + 1 } });
        }
      } else if (video.status === 'assembling' || (video.status === 'rendering' && video.renderedCount >= video.clipCount)) {
        const leaseLeft = video.status === 'assembling' ? (video.assemblyLeaseUntil ?? 0) - nowSeconds + 1 : 0;
        outbox.assemble.push({ body: { kind: 'assemble', videoId: video.videoId }, delaySeconds: leaseLeft > 0 ? Math.min(leaseLeft, 900) : undefined });
      } else {
        for (let clipIndex = 0; clipIndex < video.clipCount; clipIndex++) {
          if (video.clipResults?.[String(clipIndex)]?.status !== 'rendered') outbox.render.push({ body: { kind: 'render-clip', videoId: video.videoId, clipIndex } });
        }
      }
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);

  for (const [queue, messages] of Object.entries(outbox) as [keyof typeof outbox, (typeof outbox)['render']][]) {
    const url = queueUrls[queue];
    if (!url || !messages.length) continue;
    for (let i = 0; i < messages.length; i += 10) {
      const batch = messages.slice(i, i + 10);
      await sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m.body), DelaySeconds: m.delaySeconds })) }));
    }
  }
  const counts = { render: outbox.render.length, assemble: outbox.assemble.length, notify: outbox.notify.length };
  if (counts.render + counts.assemble + counts.notify > 0) log.info('re-enqueued unfinished work lost with the in-memory queues', counts);
  return counts;
}
