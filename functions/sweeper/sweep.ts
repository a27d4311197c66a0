import { logger } from '#commons/logger';
import { recordVideoFailed } from '#commons/metrics';
import { type BotOutcomeDeps, failBot } from '#domain/account-bot-outcomes';
import { isSettled } from '#domain/batches';
import { SWEEPER_RESENDS_AFTER_SECONDS } from '#domain/lost-events';
import {
  type AssembleMessage,
  type BatchTickMessage,
  deadLetteredJobSchema,
  type FetchMediaMessage,
  type NotifyMessage,
  type PrepareBotMessage,
  type RenderClipMessage,
} from '#domain/messages';
import { pendingDelivery } from '#domain/pending-work';
import type { AccountBotStore, BatchStore, DeadLetterInbox, MessageQueue, VideoRepository } from '#domain/ports';
import { isTerminal } from '#domain/video';
import { failVideo } from '#domain/video-outcomes';

export interface SweepDeps {
  videos: VideoRepository;
  /** Batches whose chain of looks was lost get a look again; settled ones whose event was lost get it again. */
  batches: Pick<BatchStore, 'listStalled' | 'postpone'>;
  batchQueue: MessageQueue<BatchTickMessage>;
  /** Videos' events, and bots' bot.failed. */
  notifyQueue: MessageQueue<NotifyMessage>;
  /** A dead-lettered preparation fails its bot (and removes its uploads); a settled bot's lost event is sent again. */
  accountBots: BotOutcomeDeps['accountBots'] & Pick<AccountBotStore, 'listUnsentEvents' | 'postponeUnsentEvent'>;
  objects: BotOutcomeDeps['objects'];
  /** Dead-letter queues of the render, assemble and prepare queues. */
  deadLetters: DeadLetterInbox[];
  now: () => Date;
}

/** A bot whose preparation crashed or timed out on every attempt: failed as the prepare job fails one (failBot). */
async function failDeadLetteredPreparation(deps: SweepDeps, message: PrepareBotMessage): Promise<boolean> {
  const failure = {
    code: 'preparation_failed',
    message: 'the preparation crashed or timed out on every attempt; send the bot again with PUT /v1/bot/{uid}',
  };
  // Its role deletes only uploads: the previous look stays where it is (clips pinned to it still render).
  if (!(await failBot(deps, message, failure, 'leave'))) return false;
  logger.warn('bot failed', {
    tenant_id: message.tenantId,
    bot_uid: message.uid,
    version: message.version,
    code: failure.code,
    reason: failure.message,
  });
  return true;
}

/** A batch whose last look was saved this long ago has lost its chain of looks (one is due every few seconds). */
const BATCH_STALLED_SECONDS = 120;

/** A dead-lettered message is looked at again after this long (it stays in the DLQ for inspection). */
const DEAD_LETTER_RECHECK_SECONDS = 3600;

/** Fails the video or bot of each job that ended in a dead-letter queue (the message stays there); how many. */
async function sweepDeadLetters(deps: SweepDeps): Promise<number> {
  let deadLettered = 0;
  for (const inbox of deps.deadLetters) {
    for (const message of await inbox.peek(10, DEAD_LETTER_RECHECK_SECONDS)) {
      let parsed: FetchMediaMessage | RenderClipMessage | AssembleMessage | PrepareBotMessage;
      try {
        parsed = deadLetteredJobSchema.parse(JSON.parse(message.body));
      } catch {
        logger.warn('unreadable dead-lettered message', { body: message.body.slice(0, 200) });
        continue;
      }
      if (parsed.kind === 'prepare-bot') {
        if (await failDeadLetteredPreparation(deps, parsed)) deadLettered++;
        continue;
      }
      const video = parsed.videoId ? await deps.videos.get(parsed.videoId) : undefined;
      if (!video || isTerminal(video.status)) continue;
      const clipIndex = parsed.kind === 'assemble' ? undefined : parsed.clipIndex;
      const step = parsed.kind === 'fetch-media' ? 'the fetch of its media' : clipIndex === undefined ? 'the assembly' : 'the render';
      const what = clipIndex === undefined ? step : `clip ${clipIndex}: ${step}`;
      const error = {
        code: clipIndex === undefined ? 'assembly_failed' : 'render_failed',
        message: `${what} crashed or timed out on every attempt`,
        ...(clipIndex === undefined ? {} : { clipIndex }),
      };
      if (await failVideo(deps, video, error)) {
        logger.warn('video failed', { video_id: video.videoId, code: error.code, clip_index: clipIndex, reason: error.message });
        recordVideoFailed(error.code);
      }
      deadLettered++;
    }
  }
  return deadLettered;
}

/**
 * Every accepted job must end with a webhook attempt. The sweeper:
 * - fails videos whose render or assembly message ended in a dead-letter queue (a crash or time-out on every
 *   attempt, which no handler lived to record), leaving the message there; likewise bots whose preparation did;
 * - fails renders stuck past their deadline;
 * - re-queues the event of finished videos whose first delivery attempt was never recorded, and of settled bots.
 */
export async function sweep(deps: SweepDeps, batch = 100, batchLimit = 100): Promise<{ failed: number; requeued: number; deadLettered: number }> {
  const deadLettered = await sweepDeadLetters(deps);
  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  let failed = 0;
  let requeued = 0;
  for (const video of await deps.videos.listOverdue(nowSeconds, batch)) {
    if (!isTerminal(video.status)) {
      const error = { code: 'deadline_exceeded', message: `the render did not finish in time (still ${video.status})` };
      if (await failVideo(deps, video, error)) {
        logger.warn('video failed', { video_id: video.videoId, code: error.code, reason: error.message });
        recordVideoFailed(error.code);
      }
      failed++;
    } else if (video.delivery.state === 'none') {
      // Finished, and it sends no event of its own (a batch's row): nothing is owed; it leaves the index.
      await deps.videos.settleWithoutEvent(video.videoId);
    } else if (video.delivery.attempts.length === 0) {
      // Finished, but no attempt was ever recorded (its first message was lost): the event goes out again.
      const deliver = pendingDelivery(video);
      if (deliver) await deps.notifyQueue.send(deliver);
      await deps.videos.postponeDeadline(video.videoId, nowSeconds + SWEEPER_RESENDS_AFTER_SECONDS);
      requeued++;
    }
  }
  // Settled bots whose event's first attempt was never recorded (a crash between the settle and the queue).
  for (const bot of await deps.accountBots.listUnsentEvents(nowSeconds, batch)) {
    if (bot.delivery && bot.delivery.attempts.length === 0 && bot.status !== 'preparing') {
      const { tenantId, uid, version } = bot;
      await deps.notifyQueue.send({ kind: 'deliver-bot', tenantId, uid, version, eventId: bot.delivery.eventId, attempt: 1 });
      logger.warn('bot event re-queued', { tenant_id: tenantId, bot_uid: uid, version, event_id: bot.delivery.eventId });
      requeued++;
    }
    await deps.accountBots.postponeUnsentEvent(bot.tenantId, bot.uid, bot.version, nowSeconds + SWEEPER_RESENDS_AFTER_SECONDS);
  }
  // Batches: a crash between saving a look and queueing the next one ends the chain; revived here (a duplicate
  // look, if the chain was only slow, finds the version moved on and does nothing).
  for (const batch of await deps.batches.listStalled(nowSeconds - BATCH_STALLED_SECONDS, batchLimit)) {
    const { tenantId, batchId } = batch;
    if (!isSettled(batch.status)) {
      await deps.batchQueue.send({ kind: 'batch-tick', tenantId, batchId, version: batch.version });
      logger.warn('batch look re-queued', { tenant_id: tenantId, batch_id: batchId, version: batch.version });
      requeued++;
    } else if (batch.delivery && batch.delivery.attempts.length === 0) {
      await deps.notifyQueue.send({ kind: 'deliver-batch', tenantId, batchId, eventId: batch.delivery.eventId, attempt: 1 });
      logger.warn('batch event re-queued', { tenant_id: tenantId, batch_id: batchId, event_id: batch.delivery.eventId });
      requeued++;
    }
    await deps.batches.postpone(tenantId, batchId, batch.version, nowSeconds);
  }
  if (failed || requeued || deadLettered) logger.info('sweep', { failed, requeued, dead_lettered: deadLettered });
  return { failed, requeued, deadLettered };
}
