/**
 * The work a video still owes, read from its record alone: the clips not yet rendered, an assembly not yet done,
 * an event not yet delivered. The record holds the truth and every consumer is idempotent (messages carry ids
 * only; the repository's transitions are conditional), so sending a message for work that was in fact already
 * done is harmless. The sweeper re-queues events by this rule; the local runtime re-queues everything its
 * in-memory queues lost on a restart by it.
 */
import type { AssembleMessage, DeliverMessage, RenderClipMessage } from './messages.ts';
import { eventIdFor, isTerminal, type VideoRecord } from './video.ts';

export interface PendingWork {
  render: RenderClipMessage[];
  /** `delaySeconds`: an assembly whose lease is still held is sent once it has run out (sooner, it would stand down). */
  assemble?: { message: AssembleMessage; delaySeconds: number };
  deliver?: DeliverMessage;
}

/** The event a finished video still has to deliver (its delivery pending or under way), or undefined. */
export function pendingDelivery(video: VideoRecord): DeliverMessage | undefined {
  if (video.status !== 'completed' && video.status !== 'failed') return undefined;
  const delivery = video.delivery;
  if (delivery.state !== 'pending' && delivery.state !== 'delivering') return undefined;
  const eventId = delivery.eventId ?? eventIdFor(video.videoId, video.status);
  return { kind: 'deliver', tenantId: video.tenantId, videoId: video.videoId, eventId, attempt: (delivery.attempts?.length ?? 0) + 1 };
}

export function pendingWork(video: VideoRecord, nowSeconds: number): PendingWork {
  if (isTerminal(video.status)) {
    const deliver = pendingDelivery(video);
    return deliver ? { render: [], deliver } : { render: [] };
  }
  if (video.status === 'assembling' || (video.status === 'rendering' && video.renderedCount >= video.clipCount)) {
    const leaseLeft = video.status === 'assembling' ? (video.assemblyLeaseUntil ?? 0) - nowSeconds + 1 : 0;
    // SQS delays a message by at most 15 minutes.
    return {
      render: [],
      assemble: {
        message: { kind: 'assemble', tenantId: video.tenantId, videoId: video.videoId },
        delaySeconds: Math.max(0, Math.min(leaseLeft, 900)),
      },
    };
  }
  const render: RenderClipMessage[] = [];
  for (let clipIndex = 0; clipIndex < video.clipCount; clipIndex++) {
    if (video.clipResults?.[String(clipIndex)]?.status !== 'rendered')
      render.push({ kind: 'render-clip', tenantId: video.tenantId, videoId: video.videoId, clipIndex });
  }
  return { render };
}
