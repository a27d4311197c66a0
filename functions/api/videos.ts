import { downloadLink } from '#domain/links';
import { limits } from '#domain/limits';
import type { DeliverMessage } from '#domain/messages';
import type { ObjectStore } from '#domain/ports';
import { isTerminal, type VideoRecord } from '#domain/video';
import { toPublicVideo } from '#domain/videos';
import { DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { BadRequestError, ConflictError, NotFoundError } from '#commons/errors';
import { httpHandler, json, type HttpRequest } from '#commons/http';
import { logger } from '#commons/logger';

const config = loadConfig({ tables: ['videos', 'clips'], queues: ['notify'], bucket: true });
const videos = new DynamoVideoRepository(dynamoClient(), config.tables.videos);
const clips = new DynamoClipLibrary(dynamoClient(), config.tables.clips);
const objects: ObjectStore = new S3ObjectStore(s3Client(), config.bucket);
const notifyQueue = new SqsQueue<DeliverMessage>(sqsClient(), config.queues.notify);

/** The caller's own video; another tenant's video is indistinguishable from a missing one. */
async function ownVideo(request: HttpRequest): Promise<VideoRecord> {
  const id = request.pathParams.id ?? '';
  const video = /^vid_[A-Za-z0-9_-]{1,64}$/.test(id) ? await videos.get(id) : undefined;
  if (!video || video.tenantId !== request.caller!.tenantId) throw new NotFoundError(`No video "${id}".`);
  return video;
}

export function pageSize(query: Record<string, string>): number {
  if (query.limit === undefined) return limits.defaultPageSize;
  const limit = Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > limits.maxPageSize)
    throw new BadRequestError(`limit must be a whole number from 1 to ${limits.maxPageSize}.`, [{ path: 'limit', message: 'out of range' }]);
  return limit;
}

/** A fresh download link on every read. */
async function publicVideo(video: VideoRecord, baseUrl: string) {
  return toPublicVideo(video, baseUrl, await downloadLink(objects, video));
}

/** Links behind the /download redirect are followed at once: an hour is plenty. */
const REDIRECT_LINK_SECONDS = 3600;

export const handler = httpHandler({
  'GET /v1/video': async (request) => {
    const page = await videos.listByTenant(request.caller!.tenantId, { limit: pageSize(request.query), cursor: request.query.cursor });
    return json(200, { videos: await Promise.all(page.items.map((v) => publicVideo(v, request.baseUrl))), next_cursor: page.nextCursor ?? null });
  },
  'GET /v1/video/{id}': async (request) => json(200, await publicVideo(await ownVideo(request), request.baseUrl)),
  'DELETE /v1/video/{id}': async (request) => {
    const video = await ownVideo(request);
    if (!isTerminal(video.status)) throw new ConflictError(`Video ${video.videoId} is still ${video.status}; delete it once it has completed or failed.`);
    if (video.output) await objects.delete(video.output.objectKey);
    await videos.delete(video.videoId);
    logger.info('video deleted', { video_id: video.videoId });
    // A body rather than 204: the public client reads every answer as JSON and reports an empty one as an error.
    return json(200, { video_id: video.videoId, deleted: true });
  },
  'GET /v1/video/{id}/download': async (request) => {
    const video = await ownVideo(request);
    const link = await downloadLink(objects, video, REDIRECT_LINK_SECONDS);
    if (!link) throw new ConflictError(`Video ${video.videoId} is ${video.status}; it can be downloaded once it has completed.`);
    return { status: 302, headers: { Location: link.url } };
  },
  'POST /v1/video/{id}/redeliver': async (request) => {
    const video = await ownVideo(request);
    if (!isTerminal(video.status) || !video.delivery.eventId)
      throw new ConflictError(`Video ${video.videoId} is still ${video.status}; its event is sent when it finishes.`);
    // One chain of attempts at a time: a redelivery while attempts are still scheduled would double them.
    if (video.delivery.state === 'pending' || video.delivery.state === 'delivering')
      throw new ConflictError(`The event of video ${video.videoId} is still being delivered (${video.delivery.attempts.length} attempts so far); redeliver once it has been delivered or has failed.`);
    const attempt = video.delivery.attempts.length + 1;
    await notifyQueue.send({ kind: 'deliver', videoId: video.videoId, eventId: video.delivery.eventId, attempt, redelivery: true });
    logger.info('redelivery requested', { video_id: video.videoId });
    return json(202, { video_id: video.videoId, event_id: video.delivery.eventId, status: 'redelivery_queued' });
  },
  'GET /v1/clips': async (request) => {
    const page = await clips.list(request.caller!.tenantId, { limit: pageSize(request.query), cursor: request.query.cursor });
    return json(200, {
      clips: page.items.map((c) => ({
        clip_uid: c.clipUid,
        clip_name: c.clipName,
        bot_uid: c.botUid,
        kind: c.createVideo ? 'video' : 'audio',
        duration_seconds: c.durationSeconds,
        created_at: c.createdAt,
      })),
      next_cursor: page.nextCursor ?? null,
    });
  },
});
