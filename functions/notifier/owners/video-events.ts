import { logger } from '#commons/logger';
import { buildVideoEvent } from '#commons/presenters/video';
import { captionLinks, downloadLink, posterLink, publicCaptionLinks } from '#domain/links';
import type { DeliverMessage } from '#domain/messages';
import type { ObjectStore, VideoRepository } from '#domain/ports';
import { isTerminal } from '#domain/video';
import type { EventOwner } from '../delivery-job.ts';

export interface VideoEventDeps {
  videos: VideoRepository;
  objects: ObjectStore;
}

/** A video's video.completed / video.failed event, recorded on the video (GET /v1/video/{id} shows its attempts). */
export const videoEvents = (deps: VideoEventDeps): EventOwner<DeliverMessage> => ({
  async load(message) {
    const video = await deps.videos.get(message.videoId);
    if (!video) {
      logger.info('event for a deleted video dropped', { video_id: message.videoId });
      return undefined;
    }
    if (!isTerminal(video.status)) throw new Error(`video ${video.videoId} is ${video.status}; events are only sent for finished videos`);
    if (video.delivery.state === 'none') {
      logger.info('video sends no event of its own (a batch without notify_each)', { video_id: video.videoId });
      await deps.videos.settleWithoutEvent(video.videoId);
      return undefined;
    }
    return {
      logKeys: { video_id: video.videoId },
      webhookUrl: video.webhookUrl,
      keyId: video.keyId,
      delivery: video.delivery,
      async event(now) {
        const download = (await downloadLink(deps.objects, video)) ?? {};
        const poster = await posterLink(deps.objects, video);
        const captions = await captionLinks(deps.objects, video);
        return buildVideoEvent(video, { ...download, posterUrl: poster?.url, captions: captions && publicCaptionLinks(captions) }, now);
      },
      record: (attempt, state, chainId) => deps.videos.recordDeliveryAttempt(video.videoId, attempt, state, chainId),
    };
  },
});
