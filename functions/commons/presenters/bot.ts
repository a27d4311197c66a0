/** How callers see a bot (GET /v1/bot, POST /v1/bot/, GET /v1/bot/{uid}). */
import { botPreviewKey, type Bot } from '#domain/bot';
import type { ObjectStore } from '#domain/ports';
import { voiceToSpeak, type VoiceOptions } from '#domain/voices';

/** Preview links are presigned; a week keeps them usable in a cached listing. */
const PREVIEW_LINK_SECONDS = 7 * 24 * 3600;

function toPublicBot(bot: Bot, previewImageUrl: string | null, voices: VoiceOptions) {
  return {
    uid: bot.uid,
    name: bot.name,
    description: bot.description,
    // The voice id it speaks with in this deployment (GET /v1/voices describes it); a clip may name another.
    voice: voiceToSpeak(bot.voice, undefined, voices).id,
    default_position: bot.defaultPosition,
    preview_image_url: previewImageUrl,
  };
}

/** A bot with a fresh presigned link to its preview image. */
export const presentBot = async (bot: Bot, objects: ObjectStore, voices: VoiceOptions) =>
  toPublicBot(bot, (await objects.presignGet(botPreviewKey(bot), PREVIEW_LINK_SECONDS)).url, voices);
