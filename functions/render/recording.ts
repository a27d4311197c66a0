import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { JobFailedError } from '#domain/errors';
import { clipSecondsWhileRendering, refuseOverlongVideo } from '#domain/overlong-video';
import type { ObjectStore, VideoRepository } from '#domain/ports';
import { isTerminal, type VideoRecord } from '#domain/video';
import { fetchedToFile, recordingRules } from '#media/remote-media';
import type { RecordingCheckpoints } from './speech/recorded.ts';

/** Where a clip's recording is in the bucket: the caller's upload, or what the fetch stage brought from its audio_url. */
export interface RecordingObject {
  objectKey: string;
  upload: boolean;
}

/**
 * A clip's recording brought into the render's work dir from the bucket. Its SHA-256 is part of the clip's content
 * address: the same words over another recording are another clip.
 */
export async function fetchRecording(source: RecordingObject, path: string, objects: Pick<ObjectStore, 'getToFile'>): Promise<{ sha256: string }> {
  if (!source.upload) await fetchedToFile(objects, source.objectKey, path, recordingRules);
  else if (!(await objects.getToFile(source.objectKey, path)))
    throw new JobFailedError('audio_unavailable', 'the uploaded recording is gone (an upload is kept two days); upload it again');
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex') };
}

/**
 * A recorded clip's checks against its video while it renders: once its recording is prepared, its length is recorded
 * and the video fails (video_too_long) if its clips are now known to pass its limit, so ten 10-minute recordings stop
 * at their preparation rather than after their renders; once ready to draw (aligned, or its mouth read from its
 * spectrum), a clip whose video has ended stands down.
 */
export function recordingCheckpoints(
  { videoId, clipIndex }: { videoId: string; clipIndex: number },
  videos: Pick<VideoRepository, 'get' | 'recordRecordingSeconds'>,
): RecordingCheckpoints {
  return {
    prepared: async (seconds) => {
      const video = await videos.recordRecordingSeconds(videoId, clipIndex, seconds);
      standDownIfEnded(video);
      refuseOverlongVideo(video, clipSecondsWhileRendering(video));
    },
    ready: async () => standDownIfEnded(await videos.get(videoId)),
  };
}

/** A clip whose video has ended (failed by another clip, deleted) stops: its failure is recorded by no one. */
function standDownIfEnded(video: VideoRecord | undefined): asserts video is VideoRecord {
  if (!video || isTerminal(video.status)) throw new JobFailedError('video_ended', 'its video ended while it rendered');
}
