import { createHash } from 'node:crypto';
import type { Bot } from './bot.ts';
import { TEMPORARY_EXPIRY_DAYS } from './bucket-layout.ts';
import type { ClipSpec } from './clip.ts';
import type { LexiconEntry } from './lexicon.ts';
import { frameSizeOf, type Shape } from './shape.ts';
import type { SpeechVoice } from './voices.ts';

/**
 * A rendered clip's content address: a hash of the tenant, everything that affects its pixels and sound (the
 * clip's fields, the bot's look, the voice it is spoken with and how, the output kind) and the renderer's version. An identical clip of
 * the same tenant is found under this address and never rendered twice. A video's clip is hashed with its
 * frame size (the video's shape): the same clip in another shape is other pictures. The tenant is part of it so that the
 * cache is per tenant: a hit (`cached`, no render time) must not tell one tenant what another has rendered.
 * A bot of an account names its look by its prefix in the bucket, `looks/<tenant>/<uid>/<version>` (see
 * account-bot.ts toBot): the version changes on every replace, so a replaced bot's clips are rendered anew.
 * The account's lexicon entries that the text uses are part of it: a clip is said anew when one of them changes.
 * The background is identified by its URL: a background that changes behind the same URL is not noticed
 * (documented in docs/api.md).
 */
export function clipContentHash(
  tenantId: string,
  clip: ClipSpec,
  bot: Bot,
  voice: SpeechVoice,
  mode: 'video' | 'voice',
  rendererVersion: string,
  shape: Shape,
  /** The account's lexicon entries the clip's text uses (lexicon.ts pronunciationsFor): they change what it says. */
  pronunciations: readonly LexiconEntry[] = [],
): string {
  const material = {
    tenantId,
    rendererVersion,
    mode,
    // The raw text, markup included: a break or an emphasis changes the sound.
    text: clip.text,
    ...(pronunciations.length && { pronunciations: pronunciations.map((p) => [p.word, p.say]) }),
    // The voice actually spoken (voiceToSpeak), not the bot's choices: the clip's own voice, or the bot's Polly or
    // espeak-ng voice as the deployment decides, so a clip is rendered again when any of them changes.
    bot: { look: bot.look, voice },
    ...(mode === 'video'
      ? {
          frame: frameSizeOf(shape),
          position: clip.position,
          removeBotBackground: clip.removeBotBackground,
          background: clip.background ?? null,
          backgroundVolume: clip.background ? clip.backgroundVolume : 0,
          transitions: { entry: clip.transitions.entry ?? null, exit: clip.transitions.exit ?? null },
          captions: clip.captions,
        }
      : {}),
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

/**
 * A temporary render older than this is not reused: it could expire before the video using it is assembled
 * (S3 expires objects at the first midnight UTC after the age is reached, and reading one does not reset its
 * age). Rendering it again rewrites the object, which starts its age afresh. One day of margin is far more
 * than a video's deadline.
 * @internal Exported for its tests.
 */
export const REUSABLE_RENDER_MAX_AGE_MS = (TEMPORARY_EXPIRY_DAYS - 1) * 24 * 3600 * 1000;

/** Whether a temporary render last written at `lastModified` may still be reused at `now`. */
export const isReusableRender = (lastModified: Date, now: Date) => now.getTime() - lastModified.getTime() < REUSABLE_RENDER_MAX_AGE_MS;
