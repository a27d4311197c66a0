/** How callers see a bot (GET /v1/bot, POST /v1/bot/, GET /v1/bot/{uid}, PUT /v1/bot/{uid}, bot.* events). */
import { type AccountBot, kindOfSource, toBot } from '#domain/account-bot';
import { type Bot, botPreviewKey } from '#domain/bot';
import { lookFileKey } from '#domain/bucket-layout';
import type { ObjectStore } from '#domain/ports';
import { type VoiceOptions, voiceToSpeak } from '#domain/voices';
import { presentAttempts } from './video.ts';

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

/** A built-in bot with a fresh presigned link to its preview image. */
export const presentBot = async (bot: Bot, objects: ObjectStore, voices: VoiceOptions) => ({
  ...toPublicBot(bot, (await objects.presignGet(botPreviewKey(bot), PREVIEW_LINK_SECONDS)).url, voices),
  built_in: true,
  kind: 'built_in' as const,
  status: 'ready' as const,
});

/**
 * A bot of the caller's account: its status and, once it has a look, a link to the look's preview (null while the
 * first preparation runs or after a failure).
 */
export async function presentAccountBot(own: AccountBot, objects: Pick<ObjectStore, 'presignGet'>, voices: VoiceOptions) {
  const look = own.status === 'ready' ? own.look : undefined;
  const preview = look ? (await objects.presignGet(lookFileKey(own.tenantId, own.uid, look.version, look.preview), PREVIEW_LINK_SECONDS)).url : null;
  return {
    ...toPublicBot(toBot(own), preview, voices),
    built_in: false,
    kind: kindOfSource(own.source),
    status: own.status,
    // Made with a test key (its account is a test account): in the bot, its list and its bot.* events.
    test: own.test === true,
    // Who stated, and when, that the person filmed agreed to be cloned (a video bot's).
    ...(own.consent ? { consent: { given: true, given_at: own.consent.givenAt, key_id: own.consent.keyId } } : {}),
    // A ready video bot's footage: how long a clip with `footage: "as_recorded"` may last, whether its loops have the
    // matte that `remove_bot_background` needs, and what its recording lacks (domain/footage-warnings.ts).
    ...(look?.recordingSeconds !== undefined
      ? {
          footage: {
            recording_seconds: look.recordingSeconds,
            background_removable: look.cutout === true,
            // Absent for a look prepared before warnings were (not known, not none): PUT the bot again to have them.
            ...(look.warnings && { warnings: look.warnings }),
          },
        }
      : {}),
    ...(own.error ? { error: own.error } : {}),
    ...(own.webhookUrl ? { webhook: own.webhookUrl } : {}),
    // Its event's delivery, once settled with a webhook: the same form as a video's `webhook`.
    ...(own.delivery
      ? {
          webhook_delivery: {
            event_id: own.delivery.eventId,
            state: own.delivery.state,
            attempts: presentAttempts(own.delivery.attempts),
          },
        }
      : {}),
    version: own.version,
    created_at: own.createdAt,
    updated_at: own.updatedAt,
  };
}
