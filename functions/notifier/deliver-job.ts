import type { Mode } from '#commons/config';
import { logger } from '#commons/logger';
import { buildVideoEvent } from '#commons/presenters/video';
import { activeWebhookSecrets } from '#domain/api-keys';
import { captionLinks, downloadLink, posterLink } from '#domain/links';
import type { DeliverMessage } from '#domain/messages';
import type { KeyStore, ObjectStore, VideoRepository } from '#domain/ports';
import { isTerminal } from '#domain/video';
import type { DeliverWebhookOptions, DeliveryResult } from './deliver.ts';
import { alreadyDelivered, attemptDelivery, carriedByAnotherChain, type DeliveryOutcome, type Receipt } from './delivery-chain.ts';

export interface DeliverDeps {
  videos: VideoRepository;
  keys: KeyStore;
  objects: ObjectStore;
  mode: Mode;
  now: () => Date;
  deliver?: (options: DeliverWebhookOptions) => Promise<DeliveryResult>;
}

export type { DeliveryOutcome, Receipt } from './delivery-chain.ts';

/**
 * One attempt to deliver a video's event. After the last attempt of the schedule the message goes to the
 * dead-letter queue.
 */
export async function deliverVideoEvent(message: DeliverMessage, receipt: Receipt, deps: DeliverDeps): Promise<DeliveryOutcome> {
  const { messageId } = receipt;
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
  const event = buildVideoEvent(
    video,
    { ...download, posterUrl: poster?.url, captions: captions && { vtt_url: captions.vtt.url, srt_url: captions.srt.url } },
    now,
  );
  return attemptDelivery({
    send: { url: video.webhookUrl, event, eventId: message.eventId, secrets: key ? activeWebhookSecrets(key, now) : [], mode: deps.mode, now },
    delivery: video.delivery,
    message,
    receipt,
    record: (attempt, state, chainId) => deps.videos.recordDeliveryAttempt(video.videoId, attempt, state, chainId),
    owner: { video_id: video.videoId },
    deliver: deps.deliver,
  });
}
