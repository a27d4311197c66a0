import { DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { S3ObjectStore } from '#commons/aws/s3-objects';
import { SqsQueue } from '#commons/aws/sqs-queue';
import { dynamoClient, s3Client, sqsClient } from '#commons/clients';
import { loadConfig } from '#commons/config';
import { httpHandler, json } from '#commons/http';
import { logger } from '#commons/logger';
import { toPublicKeptClip } from '#commons/presenters/clip';
import { toPublicVideo } from '#commons/presenters/video';
import { captionLinks, downloadLink, posterLink } from '#domain/links';
import type { DeliverMessage } from '#domain/messages';
import type { ObjectStore } from '#domain/ports';
import type { VideoRecord } from '#domain/video';
import { deleteVideo, freshDownload, ownVideo, redeliverEvent } from '#domain/video-actions';
import { pageSize } from './paging.ts';

const config = loadConfig({ tables: ['videos', 'clips'], queues: ['notify'], bucket: true });
const videos = new DynamoVideoRepository(dynamoClient(), config.tables.videos);
const clips = new DynamoClipLibrary(dynamoClient(), config.tables.clips);
const objects: ObjectStore = new S3ObjectStore(s3Client(), config.bucket);
const notifyQueue = new SqsQueue<DeliverMessage>(sqsClient(), config.queues.notify);

/** A fresh download link on every read. */
const publicVideo = async (video: VideoRecord, baseUrl: string) =>
  toPublicVideo(video, baseUrl, await downloadLink(objects, video), await posterLink(objects, video), await captionLinks(objects, video));

/** Links behind the /download redirect are followed at once: an hour is plenty. */
const REDIRECT_LINK_SECONDS = 3600;

export const handler = httpHandler({
  'GET /v1/video': async (request) => {
    const page = await videos.listByTenant(request.caller.tenantId, { limit: pageSize(request.query), cursor: request.query.cursor });
    return json(200, { videos: await Promise.all(page.items.map((v) => publicVideo(v, request.baseUrl))), next_cursor: page.nextCursor ?? null });
  },
  'GET /v1/video/{id}': async (request) =>
    json(200, await publicVideo(await ownVideo(videos, request.caller.tenantId, request.pathParams.id ?? ''), request.baseUrl)),
  'DELETE /v1/video/{id}': async (request) => {
    const video = await deleteVideo({ videos, objects }, request.caller.tenantId, request.pathParams.id ?? '');
    logger.info('video deleted', { video_id: video.videoId });
    // A body rather than 204: the public client reads every answer as JSON and reports an empty one as an error.
    return json(200, { video_id: video.videoId, deleted: true });
  },
  'GET /v1/video/{id}/download': async (request) => {
    const link = await freshDownload({ videos, objects }, request.caller.tenantId, request.pathParams.id ?? '', REDIRECT_LINK_SECONDS);
    return { status: 302, headers: { Location: link.url } };
  },
  'POST /v1/video/{id}/redeliver': async (request) => {
    const { video, eventId } = await redeliverEvent({ videos, notifyQueue }, request.caller.tenantId, request.pathParams.id ?? '');
    logger.info('redelivery requested', { video_id: video.videoId });
    return json(202, { video_id: video.videoId, event_id: eventId, status: 'redelivery_queued' });
  },
  'GET /v1/clips': async (request) => {
    const page = await clips.list(request.caller.tenantId, { limit: pageSize(request.query), cursor: request.query.cursor });
    return json(200, { clips: page.items.map(toPublicKeptClip), next_cursor: page.nextCursor ?? null });
  },
});
