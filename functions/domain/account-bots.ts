/**
 * The use cases of an account's bots: create or replace (PUT /v1/bot/{uid}), delete, redeliver its event, and
 * resolve the bot a clip names. The record is account-bot.ts; this module only knows what a preparation needs
 * and where the files go.
 */
import {
  type AccountBot,
  type BotImageSource,
  type DrawnPart,
  isBuiltInUid,
  lookKeysOf,
  type ResolvedBot,
  type RetiredLook,
  toBot,
} from './account-bot.ts';

import { settledDelivery } from './account-bot-outcomes.ts';
import type { ImagePart, PutBotCommand } from './account-bot-request.ts';
import type { Bot } from './bot.ts';
import { uploadKey } from './bucket-layout.ts';
import { BOT_UID_PATTERN } from './choices.ts';
import { ConflictError, ForbiddenError, InvalidRequestError, NotFoundError, TooManyBotsInProgressError } from './errors.ts';
import { sharedUse } from './fair-use.ts';
import { limits } from './limits.ts';
import { CALLER_RESENDS_AFTER_SECONDS } from './lost-events.ts';
import type { DeliverBotMessage, PrepareBotMessage } from './messages.ts';
import type { AccountBotStore, AccountStore, MessageQueue, ObjectStore, UploadStore } from './ports.ts';
import { claimUpload } from './uploads.ts';

export interface AccountBotDeps {
  accountBots: AccountBotStore;
  /** The caller's account: a test account's bots preparing share its live account's limit. */
  accounts: Pick<AccountStore, 'get'>;
  objects: Pick<ObjectStore, 'putBytes' | 'delete' | 'head'>;
  /** The account's uploads: a video_upload is claimed for the bot. Without them a video_upload is refused. */
  uploads?: UploadStore;
  /** Photo and drawn bots' preparations: seconds each. */
  prepareQueue: MessageQueue<PrepareBotMessage>;
  /** Video bots' preparations: minutes each, on a queue (and function) of their own. */
  footageQueue: MessageQueue<PrepareBotMessage>;
  now: () => Date;
  newVersion: () => string;
}

/** Where a bot's preparation is queued: a video bot's takes minutes, so it never holds up a photo's seconds. */
export const preparationQueueOf = (bot: Pick<AccountBot, 'source'>, queues: Pick<AccountBotDeps, 'prepareQueue' | 'footageQueue'>) =>
  bot.source.kind === 'video' || bot.source.kind === 'video_url' ? queues.footageQueue : queues.prepareQueue;

const uploadKeysOf = (source: BotImageSource): string[] =>
  source.kind === 'photo' || source.kind === 'video'
    ? [source.uploadKey]
    : source.kind === 'drawn'
      ? Object.values(source.uploadKeys).filter((k): k is string => !!k)
      : [];

/** Every object a bot record owns: its uploads and its look's files. */
const objectKeysOf = (bot: AccountBot): string[] => [
  ...uploadKeysOf(bot.source),
  // Each look under looks/ or retired-looks/ (or half in each, while it moves): the current one, and those it replaced.
  ...lookKeysOf(bot, bot.look ? [bot.look, ...(bot.retiredLooks ?? [])] : (bot.retiredLooks ?? [])),
];

/**
 * Retired looks listed on a bot, newest kept: a listed look is removed by DELETE wherever it is. One dropped from the
 * list after this many replacements has long expired under retired-looks/ (or, if the sweeper failed its replacement,
 * stays under looks/: see failBot).
 */
const RETIRED_LOOKS_LISTED = 50;

/** The bot a clip of this account names: built-in first, then the account's own; undefined if neither. */
export async function resolveBot(
  tenantId: string,
  uid: string,
  deps: { bots: { get(uid: string): Promise<Bot | undefined> }; accountBots: Pick<AccountBotStore, 'get'> },
): Promise<ResolvedBot | undefined> {
  const builtIn = await deps.bots.get(uid);
  if (builtIn) return { bot: builtIn };
  if (!BOT_UID_PATTERN.test(uid)) return undefined;
  const own = await deps.accountBots.get(tenantId, uid);
  return own ? { bot: toBot(own), own } : undefined;
}

/**
 * The looks a replacement of `previous` leaves in the bucket: the ones it had replaced, and its current one (which the
 * replacement's preparation retires when it settles). Listed on the new record so that DELETE finds them, and so that
 * a clip pinned to one of them knows it is still this bot's. Only the newest RETIRED_LOOKS_LISTED are kept listed.
 */
function retiredLooksAfter(previous: AccountBot | undefined, now: string): RetiredLook[] {
  if (!previous) return [];
  const listed = [...(previous.retiredLooks ?? [])];
  if (previous.look && !listed.some((look) => look.version === previous.look!.version)) listed.push({ ...previous.look, replacedAt: now });
  return listed.slice(-RETIRED_LOOKS_LISTED);
}

/** A PUT or DELETE that lost a race with another request on the same bot: nothing of it was kept. */
const changedMeanwhile = (uid: string) =>
  new ConflictError(`bot "${uid}" was changed by another request at the same time; read it (GET /v1/bot/${uid}) and send yours again`);

/**
 * Refuses a preparation while the account has its limit of other bots preparing (replacing a bot that is itself
 * preparing takes its place). A test account's count includes its live account's bots (fair-use.ts sharedUse).
 * Checked before anything is stored: a refused PUT leaves nothing.
 */
async function ensureRoomForAnotherPreparation(tenantId: string, uid: string, deps: Pick<AccountBotDeps, 'accountBots' | 'accounts'>) {
  const preparing = await sharedUse(tenantId, deps.accounts, async (account) => {
    const bots = await deps.accountBots.list(account);
    return bots.filter((bot) => bot.status === 'preparing' && !(account === tenantId && bot.uid === uid)).length;
  });
  if (preparing >= limits.maxBotsPreparing) throw new TooManyBotsInProgressError(limits.maxBotsPreparing, limits.botsPreparingRetryAfterSeconds);
}

/**
 * Takes the caller's video_upload for this version of the bot (uploads.ts claimUpload: their own, a video, unexpired,
 * stored at its declared size, never used): refused with a 400 at `video_upload` otherwise. The file stays where the
 * upload put it; the bot's source names it, and whoever removes the bot's uploads removes it.
 */
async function claimVideoUpload(command: PutBotCommand, tenantId: string, version: string, deps: AccountBotDeps) {
  if (command.images.kind !== 'video_upload') return undefined;
  const uploadId = command.images.uploadId;
  if (!deps.uploads)
    throw new InvalidRequestError([{ path: 'video_upload', message: 'is not accepted here: give video_url or send the video file' }]);
  const usedBy = `bot:${command.uid}:${version}`;
  const { upload, key } = await claimUpload(tenantId, uploadId, { kind: 'video', path: 'video_upload', usedBy }, { ...deps, uploads: deps.uploads });
  if (upload.sizeBytes > limits.maxRecordingBytes) {
    await deps.uploads.release(tenantId, uploadId, usedBy);
    throw new InvalidRequestError([
      { path: 'video_upload', message: `holds ${upload.sizeBytes} bytes; a recording is at most ${limits.maxRecordingBytes}` },
    ]);
  }
  return { uploadId, usedBy, key };
}

/**
 * Creates or replaces a bot of the caller's account: stores the images under uploads/, records the bot as
 * `preparing` with a new version, and queues its preparation. A replaced bot keeps its previous look's files
 * until the new version settles (the job retires them; the record lists them among its retired looks from now on).
 * The record is written only if it is still the one read
 * (none, or the same version): of two PUTs at once one wins and the other is a ConflictError (409) that keeps nothing,
 * so no record names a look another version already removed. If the job cannot be queued, the previous record is
 * put back (or the new one removed, unless another request replaced it meanwhile) and the uploads deleted: nothing
 * is left waiting for a job that never comes.
 */
export async function putAccountBot(
  command: PutBotCommand,
  caller: { tenantId: string; keyId: string; test?: true },
  deps: AccountBotDeps,
): Promise<AccountBot> {
  const { tenantId } = caller;
  const previous = await deps.accountBots.get(tenantId, command.uid);
  await ensureRoomForAnotherPreparation(tenantId, command.uid, deps);
  const version = deps.newVersion();
  const now = deps.now().toISOString();
  const uploads: string[] = [];
  const upload = async (part: string, image: ImagePart) => {
    const key = uploadKey(tenantId, command.uid, version, part);
    // Never the caller's Content-Type: an upload served as text/html from the bucket would be a page of theirs.
    await deps.objects.putBytes(key, image.bytes, { contentType: 'application/octet-stream' });
    uploads.push(key);
    return key;
  };
  const claimed = await claimVideoUpload(command, tenantId, version, deps);
  const removeOwnUploads = async () => {
    await Promise.allSettled(uploads.map((key) => deps.objects.delete(key)));
    // A claimed upload is given back, not deleted: a retry may name it again.
    if (claimed) await deps.uploads!.release(tenantId, claimed.uploadId, claimed.usedBy);
  };
  let source: BotImageSource;
  try {
    const { images } = command;
    if (images.kind === 'video_upload') source = { kind: 'video', uploadKey: claimed!.key };
    else if (images.kind === 'photo') source = { kind: 'photo', uploadKey: await upload('image', images.image) };
    else if (images.kind === 'photo_url') source = { kind: 'photo_url', url: images.url };
    else if (images.kind === 'video') source = { kind: 'video', uploadKey: await upload('video', images.video) };
    else if (images.kind === 'video_url') source = { kind: 'video_url', url: images.url };
    else {
      const uploadKeys: Partial<Record<DrawnPart, string>> = {};
      for (const [part, image] of Object.entries(images.parts) as [DrawnPart, ImagePart][]) uploadKeys[part] = await upload(part, image);
      source = { kind: 'drawn', uploadKeys };
    }
  } catch (error) {
    await removeOwnUploads();
    throw error;
  }
  const retiredLooks = retiredLooksAfter(previous, now);
  const bot: AccountBot = {
    tenantId,
    uid: command.uid,
    keyId: caller.keyId,
    name: command.name,
    description: command.description,
    voice: command.voice,
    defaultPosition: command.defaultPosition,
    ...(command.webhookUrl ? { webhookUrl: command.webhookUrl } : {}),
    status: 'preparing',
    version,
    source,
    ...(command.consent ? { consent: { givenAt: now, keyId: caller.keyId } } : {}),
    ...(caller.test && { test: true as const }),
    ...(previous?.look ? { look: previous.look } : {}),
    ...(retiredLooks.length ? { retiredLooks } : {}),
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  };
  try {
    if (!(await deps.accountBots.put(bot, previous))) throw changedMeanwhile(command.uid);
  } catch (error) {
    await removeOwnUploads();
    throw error;
  }
  try {
    await preparationQueueOf(bot, deps).send({ kind: 'prepare-bot', tenantId, uid: bot.uid, version });
  } catch (error) {
    await (previous ? deps.accountBots.put(previous, bot) : deps.accountBots.delete(tenantId, bot.uid, bot));
    await removeOwnUploads();
    throw error;
  }
  // The previous version's uploads, if its preparation never ran: that job will find itself superseded.
  if (previous) await Promise.allSettled(uploadKeysOf(previous.source).map((key) => deps.objects.delete(key)));
  return bot;
}

/**
 * DELETE /v1/bot/{uid}: the record and every file it owns. A built-in bot is 403, anything not the caller's 404.
 * The record is deleted only if it is still the one read; if a PUT replaced it meanwhile, a ConflictError (409).
 */
export async function deleteAccountBot(tenantId: string, uid: string, deps: Pick<AccountBotDeps, 'accountBots' | 'objects'>): Promise<AccountBot> {
  if (isBuiltInUid(uid)) throw new ForbiddenError(`"${uid}" is a built-in bot; it cannot be deleted.`);
  const bot = BOT_UID_PATTERN.test(uid) ? await deps.accountBots.get(tenantId, uid) : undefined;
  if (!bot) throw new NotFoundError(`No bot "${uid}".`);
  if (!(await deps.accountBots.delete(tenantId, uid, bot))) throw changedMeanwhile(uid);
  // A preparation under way finds the record gone and removes what it wrote (functions/prepare/prepare-job.ts).
  await Promise.all(objectKeysOf(bot).map((key) => deps.objects.delete(key)));
  return bot;
}

/**
 * POST /v1/bot/{uid}/redeliver: queues the bot's event (bot.ready or bot.failed) again, as a new chain of attempts.
 * Only a settled bot of the account with a webhook has one; one chain at a time, as for videos. An event never
 * attempted CALLER_RESENDS_AFTER_SECONDS after the bot settled (lost between the settle and the queue) may be sent again too.
 */
export async function redeliverBotEvent(
  deps: { accountBots: Pick<AccountBotStore, 'get'>; notifyQueue: MessageQueue<DeliverBotMessage>; now: () => Date },
  tenantId: string,
  uid: string,
): Promise<{ bot: AccountBot; eventId: string }> {
  if (isBuiltInUid(uid)) throw new ForbiddenError(`"${uid}" is a built-in bot; it sends no events.`);
  const bot = BOT_UID_PATTERN.test(uid) ? await deps.accountBots.get(tenantId, uid) : undefined;
  if (!bot) throw new NotFoundError(`No bot "${uid}".`);
  if (bot.status === 'preparing') throw new ConflictError(`Bot "${uid}" is still preparing; its event is sent when it is ready or has failed.`);
  if (!bot.webhookUrl) throw new ConflictError(`Bot "${uid}" has no webhook; give one with PUT /v1/bot/${uid} to be told when it is ready.`);
  // A bot settled before events were recorded has no record: its event as a fresh one.
  const delivery = bot.delivery ?? settledDelivery(bot, bot.status === 'ready' ? 'bot.ready' : 'bot.failed')!;
  const lost =
    delivery.state === 'pending' &&
    delivery.attempts.length === 0 &&
    deps.now().getTime() - Date.parse(bot.updatedAt) >= CALLER_RESENDS_AFTER_SECONDS * 1000;
  if (!lost && (delivery.state === 'pending' || delivery.state === 'delivering'))
    throw new ConflictError(
      `The event of bot "${uid}" is still being delivered (${delivery.attempts.length} attempts so far); redeliver once it has been delivered or has failed.`,
    );
  await deps.notifyQueue.send({
    kind: 'deliver-bot',
    tenantId,
    uid,
    version: bot.version,
    eventId: delivery.eventId,
    attempt: delivery.attempts.length + 1,
    redelivery: true,
  });
  return { bot, eventId: delivery.eventId };
}
