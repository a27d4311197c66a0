/**
 * The prepare queue's job: one version of an account's bot becomes a look (functions/prepare/look.ts) stored
 * under looks/<tenant>/<uid>/<version>/, and the bot `ready`; or the bot `failed` with the builder's code. Either
 * way its uploads are removed, the look of the version it replaces is retired (moved to retired-looks/, where clips
 * of videos accepted before the replacement still find it), and its webhook (if any) gets a signed
 * bot.ready / bot.failed event through the notifier.
 *
 * Safe to run again for the same message: a version that was replaced or deleted meanwhile is dropped (and what it
 * wrote removed); a version already settled removes its uploads and queues its event again (the notifier delivers
 * an event once). A version that crashes on every attempt is failed by the sweeper from the dead-letter queue.
 */
import type { QueueJob } from '#commons/jobs';
import { logger } from '#commons/logger';
import { type AccountBot, DRAWN_SHAPE_PARTS, type DrawnPart, type StoredLook } from '#domain/account-bot';
import {
  announceBot,
  failBot,
  preparationFailed,
  removeLookIfBotDeleted,
  removeUploads,
  retireLook,
  settledDelivery,
} from '#domain/account-bot-outcomes';
import { lookFileKey } from '#domain/bucket-layout';
import { JobFailedError } from '#domain/errors';
import { footageWarnings } from '#domain/footage-warnings';
import { footageMatted, MOUTH_SHAPES } from '#domain/look';
import type { DeliverBotMessage, PrepareBotMessage } from '#domain/messages';
import type { AccountBotStore, MessageQueue, ObjectStore } from '#domain/ports';
import type { DrawnImages } from './drawn-look.ts';
import { LookError, type PreparedLook } from './look.ts';

export interface PrepareJobDeps {
  accountBots: AccountBotStore;
  objects: Pick<ObjectStore, 'putBytes' | 'head' | 'copy' | 'delete' | 'getToFile'>;
  /** The bytes of an object (an upload); undefined if it is gone. */
  readObject: (key: string) => Promise<Buffer | undefined>;
  notifyQueue: MessageQueue<DeliverBotMessage>;
  /** The look builders (functions/prepare/photo-look.ts, drawn-look.ts): ports, so tests pass real looks. */
  buildPhotoLook: (image: Buffer) => Promise<PreparedLook>;
  buildDrawnLook: (images: DrawnImages) => Promise<PreparedLook>;
  /**
   * A video bot's look from its recording (functions/prepare/footage/footage-look.ts): the builder gives a path in
   * its work dir and `writeRecording` puts the recording there, so a 300 MB file is streamed, never held in memory.
   */
  buildFootageLook: (writeRecording: (path: string) => Promise<void>) => Promise<PreparedLook>;
  /** Streams a video_url into `path` through the address guard, or throws JobFailedError (video_unavailable, video_too_large). */
  fetchRecording: (url: string, path: string) => Promise<void>;
  /** Downloads an image_url through the address guard, or throws JobFailedError (image_unavailable, image_too_large). */
  fetchImage: (url: string) => Promise<Buffer>;
  now: () => Date;
}

const MANIFEST = 'manifest.json';

const contentTypeOf = (file: string) => (file.endsWith('.json') ? 'application/json' : file.endsWith('.mp4') ? 'video/mp4' : 'image/png');

async function upload(deps: PrepareJobDeps, key: string): Promise<Buffer> {
  const bytes = await deps.readObject(key);
  // Only a PUT of a newer version or a DELETE removes uploads, and both make this version stale first; an upload
  // missing otherwise is lost (e.g. expired by the bucket's lifecycle rule): the caller must send it again.
  if (!bytes) throw new JobFailedError('image_unavailable', 'the uploaded image is no longer stored; send it again');
  return bytes;
}

/** A recording's upload streamed into `path` (see `upload` for why a missing one is the caller's to send again). */
async function uploadToFile(deps: PrepareJobDeps, key: string, path: string): Promise<void> {
  if (!(await deps.objects.getToFile(key, path)))
    throw new JobFailedError('video_unavailable', 'the uploaded recording is no longer stored; send it again');
}

async function buildLook(bot: AccountBot, deps: PrepareJobDeps): Promise<PreparedLook> {
  const { source } = bot;
  try {
    if (source.kind === 'photo') return await deps.buildPhotoLook(await upload(deps, source.uploadKey));
    if (source.kind === 'photo_url') return await deps.buildPhotoLook(await deps.fetchImage(source.url));
    if (source.kind === 'video') return await deps.buildFootageLook((path) => uploadToFile(deps, source.uploadKey, path));
    if (source.kind === 'video_url') return await deps.buildFootageLook((path) => deps.fetchRecording(source.url, path));
    const parts = {} as Partial<Record<DrawnPart, Buffer>>;
    for (const [part, key] of Object.entries(source.uploadKeys) as [DrawnPart, string][]) parts[part] = await upload(deps, key);
    if (!parts.mouth_closed || !parts.mouth_open) throw new JobFailedError('image_invalid', 'a drawn bot needs mouth_closed and mouth_open');
    return await deps.buildDrawnLook({
      mouthClosed: parts.mouth_closed,
      mouthOpen: parts.mouth_open,
      mouthHalf: parts.mouth_half,
      eyesClosed: parts.eyes_closed,
      shapes: Object.fromEntries(
        MOUTH_SHAPES.flatMap((shape) => {
          const drawing = parts[DRAWN_SHAPE_PARTS[shape]];
          return drawing ? [[shape, drawing]] : [];
        }),
      ),
    });
  } catch (error) {
    // The builder's verdict on the caller's image: final, and its message is written for the caller.
    // Its detail (a library's own text) is logged here and goes no further.
    if (error instanceof LookError) {
      if (error.detail) logger.warn('bot image refused', { bot_uid: bot.uid, version: bot.version, code: error.code, detail: error.detail });
      throw new JobFailedError(error.code, error.message);
    }
    throw error;
  }
}

async function runPrepareJob(message: PrepareBotMessage, deps: PrepareJobDeps): Promise<void> {
  const { tenantId, uid, version } = message;
  const bot = await deps.accountBots.get(tenantId, uid);
  if (!bot || bot.version !== version) {
    logger.info('bot replaced or deleted before its preparation; dropped', { bot_uid: uid, version, current: bot?.version });
    await removeUploads(deps, message);
    return;
  }
  if (bot.status !== 'preparing') {
    // Settled by an earlier attempt that may not have lived to remove the uploads or queue its event: both again
    // (a removed upload is a no-op; the notifier sends an event once). A replaced look was retired before the
    // record stopped naming it.
    await removeUploads(deps, message, bot);
    await announceBot(deps, bot, bot.status === 'ready' ? 'bot.ready' : 'bot.failed');
    return;
  }
  const started = Date.now();
  const look = await buildLook(bot, deps);
  const files = new Map(look.files);
  if (!files.has(MANIFEST)) files.set(MANIFEST, Buffer.from(JSON.stringify(look.manifest)));
  if (!files.has(look.manifest.preview)) throw new Error(`the prepared look has no preview file "${look.manifest.preview}"`);
  const footage = look.manifest.footage;
  const warnings = footageWarnings(look.manifest);
  const stored: StoredLook = {
    version,
    files: [...files.keys()],
    preview: look.manifest.preview,
    ...(footage && { recordingSeconds: footage.frames / footage.fps }),
    ...(footage && footageMatted(footage) && { cutout: true as const }),
    // Stored for every video bot, none as []: a look made before warnings has none stored, and shows none.
    ...(footage && { warnings }),
  };
  const written: string[] = [];
  try {
    for (const [file, bytes] of files) {
      const key = lookFileKey(tenantId, uid, version, file);
      await deps.objects.putBytes(key, bytes, { contentType: contentTypeOf(file) });
      written.push(key);
    }
    // The replaced look is retired while the record still names it: once markReady has swapped it for the new one,
    // a retry after a crash here would no longer know what to move. Clips pinned to it find it under retired-looks/.
    if (bot.look && bot.look.version !== version) await retireLook(deps, bot, bot.look);
    if (!(await deps.accountBots.markReady(tenantId, uid, version, stored, deps.now().toISOString(), settledDelivery(bot, 'bot.ready')))) {
      logger.info('bot replaced or deleted during its preparation; its look removed', { bot_uid: uid, version });
      await Promise.all(written.map((key) => deps.objects.delete(key)));
      // Deleted: the look it retired meanwhile may have been copied after the DELETE removed what it listed.
      await removeLookIfBotDeleted(deps, bot);
      await removeUploads(deps, message);
      return;
    }
  } catch (error) {
    // Nothing half-made: the look's files go; the retry (or the failure below) starts clean.
    await Promise.allSettled(written.map((key) => deps.objects.delete(key)));
    throw error;
  }
  logger.info('bot ready', {
    bot_uid: uid,
    version,
    files: stored.files.length,
    warnings: warnings.map((w) => w.code),
    prepare_ms: Date.now() - started,
  });
  await removeUploads(deps, message, bot);
  await announceBot(deps, { ...bot, status: 'ready', look: stored }, 'bot.ready');
}

/** The prepare queue's job: a bot's look, under the one failure policy of queue jobs (functions/commons/jobs.ts). */
export const prepareJob: QueueJob<PrepareBotMessage, PrepareJobDeps> = {
  name: 'preparation',
  fatal: { code: preparationFailed(1).code, message: (attempts: number) => preparationFailed(attempts).message },
  logKeys: (message) => ({ tenant_id: message.tenantId, bot_uid: message.uid, version: message.version }),
  async fail(message, failure, deps) {
    if (await failBot(deps, message, { code: failure.code, message: failure.message }))
      logger.warn('bot failed', { bot_uid: message.uid, version: message.version, code: failure.code, reason: failure.message });
  },
  run: runPrepareJob,
};
