import { logger } from '#commons/logger';
import { presentAccountBot } from '#commons/presenters/bot';
import type { DeliverBotMessage } from '#domain/messages';
import type { AccountBotStore, ObjectStore } from '#domain/ports';
import type { VoiceOptions } from '#domain/voices';
import type { EventOwner } from '../delivery-job.ts';

export interface BotEventDeps {
  accountBots: Pick<AccountBotStore, 'get' | 'recordDeliveryAttempt'>;
  objects: Pick<ObjectStore, 'presignGet'>;
  /** What the deployment speaks: the bot's `voice` in the event is the one it speaks with. */
  voices: VoiceOptions;
}

/**
 * A bot's bot.ready / bot.failed event, recorded on the bot as a video's is on the video (GET /v1/bot/{uid} shows
 * them; POST /v1/bot/{uid}/redeliver sends the event again). An event of a version that was replaced or deleted
 * meanwhile is dropped: the bot it describes is gone.
 */
export const botEvents = (deps: BotEventDeps): EventOwner<DeliverBotMessage> => ({
  async load(message) {
    const bot = await deps.accountBots.get(message.tenantId, message.uid);
    if (!bot || bot.version !== message.version || bot.status === 'preparing' || !bot.webhookUrl) {
      logger.info('event of a replaced or deleted bot dropped', { bot_uid: message.uid, version: message.version });
      return undefined;
    }
    const { status } = bot;
    return {
      logKeys: { bot_uid: bot.uid },
      webhookUrl: bot.webhookUrl,
      keyId: bot.keyId,
      delivery: bot.delivery,
      async event() {
        const type = status === 'ready' ? ('bot.ready' as const) : ('bot.failed' as const);
        // The bot as GET /v1/bot/{uid} shows it, less the record of this very delivery (the same event every attempt).
        const { webhook_delivery: _delivery, ...data } = await presentAccountBot(bot, deps.objects, deps.voices);
        return { type, timestamp: bot.updatedAt, data: { ...data, status } };
      },
      record: (attempt, state, chainId) => deps.accountBots.recordDeliveryAttempt(bot.tenantId, bot.uid, bot.version, attempt, state, chainId),
    };
  },
});
