/** The media engine: pure rendering on local files (see ./types.ts for the contract). */
export * from './types.ts';
export { renderClip, clipTiming, clipMouthLevels, type ClipTiming } from './render-clip.ts';
export * from './formats.ts';
export { concatClips } from './concat.ts';
export { ffmpegPath } from './binaries.ts';
export { probe, probeDuration, inspectBackground, MediaToolError, MediaBudgetError, MediaRejectedError, type BackgroundMedia } from './media.ts';
export { botsDirectory, loadManifest } from './sprites.ts';
