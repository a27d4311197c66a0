import type { Mode } from '#commons/config';
import { logger } from '#commons/logger';
import { recordWebhookAttempt } from '#commons/metrics';
import { presentAccountBot } from '#commons/presenters/bot';
import { activeWebhookSecrets } from '#domain/api-keys';
import type { DeliverBotMessage } from '#domain/messages';
import type { AccountBotStore, KeyStore, ObjectStore } from '#domain/ports';
import type { VoiceOptions } from '#domain/voices';
import { type DeliverWebhookOptions, type DeliveryResult, deliverWebhook, toDeliveryAttempt } from './deliver.ts';
import type { DeliveryOutcome, Receipt } from './deliver-job.ts';
import { afterAttempt, alreadyDelivered, carriedByAnotherChain } from './delivery-chain.ts';

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
  const { messageId, receiveCount } = receipt;
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
  const type = bot.status === 'ready' ? 'bot.ready' : 'bot.failed';
  // The bot as GET /v1/bot/{uid} shows it, less the record of this very delivery (the same event every attempt).
  const { webhook_delivery: _delivery, ...data } = await presentAccountBot(bot, deps.objects, deps.voices);
  const result = await (deps.deliver ?? deliverWebhook)({
    url: bot.webhookUrl,
    event: { type, timestamp: bot.updatedAt, data: { ...data, status: bot.status } },
    eventId: message.eventId,
    secrets: key ? activeWebhookSecrets(key, now) : [],
    mode: deps.mode,
    now,
  });
  const { attemptNumber, retryIn, state } = afterAttempt(result, delivery, message, receiveCount);
  await deps.accountBots.recordDeliveryAttempt(bot.tenantId, bot.uid, bot.version, toDeliveryAttempt(result, attemptNumber, now), state, messageId);
  recordWebhookAttempt(result.ok);
  logger[result.ok ? 'info' : 'warn']('webhook attempt', {
    bot_uid: bot.uid,
    event_id: message.eventId,
    attempt: attemptNumber,
    receive: receiveCount,
    state,
    status_code: result.statusCode,
    error: result.error,
    detail: result.detail,
    retry_in_s: retryIn,
  });
  if (result.ok || !result.retryable) return { done: true };
  return { done: false, retryInSeconds: retryIn ?? 0, reason: result.error ?? 'delivery failed' };
}
