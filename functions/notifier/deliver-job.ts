import type { Mode } from '#commons/config';
import { logger } from '#commons/logger';
import { recordWebhookAttempt } from '#commons/metrics';
import { buildVideoEvent } from '#commons/presenters/video';
import { activeWebhookSecrets } from '#domain/api-keys';
import { captionLinks, downloadLink, posterLink } from '#domain/links';
import type { DeliverMessage } from '#domain/messages';
import type { KeyStore, ObjectStore, VideoRepository } from '#domain/ports';
import { isTerminal } from '#domain/video';
import { type DeliverWebhookOptions, type DeliveryResult, deliverWebhook, toDeliveryAttempt } from './deliver.ts';
import { afterAttempt, alreadyDelivered, carriedByAnotherChain } from './delivery-chain.ts';

export interface DeliverDeps {
  videos: VideoRepository;
  keys: KeyStore;
  objects: ObjectStore;
  mode: Mode;
  now: () => Date;
  deliver?: (options: DeliverWebhookOptions) => Promise<DeliveryResult>;
}

/** What the queue consumer must do with the message after an attempt. */
export type DeliveryOutcome = { done: true } | { done: false; retryInSeconds: number; reason: string };

/** The queue message being handled: its id names the chain of attempts it carries. */
export interface Receipt {
  messageId: string;
  /** ApproximateReceiveCount: each receive is one attempt of the schedule. */
  receiveCount: number;
}

/**
 * One attempt to deliver a video's event. After the last attempt of the schedule the message goes to the
 * dead-letter queue.
 */
export async function deliverVideoEvent(message: DeliverMessage, receipt: Receipt, deps: DeliverDeps): Promise<DeliveryOutcome> {
  const { messageId, receiveCount } = receipt;
  const video = await deps.videos.get(message.videoId);
  if (!video) {
    logger.info('event for a deleted video dropped', { video_id: message.videoId });
    return { done: true };
  }
  if (!isTerminal(video.status)) throw new Error(`video ${video.videoId} is ${video.status}; events are only sent for finished videos`);
  if (video.delivery.state === 'none') {
    logger.info('video sends no event of its own (a batch without notify_each)', { video_id: video.videoId });
    await deps.videos.settleWithoutEvent(video.videoId);
    return { done: true };
  }
  if (alreadyDelivered(message, video.delivery)) {
    logger.info('event already delivered', { video_id: video.videoId, event_id: message.eventId });
    return { done: true };
  }
  if (carriedByAnotherChain(message, video.delivery, messageId)) {
    logger.info('duplicate delivery chain dropped', { video_id: video.videoId, event_id: message.eventId, chain: video.delivery.chainId });
    return { done: true };
  }

  const key = await deps.keys.findById(video.keyId);
  const now = deps.now();
  const download = (await downloadLink(deps.objects, video)) ?? {};
  const poster = await posterLink(deps.objects, video);
  const captions = await captionLinks(deps.objects, video);
  const result = await (deps.deliver ?? deliverWebhook)({
    url: video.webhookUrl,
    event: buildVideoEvent(
      video,
      { ...download, posterUrl: poster?.url, captions: captions && { vtt_url: captions.vtt.url, srt_url: captions.srt.url } },
      now,
    ),
    eventId: message.eventId,
    secrets: key ? activeWebhookSecrets(key, now) : [],
    mode: deps.mode,
    now,
  });

  const { attemptNumber, retryIn, state } = afterAttempt(result, video.delivery, message, receiveCount);
  await deps.videos.recordDeliveryAttempt(video.videoId, toDeliveryAttempt(result, attemptNumber, now), state, messageId);
  recordWebhookAttempt(result.ok);
  logger[result.ok ? 'info' : 'warn']('webhook attempt', {
    video_id: video.videoId,
    event_id: message.eventId,
    attempt: attemptNumber,
    receive: receiveCount,
    status_code: result.statusCode,
    error: result.error,
    detail: result.detail,
    retry_in_s: retryIn,
    state,
  });
  if (result.ok || !result.retryable) return { done: true };
  // The last scheduled attempt failed: the message is let go to the dead-letter queue (retryIn 0).
  return { done: false, retryInSeconds: retryIn ?? 0, reason: result.error ?? 'delivery failed' };
}
