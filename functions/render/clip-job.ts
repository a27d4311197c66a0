import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bot } from '#domain/bot';
import type { AssembleMessage, DeliverMessage, RenderClipMessage } from '#domain/messages';
import type { BotCatalog, ClipLibrary, MessageQueue, ObjectStore, VideoRepository } from '#domain/ports';
import { clipContentHash, KEPT, renderObjectKey, TEMPORARY } from '#domain/render-cache';
import type { ClipResult, VideoError } from '#domain/video';
import { isTerminal } from '#domain/video';
import { keptClipUid } from '#domain/videos';
import { eventIdFor } from '#commons/webhooks/event';
import { logger } from '#commons/logger';
import { failureReport, logFields } from '#commons/net/transient';
import type { RenderClipInput, RenderClipOutput } from './engine/types.ts';
import { RENDERER_VERSION } from './engine/types.ts';
import type { SpeechEngine } from './engine/types.ts';

/** A failure that retrying cannot fix (a bad background, a missing bot): the video fails with this reason. */
export class ClipFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ClipFailure';
  }
}

export interface ClipJobDeps {
  videos: VideoRepository;
  bots: BotCatalog;
  clips: ClipLibrary;
  objects: ObjectStore;
  assembleQueue: MessageQueue<AssembleMessage>;
  notifyQueue: MessageQueue<DeliverMessage>;
  renderClip: (input: RenderClipInput) => Promise<RenderClipOutput>;
  speechFor: (bot: Bot) => SpeechEngine;
  /** Downloads the background into `path` through the address guard, or throws ClipFailure. */
  fetchBackground: (url: string, path: string) => Promise<void>;
  now: () => Date;
}

/** Fails the video once and queues its failure event (a no-op if it already ended). */
export async function failVideo(deps: Pick<ClipJobDeps, 'videos' | 'notifyQueue'>, videoId: string, error: VideoError) {
  const eventId = eventIdFor(videoId, 'video.failed');
  if (await deps.videos.fail(videoId, error, eventId)) {
    logger.warn('video failed', { video_id: videoId, code: error.code, clip_index: error.clipIndex, reason: error.message });
    await deps.notifyQueue.send({ kind: 'deliver', videoId, eventId, attempt: 1 });
  }
}

/**
 * Renders one clip of a video: finds it in the render cache or renders it, stores it, records it, and
 * queues the assembly when it was the last clip. Safe to run again for the same message.
 */
export async function runClipJob(message: RenderClipMessage, deps: ClipJobDeps): Promise<void> {
  const { videoId, clipIndex } = message;
  const video = await deps.videos.markClipRendering(videoId, clipIndex);
  if (!video) return logger.warn('render for a video that no longer exists', { video_id: videoId });
  if (isTerminal(video.status)) return logger.info('video already ended; nothing to render', { video_id: videoId, status: video.status });
  const clip = video.clips[clipIndex];
  if (!clip) throw new ClipFailure('invalid_clip', `clip ${clipIndex} does not exist`);

  if (video.clipResults[String(clipIndex)]?.status !== 'rendered') {
    const bot = await deps.bots.get(clip.botUid);
    if (!bot) throw new ClipFailure('bot_not_found', `bot "${clip.botUid}" no longer exists`);
    const mode = video.createVideo ? 'video' : 'voice';
    const hash = clipContentHash(clip, bot, mode, RENDERER_VERSION);
    const objectKey = renderObjectKey(hash, mode);
    const result: ClipResult = { status: 'rendered', contentHash: hash, objectKey };

    const existing = await deps.objects.head(objectKey);
    if (existing) {
      // Rendered before (by this or another video): its duration is stored with it.
      result.cached = true;
      result.durationSeconds = Number(existing.metadata[DURATION_METADATA] ?? 0);
      logger.info('clip found in render cache', { video_id: videoId, clip_index: clipIndex, content_hash: hash });
    } else {
      const started = Date.now();
      const workDir = await mkdtemp(join(tmpdir(), `render-${videoId}-${clipIndex}-`));
      try {
        let backgroundPath: string | undefined;
        if (mode === 'video' && clip.background) {
          backgroundPath = join(workDir, 'background');
          await deps.fetchBackground(clip.background, backgroundPath);
        }
        const output = await deps.renderClip({
          bot,
          text: clip.text,
          position: clip.position,
          removeBotBackground: clip.removeBotBackground,
          backgroundPath,
          backgroundVolume: clip.backgroundVolume,
          transitions: clip.transitions,
          mode,
          workDir,
          speech: deps.speechFor(bot),
        });
        result.durationSeconds = output.durationSeconds;
        await deps.objects.putFile(objectKey, output.path, {
          contentType: output.contentType,
          tags: clip.reusable ? KEPT : TEMPORARY,
          metadata: { [DURATION_METADATA]: String(output.durationSeconds) },
        });
        result.renderMs = Date.now() - started;
        logger.info('clip rendered', { video_id: videoId, clip_index: clipIndex, duration_s: output.durationSeconds, render_ms: result.renderMs });
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    }

    if (clip.reusable) {
      const clipUid = clip.reusedClipUid ?? keptClipUid(hash);
      if (result.cached) await deps.objects.setTags(objectKey, KEPT);
      const { index: _i, clipName, reusedClipUid: _r, ...spec } = clip;
      await deps.clips.put({
        tenantId: video.tenantId,
        clipUid,
        clipName,
        contentHash: hash,
        objectKey,
        durationSeconds: result.durationSeconds ?? 0,
        botUid: clip.botUid,
        createVideo: video.createVideo,
        createdAt: deps.now().toISOString(),
        spec,
      });
    }
    const { allRendered } = await deps.videos.recordClipRendered(videoId, clipIndex, result);
    if (!allRendered) return;
  } else {
    const current = await deps.videos.get(videoId);
    if (!current || current.renderedCount !== current.clipCount || isTerminal(current.status)) return;
  }
  // Every clip is rendered. Sending twice (a redelivered message) is harmless: assembly is claimed conditionally.
  await deps.assembleQueue.send({ kind: 'assemble', videoId });
}

/** S3 user metadata holding a rendered clip's duration in seconds. */
/**
 * The render queue's failure policy around one message. A failure the caller can fix fails the video at once;
 * a transient one is rethrown so the message returns after its visibility timeout; when no attempt is left
 * (or the error is not transient) the video fails with the reason, and a transient error is still rethrown
 * so that the message ends in the dead-letter queue.
 */
export async function handleRenderMessage(message: RenderClipMessage, receive: number, maxReceives: number, deps: ClipJobDeps): Promise<void> {
  try {
    await runClipJob(message, deps);
  } catch (error) {
    const clip = `clip ${message.clipIndex}`;
    if (error instanceof ClipFailure) {
      await failVideo(deps, message.videoId, { code: error.code, message: `${clip}: ${error.message}`, clipIndex: message.clipIndex });
      return;
    }
    const report = failureReport(error, { attempt: receive, maxAttempts: maxReceives });
    logger.error('render attempt failed', { video_id: message.videoId, clip_index: message.clipIndex, ...logFields(report) });
    if (!report.willRetry)
      await failVideo(deps, message.videoId, { code: 'render_failed', message: `${clip}: ${report.message}`, clipIndex: message.clipIndex });
    if (report.transient) throw error;
  }
}

const DURATION_METADATA = 'duration-seconds';
