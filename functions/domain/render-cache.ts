import { createHash } from 'node:crypto';
import type { Bot } from './bot.ts';
import { TEMPORARY_EXPIRY_DAYS } from './bucket-layout.ts';
import type { ClipSpec } from './clip.ts';
import type { LexiconEntry } from './lexicon.ts';
import { DEFAULT_THEME } from './overlays.ts';
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
 * The background and the logo are identified by their URLs: an image that changes behind the same URL is not
 * noticed (documented in docs/api.md).
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
  /** The SHA-256 of the clip's recording (audio_url, audio_upload) as fetched: another recording is another clip. */
  recordingSha256?: string,
): string {
  const material = {
    tenantId,
    rendererVersion,
    mode,
    // The raw text, markup included: a break or an emphasis changes the sound.
    text: clip.text,
    // Absent for a synthesised clip, so that its address is unchanged.
    ...(recordingSha256 && { recording: recordingSha256 }),
    ...(pronunciations.length && { pronunciations: pronunciations.map((p) => [p.word, p.say]) }),
    // The voice actually spoken (voiceToSpeak), not the bot's choices: the clip's own voice, or the bot's Polly or
    // espeak-ng voice as the deployment decides, so a clip is rendered again when any of them changes.
    bot: { look: bot.look, voice },
    ...(mode === 'video'
      ? {
          frame: frameSizeOf(shape),
          position: clip.position,
          botSize: clip.botSize ?? 'medium',
          removeBotBackground: clip.removeBotBackground,
          background: clip.background ?? null,
          backgroundVolume: clip.background ? clip.backgroundVolume : 0,
          transitions: { entry: clip.transitions.entry ?? null, exit: clip.transitions.exit ?? null },
          captions: clip.captions,
          // Its fields in a fixed order (a stored map's order is not kept); absent when there is none (undefined is
          // left out of the JSON), so the keys of clips without a logo are unchanged.
          logo: clip.logo && { url: clip.logo.url, position: clip.logo.position, size: clip.logo.size, opacity: clip.logo.opacity },
          // Absent when none, so that a clip without them keeps the address it had; their keys sorted, as a stored
          // map comes back in any order.
          ...(clip.overlays?.length && { overlays: withSortedKeys(clip.overlays) }),
          ...(drawnTheme(clip) && { theme: withSortedKeys(clip.theme) }),
        }
      : {}),
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

/**
 * Whether the clip's theme changes its pixels: only text is drawn in it (burned captions, text overlays), and the
 * default theme draws as no theme does.
 */
const drawnTheme = (clip: ClipSpec): boolean =>
  !!clip.theme &&
  (clip.captions === 'burn' || !!clip.overlays?.some((o) => o.type === 'text')) &&
  (clip.theme.font !== DEFAULT_THEME.font ||
    clip.theme.primaryColor !== DEFAULT_THEME.primaryColor ||
    clip.theme.textColor !== DEFAULT_THEME.textColor);

/** The value with every object's keys in sorted order (arrays keep theirs), so equal data hashes alike. */
function withSortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, withSortedKeys((value as Record<string, unknown>)[key])]),
  );
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
