/**
 * A video longer than it may last (limits.maxVideoSeconds, or a test key's 60 s) fails as soon as its clips are known
 * to pass it: while they render, from each recording's length once it is prepared, and at assembly from the rendered
 * lengths. Create refuses what it can know before (video-length.ts). Pure rules: no AWS here.
 */
import { JobFailedError } from './errors.ts';
import { testVideoTooLong } from './test-mode.ts';
import type { VideoRecord } from './video.ts';
import { knownVideoSeconds, videoTooLong } from './video-length.ts';

/** Fails (JobFailedError: test_video_too_long, video_too_long) a video whose clips last `clipSeconds` together. */
export function refuseOverlongVideo(video: Pick<VideoRecord, 'test'>, clipSeconds: readonly number[]): void {
  const tooLong = video.test && testVideoTooLong(clipSeconds);
  if (tooLong) throw new JobFailedError('test_video_too_long', tooLong);
  const overLimit = videoTooLong(clipSeconds);
  if (overLimit) throw new JobFailedError('video_too_long', overLimit);
}

/**
 * What each clip lasts at least while the video renders: a rendered clip its length, else its recording's prepared
 * length when a render has recorded it, plus its transitions (what create knew of it; a kept clip's counts once
 * rendered, from the cache at once).
 */
export const clipSecondsWhileRendering = (video: Pick<VideoRecord, 'clips' | 'clipResults'>): number[] =>
  video.clips.map((clip) => {
    const result = video.clipResults[String(clip.index)];
    return result?.durationSeconds ?? (result?.recordingSeconds ?? 0) + knownVideoSeconds([clip], () => undefined);
  });
