import type { DeliverMessage } from '#domain/messages';
import type { MessageQueue, VideoRepository } from '#domain/ports';
import { isTerminal } from '#domain/video';
import { eventIdFor } from '#commons/webhooks/event';
import { logger } from '#commons/logger';
import { NOTIFY_GRACE_SECONDS } from '#commons/aws/dynamo-videos';
import { failVideo } from '../render/clip-job.ts';

export interface SweepDeps {
  videos: VideoRepository;
  notifyQueue: MessageQueue<DeliverMessage>;
  now: () => Date;
}

/**
 * Every accepted job must end with a webhook attempt. Fails renders stuck past their deadline, and re-queues
 * the event of finished videos whose first delivery attempt was never recorded.
 */
export async function sweep(deps: SweepDeps, batch = 100): Promise<{ failed: number; requeued: number }> {
  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  let failed = 0;
  let requeued = 0;
  for (const video of await deps.videos.listOverdue(nowSeconds, batch)) {
    if (!isTerminal(video.status)) {
      await failVideo(deps, video.videoId, { code: 'deadline_exceeded', message: `the render did not finish in time (still ${video.status})` });
      failed++;
    } else if (video.delivery.attempts.length === 0) {
      const eventId = video.delivery.eventId ?? eventIdFor(video.videoId, video.status === 'completed' ? 'video.completed' : 'video.failed');
      await deps.notifyQueue.send({ kind: 'deliver', videoId: video.videoId, eventId, attempt: 1 });
      await deps.videos.postponeDeadline(video.videoId, nowSeconds + NOTIFY_GRACE_SECONDS);
      requeued++;
    }
  }
  if (failed || requeued) logger.info('sweep', { failed, requeued });
  return { failed, requeued };
}
