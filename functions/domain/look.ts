/**
 * What a bot looks like to the renderer: the manifest of a look (functions/render/bots/<look>/manifest.json for a
 * built-in bot; made by functions/prepare for a bot of an account). The render engine draws it, the preparation
 * writes it: both read this one definition.
 */
export interface BotManifest {
  look: string;
  /** The canvas every full-size layer (panel, back, body) covers, in canvas units; every position below is in them too. */
  width: number;
  height: number;
  /**
   * Layer pixels per canvas unit: a layer is `width * density` px wide (a head frame, its box's width times it).
   * Built-in looks are drawn at 2 so that a `full` presenter is sharp at 1080p. @default 1
   */
  density?: number;
  panel: { file: string; x: number; y: number; width: number; height: number; radius: number };
  back: string;
  body: string;
  /** Head frames are cropped to this box of the canvas; keys are `m<level>-e<o|c>`. */
  head: { x: number; y: number; width: number; height: number; frames: Record<string, string> };
  mouthLevels: number;
  /** Centre of the closed mouth on the canvas. */
  mouth: { x: number; y: number };
  /** Bottom centre of the panel: where the figure stands. */
  anchor: { x: number; y: number };
  preview: string;
  /**
   * Whether the head sways on its own over the body (drawn looks: separate layers). A look cut from one picture
   * (a photo, a caller's drawing) sets false: head and body move as one, so no seam opens at the neck. @default true
   */
  headMotion?: boolean;
}
