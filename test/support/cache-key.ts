/** A clip's render-cache key as the render job makes it: the clip's render spec, hashed with its tenant and a renderer version. */
import { type Bot, BUILT_IN_BOTS } from '#domain/bot';
import type { ClipSpec } from '#domain/clip';
import type { LexiconEntry } from '#domain/lexicon';
import { renderCacheKey } from '#domain/render-cache';
import { renderSpecOf } from '#domain/render-spec';
import { DEFAULT_SHAPE, type Shape } from '#domain/shape';
import { type SpeechVoice, voiceToSpeak } from '#domain/voices';

export const AVA = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;

export interface KeyFacts {
  tenantId?: string;
  /** @default Ava */
  bot?: Bot;
  /** @default the bot's espeak-ng voice */
  voice?: SpeechVoice;
  mode?: 'video' | 'voice';
  shape?: Shape;
  pronunciations?: readonly LexiconEntry[];
  rendererVersion?: string;
}

export function cacheKeyOf(clip: ClipSpec, facts: KeyFacts = {}): string {
  const { tenantId = 'acct_1', bot = AVA, mode = 'video', shape = DEFAULT_SHAPE, pronunciations = [], rendererVersion = '3' } = facts;
  const voice = facts.voice ?? voiceToSpeak(bot.voice, undefined, { polly: false });
  return renderCacheKey(tenantId, rendererVersion, renderSpecOf(clip, { bot, voice, mode, shape, pronunciations }));
}
