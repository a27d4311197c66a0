/** How callers see a bot (GET /v1/bot, POST /v1/bot/, GET /v1/bot/{uid}). */
import { botPreviewKey, type Bot } from '#domain/bot';
import type { ObjectStore } from '#domain/ports';

/** Preview links are presigned; a week keeps them usable in a cached listing. */
const PREVIEW_LINK_SECONDS = 7 * 24 * 3600;

function toPublicBot(bot: Bot, previewImageUrl: string | null) {
  return {
    uid: bot.uid,
    name: bot.name,
    description: bot.description,
    voice: { engine: bot.voice.engine, name: bot.voice.engine === 'polly' ? bot.voice.pollyVoiceId : bot.voice.espeakVoice },
    default_position: bot.defaultPosition,
    preview_image_url: previewImageUrl,
  };
}

/** A bot with a fresh presigned link to its preview image. */
export const presentBot = async (bot: Bot, objects: ObjectStore) => toPublicBot(bot, (await objects.presignGet(botPreviewKey(bot), PREVIEW_LINK_SECONDS)).url);
