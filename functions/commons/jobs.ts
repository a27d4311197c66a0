/**
 * The one failure policy of every queue job that works on a video (render a clip, assemble a video):
 *
 * - a JobFailure (the caller's input cannot work: a bad background, a missing bot, a render over its budget)
 *   fails the video at once with its code and message;
 * - a transient error (a network fault, throttling, an ffmpeg killed by the OOM killer) is rethrown, so the
 *   message comes back after its visibility timeout;
 * - on the last receive, or for any other error, the video fails with the job's own code and our words, and a
 *   transient error is still rethrown so that the message ends in the dead-letter queue.
 *
 * What went wrong in detail (a tool's stderr, an address, a stack) goes to the log with the request id; the
 * video and its webhook get only the public message.
 */
import { JobFailure } from '#domain/errors';
import type { VideoError } from '#domain/video';
import { failVideo, type VideoOutcomeDeps } from '#domain/video-outcomes';
import { MediaToolError } from '#media/media';
import { logger } from './logger.ts';
import { recordVideoFailed } from './metrics.ts';
import { failureReport, logFields } from './net/transient.ts';

export interface QueueJob {
  /** For logs: `render`, `assembly`. */
  name: string;
  videoId: string;
  tenantId: string;
  /** The clip the job works on, if one: failures name it. */
  clipIndex?: number;
  /** ApproximateReceiveCount of the message (1 on the first attempt). */
  receive: number;
  maxReceives: number;
  /** The code and public message when the job fails for good without a JobFailure. */
  fatal: { code: string; message: (attempts: number) => string };
}

/** What a failed ffmpeg run said, for the log only. */
const mediaDetails = (error: unknown) =>
  error instanceof MediaToolError ? { ffmpeg_exit: error.exitCode, ffmpeg_signal: error.signal, ffmpeg_stderr: error.stderrTail } : {};

async function fail(deps: VideoOutcomeDeps, job: QueueJob, failure: { code: string; message: string; clipIndex?: number }) {
  const clipIndex = failure.clipIndex ?? job.clipIndex;
  const error: VideoError = { code: failure.code, message: clipIndex === undefined ? failure.message : `clip ${clipIndex}: ${failure.message}` };
  if (clipIndex !== undefined) error.clipIndex = clipIndex;
  if (!(await failVideo(deps, job, error))) return;
  logger.warn('video failed', { video_id: job.videoId, job: job.name, code: error.code, clip_index: clipIndex, reason: error.message });
  recordVideoFailed(error.code);
}

export async function runQueueJob(job: QueueJob, deps: VideoOutcomeDeps, run: () => Promise<void>): Promise<void> {
  return runJob({ ...job, logKeys: { video_id: job.videoId, clip_index: job.clipIndex } }, (failure) => fail(deps, job, failure), run);
}

/** A queue job under the policy, whatever it works on: `failFor` records its failure on its own record (a bot's). */
export interface PolicyJob {
  name: string;
  receive: number;
  maxReceives: number;
  fatal: { code: string; message: (attempts: number) => string };
  /** What names the job's record in the log, e.g. `{ bot_uid }`. */
  logKeys: Record<string, unknown>;
}

/** The policy above for any job; runQueueJob is it for the jobs that work on a video. */
export async function runJob(
  job: PolicyJob,
  failFor: (failure: { code: string; message: string; clipIndex?: number }) => Promise<void>,
  run: () => Promise<void>,
): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof JobFailure) return failFor(error);
    const report = failureReport(error, { attempt: job.receive, maxAttempts: job.maxReceives });
    logger.error(`${job.name} attempt failed`, { ...job.logKeys, ...logFields(report), ...mediaDetails(error) });
    if (!report.willRetry) await failFor({ code: job.fatal.code, message: job.fatal.message(report.attempt) });
    if (report.transient) throw error;
  }
}
