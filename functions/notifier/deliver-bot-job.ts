import type { Mode } from '#commons/config';
import { logger } from '#commons/logger';
import { presentAccountBot } from '#commons/presenters/bot';
import { activeWebhookSecrets } from '#domain/api-keys';
import type { DeliverBotMessage } from '#domain/messages';
import type { AccountBotStore, KeyStore, ObjectStore } from '#domain/ports';
import type { VoiceOptions } from '#domain/voices';
import type { DeliverWebhookOptions, DeliveryResult } from './deliver.ts';
import { alreadyDelivered, attemptDelivery, carriedByAnotherChain, type DeliveryOutcome, type Receipt } from './delivery-chain.ts';

export interface DeliverBotDeps {
  accountBots: Pick<AccountBotStore, 'get' | 'recordDeliveryAttempt'>;
  keys: Pick<KeyStore, 'findById'>;
  objects: Pick<ObjectStore, 'presignGet'>;
  mode: Mode;
  /** What the deployment speaks: the bot's `voice` in the event is the one it speaks with. */
  voices: VoiceOptions;
  now: () => Date;
  deliver?: (options: DeliverWebhookOptions) => Promise<DeliveryResult>;
}

/**
 * One attempt to deliver a bot's bot.ready / bot.failed event, on the video events' schedule and signing (the
 * notifier's queue retries it the same way), recorded on the bot as a video's is on the video (GET /v1/bot/{uid}
 * shows them; POST /v1/bot/{uid}/redeliver sends the event again). One chain of attempts per event, as for videos.
 * An event of a version that was replaced or deleted meanwhile is dropped: the bot it describes is gone.
 */
export async function deliverBotEvent(message: DeliverBotMessage, receipt: Receipt, deps: DeliverBotDeps): Promise<DeliveryOutcome> {
  const { messageId } = receipt;
  const bot = await deps.accountBots.get(message.tenantId, message.uid);
  if (!bot || bot.version !== message.version || bot.status === 'preparing' || !bot.webhookUrl) {
    logger.info('event of a replaced or deleted bot dropped', { bot_uid: message.uid, version: message.version });
    return { done: true };
  }
  const delivery = bot.delivery;
  if (alreadyDelivered(message, delivery)) {
    logger.info('event already delivered', { bot_uid: bot.uid, event_id: message.eventId });
    return { done: true };
  }
  if (carriedByAnotherChain(message, delivery, messageId)) {
    logger.info('duplicate delivery chain dropped', { bot_uid: bot.uid, event_id: message.eventId, chain: delivery?.chainId });
    return { done: true };
  }
  const key = await deps.keys.findById(bot.keyId);
  const now = deps.now();
  const type = bot.status === 'ready' ? ('bot.ready' as const) : ('bot.failed' as const);
  // The bot as GET /v1/bot/{uid} shows it, less the record of this very delivery (the same event every attempt).
  const { webhook_delivery: _delivery, ...data } = await presentAccountBot(bot, deps.objects, deps.voices);
  const event = { type, timestamp: bot.updatedAt, data: { ...data, status: bot.status } };
  const { webhookUrl } = bot;
  return attemptDelivery({
    send: { url: webhookUrl, event, eventId: message.eventId, secrets: key ? activeWebhookSecrets(key, now) : [], mode: deps.mode, now },
    delivery,
    message,
    receipt,
    record: (attempt, state, chainId) => deps.accountBots.recordDeliveryAttempt(bot.tenantId, bot.uid, bot.version, attempt, state, chainId),
    owner: { bot_uid: bot.uid },
    deliver: deps.deliver,
  });
}
