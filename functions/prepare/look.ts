/**
 * What bot preparation produces: a look, the same kind of sprite set the built-in bots have
 * (functions/render/bots/<look>/: manifest.json and its PNG layers), as files to store.
 */
import type { BotManifest, LookErrorCode } from '#domain/look';

export interface PreparedLook {
  manifest: BotManifest;
  /** File name (as the manifest names it, and `manifest.json`) → bytes. */
  files: Map<string, Buffer>;
}

/**
 * The builder's verdict on a caller's image. `message` is public, in our words; `detail` (a library's own text,
 * e.g. libvips') is for the log only and never shown to the caller.
 */
export class LookError extends Error {
  constructor(
    readonly code: LookErrorCode,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'LookError';
  }
}
