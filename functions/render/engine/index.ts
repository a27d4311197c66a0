/** The media engine: pure rendering on local files (see ./types.ts for the contract). */
export * from './types.ts';
export { renderClip, clipTiming, clipMouthLevels, type ClipTiming } from './render-clip.ts';
export * from './formats.ts';
export { concatClips } from './concat.ts';
export { ffmpegPath, ffprobePath } from './binaries.ts';
export { probe, probeDuration, MediaToolError } from './process.ts';
export { botsDirectory, loadManifest } from './sprites.ts';
