/** The render engine: one clip drawn and encoded from local files (see ./types.ts for the contract). */
export * from './types.ts';
export { renderClip, clipTiming, clipMouthLevels } from './render-clip.ts';
