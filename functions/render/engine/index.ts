/** The render engine: one clip drawn and encoded from local files (see ./types.ts for the contract). */

export { configureEngineAssets } from './assets.ts';
export { renderClip } from './render-clip.ts';
export * from './types.ts';
