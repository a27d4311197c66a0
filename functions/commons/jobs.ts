/**
 * The one failure policy of every queue job (render a clip, assemble a video, prepare a bot):
 *
 * - a JobFailedError (the caller's input cannot work: a bad background, a missing bot, a render over its budget)
 *   fails the job's record (its video, its bot) at once with its code and message;
 * - a transient error (a network fault, throttling, an ffmpeg killed by the OOM killer) is rethrown, so the
 *   message comes back after its visibility timeout;
 * - on the last receive, or for any other error, the record fails with the job's own code and our words, and a
 *   transient error is still rethrown so that the message ends in the dead-letter queue.
 *
 * What went wrong in detail (a tool's stderr, an address, a stack) goes to the log with the request id; the
 * record and its webhook get only the public message.
 */
import { JobFailedError } from '#domain/errors';
import type { VideoError } from '#domain/video';
import { failVideo, type VideoOutcomeDeps } from '#domain/video-outcomes';
import { MediaToolError } from '#media/media';
import { logger } from './logger.ts';
import { recordVideoFailed } from './metrics.ts';
import { failureReport, logFields } from './net/transient.ts';

/** A failure recorded on the job's record: the caller's (a JobFailedError) or the job's own when it fails for good. */
export interface JobFailureRecord {
  code: string;
  message: string;
  clipIndex?: number;
}

/**
 * A queue job: its work on one message, and what its failure means. The queue consumer runs it under the policy
 * (jobConsumer in queue-consumer.ts); tests run it with runQueueJob.
 */
export interface QueueJob<M, D> {
  /** For logs: `render`, `assembly`, `preparation`. */
  name: string;
  /** The code and public message when the job fails for good without a JobFailedError. */
  fatal: { code: string; message: (attempts: number) => string };
  /** What names the message's record on every log line of its run, e.g. `{ video_id, clip_index }`. */
  logKeys: (message: M) => Record<string, unknown>;
  /** Records the failure on the message's record (its video, its bot), once. */
  fail: (message: M, failure: JobFailureRecord, deps: D) => Promise<void>;
  run: (message: M, deps: D) => Promise<void>;
}

/** What a failed ffmpeg run said, for the log only. */
const mediaDetails = (error: unknown) =>
  error instanceof MediaToolError ? { ffmpeg_exit: error.exitCode, ffmpeg_signal: error.signal, ffmpeg_stderr: error.stderrTail } : {};

/** Runs the job on a message received `receive` times of `maxReceives`, under the policy above. */
export async function runQueueJob<M, D>(job: QueueJob<M, D>, message: M, receive: number, maxReceives: number, deps: D): Promise<void> {
  try {
    await job.run(message, deps);
  } catch (error) {
    if (error instanceof JobFailedError) return job.fail(message, error, deps);
    const report = failureReport(error, { attempt: receive, maxAttempts: maxReceives });
    logger.error(`${job.name} attempt failed`, { ...job.logKeys(message), ...logFields(report), ...mediaDetails(error) });
    if (!report.willRetry) await job.fail(message, { code: job.fatal.code, message: job.fatal.message(report.attempt) }, deps);
    if (report.transient) throw error;
  }
}

/** A job that works on a video (render a clip, assemble the video): a failure fails the video and sends its event. */
export function videoJob<M extends { videoId: string; tenantId: string; clipIndex?: number }, D extends VideoOutcomeDeps>(
  job: Pick<QueueJob<M, D>, 'name' | 'fatal' | 'run'>,
): QueueJob<M, D> {
  return {
    ...job,
    logKeys: (message) => ({ video_id: message.videoId, clip_index: message.clipIndex }),
    fail: (message, failure, deps) => failVideoWith(deps, job.name, message, failure),
  };
}

async function failVideoWith(
  deps: VideoOutcomeDeps,
  name: string,
  message: { videoId: string; tenantId: string; clipIndex?: number },
  failure: JobFailureRecord,
) {
  const clipIndex = failure.clipIndex ?? message.clipIndex;
  const error: VideoError = { code: failure.code, message: clipIndex === undefined ? failure.message : `clip ${clipIndex}: ${failure.message}` };
  if (clipIndex !== undefined) error.clipIndex = clipIndex;
  if (!(await failVideo(deps, message, error))) return;
  logger.warn('video failed', { video_id: message.videoId, job: name, code: error.code, clip_index: clipIndex, reason: error.message });
  recordVideoFailed(error.code);
}
