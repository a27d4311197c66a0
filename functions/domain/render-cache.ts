import { createHash } from 'node:crypto';
import type { Bot } from './bot.ts';
import type { ClipSpec } from './clip.ts';

/**
 * A rendered clip's content address: a hash of everything that affects its pixels and sound (the clip's
 * fields, the bot's look and voice, the output kind) plus the renderer's version. An identical clip is found
 * under this address and never rendered twice. The background is identified by its URL: a background that
 * changes behind the same URL is not noticed (documented in the README).
 */
export function clipContentHash(clip: ClipSpec, bot: Bot, mode: 'video' | 'voice', rendererVersion: string): string {
  const material = {
    rendererVersion,
    mode,
    text: clip.text,
    bot: { look: bot.look, voice: bot.voice },
    ...(mode === 'video'
      ? {
          position: clip.position,
          removeBotBackground: clip.removeBotBackground,
          background: clip.background ?? null,
          backgroundVolume: clip.background ? clip.backgroundVolume : 0,
          transitions: { entry: clip.transitions.entry ?? null, exit: clip.transitions.exit ?? null },
        }
      : {}),
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

export const renderObjectKey = (hash: string, mode: 'video' | 'voice') => `renders/${hash}.${mode === 'video' ? 'mp4' : 'mp3'}`;

/** Object tags read by the bucket's lifecycle rules: temporary renders expire, kept clips stay. */
export const RETENTION_TAG = 'retention';
export const TEMPORARY = { [RETENTION_TAG]: 'temporary' };
export const KEPT = { [RETENTION_TAG]: 'kept' };
