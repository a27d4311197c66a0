/**
 * How a preparation of a bot ends: the version settles ready or failed once, its uploads go, the look it replaces
 * is retired, and its webhook is told. The prepare job (functions/prepare) and the sweeper end preparations here.
 */
import { type AccountBot, type BotDelivery, type BotFailure, DRAWN_PARTS, lookKeysOf, type StoredLook } from './account-bot.ts';
import { lookFileKey, retiredLookFileKey, uploadKey } from './bucket-layout.ts';
import type { DeliverBotMessage, PrepareBotMessage } from './messages.ts';
import type { AccountBotStore, MessageQueue, ObjectStore } from './ports.ts';

/** What settling a version of a bot touches: the prepare job (functions/prepare) and the sweeper use it. */
export interface BotOutcomeDeps {
  accountBots: Pick<AccountBotStore, 'get' | 'markFailed'>;
  objects: Pick<ObjectStore, 'head' | 'copy' | 'delete'>;
  notifyQueue: MessageQueue<DeliverBotMessage>;
  now: () => Date;
}

/** The failure of a preparation that did not end with the builder's verdict (a crash, a time-out, our fault). */
export const preparationFailed = (attempts: number): BotFailure => ({
  code: 'preparation_failed',
  message: `the bot could not be prepared${attempts > 1 ? ` after ${attempts} attempts` : ''}; send it again with PUT /v1/bot/{uid}`,
});

/** The event id of a bot's outcome: stable per version and outcome, so a receiver can drop duplicates. */
const botEventIdFor = (bot: Pick<AccountBot, 'tenantId' | 'uid' | 'version'>, type: 'bot.ready' | 'bot.failed') =>
  `evt_bot_${bot.tenantId}_${bot.uid}_${bot.version}_${type.replace(/^bot\./, '')}`;

/**
 * Every upload a version may have made (the PUT's parts) and, when the record of that version is at hand, the
 * upload it named (video_upload): a recording of a person's face is kept no longer than its preparation needs.
 * Deleting one that is not there is a no-op.
 */
export async function removeUploads(
  deps: Pick<BotOutcomeDeps, 'objects'>,
  message: PrepareBotMessage,
  bot?: Pick<AccountBot, 'version' | 'source'>,
): Promise<void> {
  const named = bot?.version === message.version && bot.source.kind === 'video' ? [bot.source.uploadKey] : [];
  const parts = ['image', 'video', ...DRAWN_PARTS].map((part) => uploadKey(message.tenantId, message.uid, message.version, part));
  await Promise.all([...parts, ...named].map((key) => deps.objects.delete(key)));
}

/**
 * Moves a look the bot no longer draws to retired-looks/, where clips pinned to it still find it until the
 * bucket's lifecycle rule expires it. Each file is copied before it is deleted, so a render reading the look
 * meanwhile finds every file in one place or the other; a retry after a crash skips what already moved.
 */
export async function retireLook(deps: Pick<BotOutcomeDeps, 'objects'>, bot: Pick<AccountBot, 'tenantId' | 'uid'>, look: StoredLook): Promise<void> {
  await Promise.all(
    look.files.map(async (file) => {
      const from = lookFileKey(bot.tenantId, bot.uid, look.version, file);
      if (!(await deps.objects.head(from))) return;
      await deps.objects.copy(from, retiredLookFileKey(bot.tenantId, bot.uid, look.version, file), { tags: {} });
      await deps.objects.delete(from);
    }),
  );
}

/** The record of a settling bot's event delivery: none without a webhook. */
export const settledDelivery = (bot: AccountBot, type: 'bot.ready' | 'bot.failed'): BotDelivery | undefined =>
  bot.webhookUrl ? { eventId: botEventIdFor(bot, type), state: 'pending', attempts: [] } : undefined;

/** Queues the bot's bot.ready / bot.failed event, if it has a webhook (the notifier delivers an event id once). */
export async function announceBot(deps: Pick<BotOutcomeDeps, 'notifyQueue'>, bot: AccountBot, type: 'bot.ready' | 'bot.failed'): Promise<void> {
  if (!bot.webhookUrl) return;
  await deps.notifyQueue.send({
    kind: 'deliver-bot',
    tenantId: bot.tenantId,
    uid: bot.uid,
    version: bot.version,
    eventId: botEventIdFor(bot, type),
    attempt: 1,
  });
}

/**
 * Fails the message's version once, only while it is the bot's current version and still preparing: the record
 * says why, its uploads go, its webhook is told. Its previous look (listed among the retired looks since the PUT)
 * stays where clips pinned to it find it: the prepare job retires it (moves it to retired-looks/, before the record
 * stops naming it, so an attempt that dies halfway still knows what to move); the sweeper, which may only delete
 * uploads, leaves it under looks/, where it stays until the bot is deleted. A version that was replaced, deleted or has
 * settled only loses its uploads (never needed again). The prepare job's failure policy and the sweeper (a message
 * dead-lettered after crashing on every attempt) both end a preparation here. Returns whether this call failed the bot.
 */
export async function failBot(
  deps: BotOutcomeDeps,
  message: PrepareBotMessage,
  failure: BotFailure,
  previousLook: 'retire' | 'leave' = 'retire',
): Promise<boolean> {
  const bot = await deps.accountBots.get(message.tenantId, message.uid);
  if (!bot || bot.version !== message.version || bot.status !== 'preparing') {
    await removeUploads(deps, message);
    return false;
  }
  if (bot.look && previousLook === 'retire') await retireLook(deps, bot, bot.look);
  const failedAt = deps.now().toISOString();
  if (!(await deps.accountBots.markFailed(message.tenantId, message.uid, message.version, failure, failedAt, settledDelivery(bot, 'bot.failed')))) {
    if (previousLook === 'retire') await removeLookIfBotDeleted(deps, bot);
    return false;
  }
  await removeUploads(deps, message, bot);
  await announceBot(deps, { ...bot, status: 'failed', error: failure }, 'bot.failed');
  return true;
}

/**
 * After a settle found the record gone (a DELETE came between reading it and writing it): what the DELETE may have
 * missed, because the settle moved it meanwhile, goes now. A record replaced by a PUT still lists the look.
 */
export async function removeLookIfBotDeleted(deps: Pick<BotOutcomeDeps, 'accountBots' | 'objects'>, bot: AccountBot): Promise<void> {
  if (!bot.look || (await deps.accountBots.get(bot.tenantId, bot.uid))) return;
  await Promise.all(lookKeysOf(bot, [bot.look]).map((key) => deps.objects.delete(key)));
}
