import type { DeliverMessage } from './messages.ts';
import type { MessageQueue, VideoRepository } from './ports.ts';
import { eventIdFor, type VideoError } from './video.ts';

export interface VideoOutcomeDeps {
  videos: VideoRepository;
  notifyQueue: MessageQueue<DeliverMessage>;
}

/**
 * Fails the video once and queues its failure event; a no-op if it already ended. Used by the queue jobs'
 * failure policy (functions/commons/jobs.ts) and by the sweeper. Returns whether this call made the transition.
 */
export async function failVideo(deps: VideoOutcomeDeps, video: { videoId: string; tenantId: string }, error: VideoError): Promise<boolean> {
  const { videoId, tenantId } = video;
  const eventId = eventIdFor(videoId, 'video.failed');
  if (!(await deps.videos.fail(videoId, error, eventId))) return false;
  await deps.notifyQueue.send({ kind: 'deliver', tenantId, videoId, eventId, attempt: 1 });
  return true;
}
