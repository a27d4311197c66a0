import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AssembleMessage, DeliverMessage } from '#domain/messages';
import type { MessageQueue, ObjectStore, VideoRepository } from '#domain/ports';
import type { VideoOutput } from '#domain/video';
import { isTerminal } from '#domain/video';
import { eventIdFor } from '#commons/webhooks/event';
import { logger } from '#commons/logger';
import { failureReport, logFields } from '#commons/net/transient';
import { failVideo } from '../render/clip-job.ts';
import type { ConcatInput, ConcatOutput } from '../render/engine/types.ts';

export interface AssembleDeps {
  videos: VideoRepository;
  objects: ObjectStore;
  notifyQueue: MessageQueue<DeliverMessage>;
  concat: (input: ConcatInput) => Promise<ConcatOutput>;
}

export const outputObjectKey = (tenantId: string, videoId: string, kind: 'video' | 'audio') =>
  `outputs/${tenantId}/${videoId}.${kind === 'video' ? 'mp4' : 'mp3'}`;

/**
 * Joins a video's rendered clips in order (stream copy, no re-encode), stores the result and completes the
 * video. The claim and the completion are conditional writes: a redelivered message cannot complete a video
 * twice, and a video that failed meanwhile is left alone.
 */
export async function runAssembleJob(message: AssembleMessage, deps: AssembleDeps): Promise<void> {
  const { videoId } = message;
  const video = await deps.videos.get(videoId);
  if (!video || isTerminal(video.status)) return logger.info('nothing to assemble', { video_id: videoId, status: video?.status });
  if (!(await deps.videos.claimAssembly(videoId))) return logger.info('assembly not claimable', { video_id: videoId });

  const mode = video.createVideo ? 'video' : 'voice';
  const kind = video.createVideo ? 'video' : 'audio';
  const started = Date.now();
  const workDir = await mkdtemp(join(tmpdir(), `assemble-${videoId}-`));
  try {
    const parts: string[] = [];
    const clipDurations: number[] = [];
    for (const clip of video.clips) {
      const result = video.clipResults[String(clip.index)];
      if (!result?.objectKey) throw new Error(`clip ${clip.index} of ${videoId} has no rendered object`);
      const path = join(workDir, `part-${String(clip.index).padStart(3, '0')}${mode === 'video' ? '.mp4' : '.mp3'}`);
      if (!(await deps.objects.getToFile(result.objectKey, path))) throw new Error(`rendered clip ${result.objectKey} is missing`);
      parts.push(path);
      clipDurations.push(result.durationSeconds ?? 0);
    }
    const joined = await deps.concat({ parts, mode, workDir });
    const objectKey = outputObjectKey(video.tenantId, videoId, kind);
    const { sizeBytes } = await deps.objects.putFile(objectKey, joined.path, { contentType: joined.contentType });
    const output: VideoOutput = { kind, objectKey, contentType: joined.contentType, durationSeconds: joined.durationSeconds, sizeBytes, clipDurations };
    const eventId = eventIdFor(videoId, 'video.completed');
    if (await deps.videos.complete(videoId, output, eventId)) {
      logger.info('video completed', { video_id: videoId, duration_s: output.durationSeconds, size_bytes: sizeBytes, assemble_ms: Date.now() - started });
      await deps.notifyQueue.send({ kind: 'deliver', videoId, eventId, attempt: 1 });
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** As for renders: transient errors are retried, the last attempt (or a permanent error) fails the video. */
export async function handleAssembleMessage(message: AssembleMessage, receive: number, maxReceives: number, deps: AssembleDeps): Promise<void> {
  try {
    await runAssembleJob(message, deps);
  } catch (error) {
    const report = failureReport(error, { attempt: receive, maxAttempts: maxReceives });
    logger.error('assembly attempt failed', { video_id: message.videoId, ...logFields(report) });
    if (!report.willRetry) await failVideo(deps, message.videoId, { code: 'assembly_failed', message: report.message });
    if (report.transient) throw error;
  }
}
