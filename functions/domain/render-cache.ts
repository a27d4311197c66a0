import { createHash } from 'node:crypto';
import type { Bot } from './bot.ts';
import type { ClipSpec } from './clip.ts';
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
): string {
  const material = {
    tenantId,
    rendererVersion,
    mode,
    text: clip.text,
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

const extension = (mode: 'video' | 'voice') => (mode === 'video' ? 'mp4' : 'mp3');

/** A render, tagged temporary: it expires TEMPORARY_EXPIRY_DAYS after it was last written. */
export const renderObjectKey = (hash: string, mode: 'video' | 'voice') => `renders/${hash}.${extension(mode)}`;
/**
 * A kept clip (reusable_clip: true), tagged kept: it never expires. Kept clips have their own prefix so that no
 * write of a temporary render can ever retag one (the tags of an object are those of its last PUT).
 */
export const keptObjectKey = (hash: string, mode: 'video' | 'voice') => `kept/${hash}.${extension(mode)}`;

/** A rendered clip's cues (captions), beside it: `renders/<hash>.cues.json`, `kept/<hash>.cues.json`. */
export const cuesObjectKey = (clipObjectKey: string) => clipObjectKey.replace(/\.(mp4|mp3)$/, '.cues.json');

/** A rendered video clip's poster (JPEG), beside it: `renders/<hash>.poster.jpg`; the first clip's is its video's. */
export function posterObjectKey(clipObjectKey: string): string {
  if (!clipObjectKey.endsWith('.mp4')) throw new Error(`only a video clip has a poster, not ${clipObjectKey}`);
  return clipObjectKey.replace(/\.mp4$/, '.poster.jpg');
}

/** Object tags read by the bucket's lifecycle rules: temporary renders expire, kept clips stay. */
const RETENTION_TAG = 'retention';
export const TEMPORARY = { [RETENTION_TAG]: 'temporary' };
export const KEPT = { [RETENTION_TAG]: 'kept' };

/** The retention of what lies beside a rendered clip (its cues, its poster): the clip's own. */
export const retentionBeside = (clipObjectKey: string) => (clipObjectKey.startsWith('kept/') ? KEPT : TEMPORARY);

/** Days after which the bucket's lifecycle rule (infra/stack.ts) deletes objects tagged TEMPORARY. */
export const TEMPORARY_EXPIRY_DAYS = 7;
/**
 * A temporary render older than this is not reused: it could expire before the video using it is assembled
 * (S3 expires objects at the first midnight UTC after the age is reached, and reading one does not reset its
 * age). Rendering it again rewrites the object, which starts its age afresh. One day of margin is far more
 * than a video's deadline.
 */
export const REUSABLE_RENDER_MAX_AGE_MS = (TEMPORARY_EXPIRY_DAYS - 1) * 24 * 3600 * 1000;

/** Whether a temporary render last written at `lastModified` may still be reused at `now`. */
export const isReusableRender = (lastModified: Date, now: Date) => now.getTime() - lastModified.getTime() < REUSABLE_RENDER_MAX_AGE_MS;
