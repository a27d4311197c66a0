/**
 * Where the engine finds its own files when they are not beside its module: the built-in looks' art and the
 * caption font. The engine reads no environment: the render handler passes what its config read at cold start.
 */
export interface EngineAssets {
  /** The built-in looks' folder (`<look>/manifest.json` and its layers). @default beside the bundle, else functions/render/bots */
  botsDirectory?: string;
  /** The Inter font file of captions and text. @default beside the bundle, else the npm package's */
  captionFontPath?: string;
}

let assets: Readonly<EngineAssets> = {};

/** Set once, at cold start, before the first render. */
export function configureEngineAssets(given: EngineAssets): void {
  assets = { ...given };
}

export const engineAssets = (): Readonly<EngineAssets> => assets;
