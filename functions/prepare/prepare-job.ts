/**
 * The prepare queue's job: one version of an account's bot becomes a look (functions/prepare/look.ts) stored
 * under looks/<tenant>/<uid>/<version>/, and the bot `ready`; or the bot `failed` with the builder's code. Either
 * way its uploads are removed, so is the look of the version it replaces, and its webhook (if any) gets a signed
 * bot.ready / bot.failed event through the notifier.
 *
 * Safe to run again for the same message: a version that was replaced or deleted meanwhile is dropped (and what it
 * wrote removed); a version already settled only queues its event again (the notifier delivers an event once).
 */
import {
  botEventIdFor,
  DRAWN_PARTS,
  lookFileKey,
  uploadKey,
  type AccountBot,
  type BotFailure,
  type DrawnPart,
  type StoredLook,
} from '#domain/account-bots';
import { JobFailure } from '#domain/errors';
import type { DeliverBotMessage, PrepareBotMessage } from '#domain/messages';
import type { AccountBotStore, MessageQueue, ObjectStore } from '#domain/ports';
import { runJob } from '#commons/jobs';
import { logger } from '#commons/logger';
import type { DrawnImages } from './drawn-look.ts';
import { LookError, type PreparedLook } from './look.ts';

export interface PrepareJobDeps {
  accountBots: AccountBotStore;
  objects: Pick<ObjectStore, 'putBytes' | 'delete'>;
  /** The bytes of an object (an upload); undefined if it is gone. */
  readObject: (key: string) => Promise<Buffer | undefined>;
  notifyQueue: MessageQueue<DeliverBotMessage>;
  /** The look builders (functions/prepare/photo-look.ts, drawn-look.ts): ports, so tests pass real looks. */
  buildPhotoLook: (image: Buffer) => Promise<PreparedLook>;
  buildDrawnLook: (images: DrawnImages) => Promise<PreparedLook>;
  /** Downloads an image_url through the address guard, or throws JobFailure (image_unavailable, image_too_large). */
  fetchImage: (url: string) => Promise<Buffer>;
  now: () => Date;
}

const MANIFEST = 'manifest.json';
const ALL_UPLOAD_PARTS = ['image', ...DRAWN_PARTS];

/** Every upload a version may have made (the PUT's parts); deleting one that is not there is a no-op. */
async function removeUploads(deps: PrepareJobDeps, message: PrepareBotMessage): Promise<void> {
  await Promise.all(ALL_UPLOAD_PARTS.map((part) => deps.objects.delete(uploadKey(message.tenantId, message.uid, message.version, part))));
}

const removeLook = (deps: PrepareJobDeps, bot: Pick<AccountBot, 'tenantId' | 'uid'>, look: StoredLook) =>
  Promise.all(look.files.map((file) => deps.objects.delete(lookFileKey(bot.tenantId, bot.uid, look.version, file))));

async function announce(deps: PrepareJobDeps, bot: AccountBot, type: 'bot.ready' | 'bot.failed') {
  if (!bot.webhookUrl) return;
  await deps.notifyQueue.send({ kind: 'deliver-bot', tenantId: bot.tenantId, uid: bot.uid, version: bot.version, eventId: botEventIdFor(bot, type), attempt: 1 });
}

async function upload(deps: PrepareJobDeps, key: string): Promise<Buffer> {
  const bytes = await deps.readObject(key);
  // Only a PUT of a newer version or a DELETE removes uploads, and both make this version stale first; an upload
  // missing otherwise is lost (e.g. expired by the bucket's lifecycle rule): the caller must send it again.
  if (!bytes) throw new JobFailure('image_unavailable', 'the uploaded image is no longer stored; send it again');
  return bytes;
}

async function buildLook(bot: AccountBot, deps: PrepareJobDeps): Promise<PreparedLook> {
  const { source } = bot;
  try {
    if (source.kind === 'photo') return await deps.buildPhotoLook(await upload(deps, source.uploadKey));
    if (source.kind === 'photo_url') return await deps.buildPhotoLook(await deps.fetchImage(source.url));
    const parts = {} as Partial<Record<DrawnPart, Buffer>>;
    for (const [part, key] of Object.entries(source.uploadKeys) as [DrawnPart, string][]) parts[part] = await upload(deps, key);
    if (!parts.mouth_closed || !parts.mouth_open) throw new JobFailure('image_invalid', 'a drawn bot needs mouth_closed and mouth_open');
    return await deps.buildDrawnLook({ mouthClosed: parts.mouth_closed, mouthOpen: parts.mouth_open, mouthHalf: parts.mouth_half, eyesClosed: parts.eyes_closed });
  } catch (error) {
    // The builder's verdict on the caller's image: final, and its message is written for the caller.
    // Its detail (a library's own text) is logged here and goes no further.
    if (error instanceof LookError) {
      if (error.detail) logger.warn('bot image refused', { bot_uid: bot.uid, version: bot.version, code: error.code, detail: error.detail });
      throw new JobFailure(error.code, error.message);
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
    // Settled by an earlier attempt that did not live to queue its event (or did: the notifier sends it once).
    await announce(deps, bot, bot.status === 'ready' ? 'bot.ready' : 'bot.failed');
    return;
  }
  const started = Date.now();
  const look = await buildLook(bot, deps);
  const files = new Map(look.files);
  if (!files.has(MANIFEST)) files.set(MANIFEST, Buffer.from(JSON.stringify(look.manifest)));
  if (!files.has(look.manifest.preview)) throw new Error(`the prepared look has no preview file "${look.manifest.preview}"`);
  const stored: StoredLook = { version, files: [...files.keys()], preview: look.manifest.preview };
  const written: string[] = [];
  try {
    for (const [file, bytes] of files) {
      const key = lookFileKey(tenantId, uid, version, file);
      await deps.objects.putBytes(key, bytes, { contentType: file.endsWith('.json') ? 'application/json' : 'image/png' });
      written.push(key);
    }
    if (!(await deps.accountBots.markReady(tenantId, uid, version, stored, deps.now().toISOString()))) {
      logger.info('bot replaced or deleted during its preparation; its look removed', { bot_uid: uid, version });
      await Promise.all(written.map((key) => deps.objects.delete(key)));
      await removeUploads(deps, message);
      return;
    }
  } catch (error) {
    // Nothing half-made: the look's files go; the retry (or the failure below) starts clean.
    await Promise.allSettled(written.map((key) => deps.objects.delete(key)));
    throw error;
  }
  logger.info('bot ready', { bot_uid: uid, version, files: stored.files.length, prepare_ms: Date.now() - started });
  if (bot.look && bot.look.version !== version) await removeLook(deps, bot, bot.look);
  await removeUploads(deps, message);
  await announce(deps, { ...bot, status: 'ready', look: stored }, 'bot.ready');
}

/** Fails the version once: the record says why, its uploads and any previous look go, its webhook is told. */
async function failBot(deps: PrepareJobDeps, message: PrepareBotMessage, failure: BotFailure) {
  const bot = await deps.accountBots.get(message.tenantId, message.uid);
  if (!bot || bot.version !== message.version) return removeUploads(deps, message);
  if (!(await deps.accountBots.markFailed(message.tenantId, message.uid, message.version, failure, deps.now().toISOString()))) return;
  logger.warn('bot failed', { bot_uid: message.uid, version: message.version, code: failure.code, reason: failure.message });
  if (bot.look) await removeLook(deps, bot, bot.look);
  await removeUploads(deps, message);
  await announce(deps, { ...bot, status: 'failed', error: failure }, 'bot.failed');
}

/** The prepare queue's job under the one failure policy of queue jobs (functions/commons/jobs.ts). */
export function handlePrepareMessage(message: PrepareBotMessage, receive: number, maxReceives: number, deps: PrepareJobDeps): Promise<void> {
  const job = {
    name: 'preparation',
    receive,
    maxReceives,
    logKeys: { bot_uid: message.uid, version: message.version },
    fatal: {
      code: 'preparation_failed',
      message: (attempts: number) => `the bot could not be prepared${attempts > 1 ? ` after ${attempts} attempts` : ''}; send it again with PUT /v1/bot/{uid}`,
    },
  };
  return runJob(job, (failure) => failBot(deps, message, { code: failure.code, message: failure.message }), () => runPrepareJob(message, deps));
}
