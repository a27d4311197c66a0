/**
 * What a caller may do with a video of theirs once it exists: read it, download it, delete it, have its event
 * delivered again. The rules live here; functions/api/videos.ts only parses and presents.
 */
import { ConflictError, NotFoundError } from './errors.ts';
import { downloadLink } from './links.ts';
import type { DeliverMessage } from './messages.ts';
import type { MessageQueue, ObjectStore, PresignedLink, VideoRepository } from './ports.ts';
import { isTerminal, outputObjectKeys, type VideoRecord } from './video.ts';

/** The caller's own video; another account's video is indistinguishable from a missing one. */
export async function ownVideo(videos: Pick<VideoRepository, 'get'>, tenantId: string, videoId: string): Promise<VideoRecord> {
  const video = /^vid_[A-Za-z0-9_-]{1,64}$/.test(videoId) ? await videos.get(videoId) : undefined;
  if (!video || video.tenantId !== tenantId) throw new NotFoundError(`No video "${videoId}".`);
  return video;
}

/** A finished video and its file go; one still in progress stays (its render would recreate what it writes). */
export async function deleteVideo(deps: { videos: VideoRepository; objects: ObjectStore }, tenantId: string, videoId: string): Promise<VideoRecord> {
  const video = await ownVideo(deps.videos, tenantId, videoId);
  if (!isTerminal(video.status))
    throw new ConflictError(`Video ${video.videoId} is still ${video.status}; delete it once it has completed or failed.`);
  for (const key of video.output ? outputObjectKeys(video.output) : []) await deps.objects.delete(key);
  await deps.videos.delete(video.videoId);
  return video;
}

/** A fresh link to a completed video's file. */
export async function freshDownload(
  deps: { videos: VideoRepository; objects: ObjectStore },
  tenantId: string,
  videoId: string,
  seconds: number,
): Promise<PresignedLink> {
  const video = await ownVideo(deps.videos, tenantId, videoId);
  const link = await downloadLink(deps.objects, video, seconds);
  if (!link) throw new ConflictError(`Video ${video.videoId} is ${video.status}; it can be downloaded once it has completed.`);
  return link;
}

/**
 * Queues the video's event again, as a new chain of attempts. One chain at a time: a redelivery while attempts
 * are still scheduled would double them.
 */
export async function redeliverEvent(
  deps: { videos: VideoRepository; notifyQueue: MessageQueue<DeliverMessage> },
  tenantId: string,
  videoId: string,
): Promise<{ video: VideoRecord; eventId: string }> {
  const video = await ownVideo(deps.videos, tenantId, videoId);
  const eventId = video.delivery.eventId;
  if (!isTerminal(video.status) || !eventId)
    throw new ConflictError(`Video ${video.videoId} is still ${video.status}; its event is sent when it finishes.`);
  if (video.delivery.state === 'none')
    throw new ConflictError(
      `Video ${video.videoId} belongs to batch ${video.batch?.batchId ?? ''} without notify_each: it sends no event of its own (the batch's batch.completed covers it).`,
    );
  if (video.delivery.state === 'pending' || video.delivery.state === 'delivering')
    throw new ConflictError(
      `The event of video ${video.videoId} is still being delivered (${video.delivery.attempts.length} attempts so far); redeliver once it has been delivered or has failed.`,
    );
  await deps.notifyQueue.send({
    kind: 'deliver',
    tenantId: video.tenantId,
    videoId: video.videoId,
    eventId,
    attempt: video.delivery.attempts.length + 1,
    redelivery: true,
  });
  return { video, eventId };
}
