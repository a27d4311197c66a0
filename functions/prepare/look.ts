/**
 * What bot preparation produces: a look, the same kind of sprite set the built-in bots have
 * (functions/render/bots/<look>/: manifest.json and its PNG layers), as files to store.
 */
import type { BotManifest } from '../render/engine/sprites.ts';

export interface PreparedLook {
  manifest: BotManifest;
  /** File name (as the manifest names it, and `manifest.json`) → bytes. */
  files: Map<string, Buffer>;
}

/** Why an image cannot become a bot: the code is public (`bot.failed`, the bot's `error.code`). */
export type LookErrorCode = 'image_invalid' | 'image_too_large' | 'no_face_found' | 'face_too_small';

export class LookError extends Error {
  constructor(
    readonly code: LookErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'LookError';
  }
}
