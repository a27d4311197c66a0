/**
 * The fetch stage: brings the media a clip (or a video's music) takes from callers' servers into the bucket, then
 * queues the clip's render (or the video's assembly) again, marked fetched. Waiting on a stranger's server is done
 * here, in a light function with its own concurrency, so a URL that hangs never holds a render or an assembly:
 * one account's hanging media cannot delay another account's renders.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mode } from '#commons/config';
import { videoJob } from '#commons/jobs';
import { logger } from '#commons/logger';
import { makeWorkDir } from '#commons/workdirs';
import { fetchedMediaKey } from '#domain/fetched-media';
import type { AssembleMessage, DeliverMessage, FetchMediaMessage, RenderClipMessage } from '#domain/messages';
import type { MessageQueue, ObjectStore, VideoRepository } from '#domain/ports';
import { isTerminal, type VideoRecord } from '#domain/video';
import type { MediaDownload } from '#media/fetch-media';
import { clipRemoteMedia, musicRemoteMedia, type RemoteMedia } from '#media/remote-media';

export interface FetchJobDeps {
  videos: VideoRepository;
  objects: Pick<ObjectStore, 'head' | 'putFile'>;
  renderQueue: MessageQueue<RenderClipMessage>;
  assembleQueue: MessageQueue<AssembleMessage>;
  notifyQueue: MessageQueue<DeliverMessage>;
  /** Downloads a URL into a file under its rules (functions/media/fetch-media.ts fetchMediaToFile), or throws JobFailedError. */
  download: (url: string, path: string, what: MediaDownload) => Promise<number>;
  mode: Mode;
}

/** What the message asks for: a clip's media, or the video's music. */
const mediaOf = (message: FetchMediaMessage, video: VideoRecord): RemoteMedia[] => {
  if (message.clipIndex === undefined) return musicRemoteMedia(video.music);
  const clip = video.clips[message.clipIndex];
  return clip ? clipRemoteMedia(clip, video.createVideo) : [];
};

async function runFetchJob(message: FetchMediaMessage, deps: FetchJobDeps): Promise<void> {
  const { tenantId, videoId, clipIndex } = message;
  const video = await deps.videos.get(videoId);
  if (!video || isTerminal(video.status)) return logger.info('nothing to fetch: the video ended', { video_id: videoId, status: video?.status });
  const media = mediaOf(message, video);
  const started = Date.now();
  const workDir = await makeWorkDir('fetch', `${videoId}-${clipIndex ?? 'music'}`);
  try {
    // Side by side; every download ends (each keeps the media pace) before the first failure, in the clip's order, is
    // thrown, so nothing still writes into the work dir when it is removed.
    const settled = await Promise.allSettled(media.map((item, i) => bring(item, join(workDir, `media-${i}`), message, deps)));
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  logger.info('media fetched', { video_id: videoId, clip_index: clipIndex, files: media.length, fetch_ms: Date.now() - started });
  if (clipIndex === undefined) await deps.assembleQueue.send({ kind: 'assemble', tenantId, videoId, fetched: true });
  else await deps.renderQueue.send({ kind: 'render-clip', tenantId, videoId, clipIndex, fetched: true });
}

/** One URL into the bucket, unless an earlier run (or another clip of the video) brought it already. */
async function bring({ url, rules }: RemoteMedia, path: string, { tenantId, videoId }: FetchMediaMessage, deps: FetchJobDeps): Promise<void> {
  const key = fetchedMediaKey(tenantId, videoId, rules.code, url);
  if (await deps.objects.head(key)) return;
  await deps.download(url, path, { ...rules, mode: deps.mode });
  await deps.objects.putFile(key, path, { contentType: 'application/octet-stream' });
  await rm(path, { force: true });
}

/**
 * The fetch queue's job, under the one failure policy of queue jobs (functions/commons/jobs.ts): a download the
 * caller can fix fails the video with the same codes as before the stage existed (`background_unavailable`,
 * `logo_timeout`, `music_not_allowed`, …); a server that keeps answering 5xx fails it once the retries are spent.
 */
export const fetchJob = videoJob<FetchMediaMessage, FetchJobDeps>({
  name: 'fetch',
  fatal: {
    code: 'render_failed',
    message: (attempts: number) =>
      `its media could not be fetched${attempts > 1 ? ` after ${attempts} attempts` : ''}; check that its URLs answer, then create the video again`,
  },
  run: runFetchJob,
});
