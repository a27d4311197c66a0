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
  /**
   * Head frames are cropped to this box of the canvas; keys are `<mouth>-e<o|c>` (eyes open or closed), `<mouth>`
   * one of the look's mouth frames (mouthFramesOf): `m<level>` for every level, and the frames of its mouthShapes.
   */
  head: { x: number; y: number; width: number; height: number; frames: Record<string, string> };
  mouthLevels: number;
  /**
   * The shapes the look's mouth forms besides opening and closing (visemes), each with its head frames
   * (SHAPE_FRAMES). A look without one shows its nearest open level instead. @default []
   */
  mouthShapes?: MouthShape[];
  /** Centre of the closed mouth on the canvas. */
  mouth: { x: number; y: number };
  /** Bottom centre of the panel: where the figure stands. */
  anchor: { x: number; y: number };
  preview: string;
  /**
   * How the presenter is drawn (render/engine/rigs): 'layered', the built-in art, whose head is a layer of its own
   * swaying over the body; 'single-picture', a look cut from one picture (a photo, a caller's drawing), whose head
   * and body move as one, so no seam opens at the neck. Read with rigOf. @default 'layered'
   */
  rig?: 'layered' | 'single-picture';
  /** What looks stored before `rig` say instead: false for 'single-picture'. Read by rigOf, never written. */
  headMotion?: boolean;
  /**
   * Where the face is on the canvas, for the head's motion (engine/head-motion.ts): the point at the neck the head
   * rolls about, and the centres of the eyes and of the brows (left, right). A look without it (older looks, drawn
   * ones) gets one estimated from its head box and mouth.
   */
  face?: FaceGeometry;
  /**
   * A video bot's look (docs/video-bots.md): drawn from its recording's frames with the mouth redone, not from the
   * layers above (which then describe the footage's frame: canvas, card and head box for the layout).
   */
  footage?: FootageManifest;
}

/** A video bot's footage, its face in every frame, and its mouth atlas (BotManifest.footage). */
export interface FootageManifest {
  /** The footage's frame, px (the canvas: BotManifest.width and height are the same). */
  width: number;
  height: number;
  fps: number;
  /** The whole recording at that size, silent H.264; its frame count. */
  file: string;
  frames: number;
  /**
   * The base loop: frames [from, to) of `file`, cut to `loop.file`, where frame `to` looks like frame `from`. Its last
   * `blend` frames are crossfaded into frames `from - blend`..`from - 1` (the ones that lead into `from`), so the wrap
   * is a step of the footage's own; absent: none.
   */
  loop: FootageLoop;
  /**
   * The listening loop, cut the same way inside the longest stretch where the person listens: shown while the bot is
   * silent (a `<break>`, a clip's lead-in and end), crossfaded with the base loop at each switch. Absent: the
   * recording has no listening stretch long enough, and the base loop plays throughout.
   */
  listen?: FootageLoop;
  /** Each frame's 68 landmarks (smoothed), px of the footage: a JSON array of frames of [x, y, x, y, …]. */
  track: string;
  /** The reference face (68 points) the atlas is cut in, and its eye distance, px. */
  reference: Array<{ x: number; y: number }>;
  eyePx: number;
  /** The sheet of mouth samples (RGB PNG), each lowerFaceSize(eyePx) at (x, y). */
  atlas: string;
  samples: MouthSample[];
  /** Frames where the person listens (mouth still and closed), as [from, to) stretches. */
  listening: Array<[number, number]>;
  /**
   * Frames where no face was seen facing the camera, as [from, to) stretches: their landmarks are filled from the
   * nearest face, so the rig shows them untouched rather than lay a mouth where there is none. Absent: none.
   */
  unseen?: Array<[number, number]>;
}

/**
 * The shortest loop, seconds: a shorter one repeats visibly. A recording needs a listening stretch this long for a
 * listening loop (footage-warnings.ts says so when it has none).
 */
export const MIN_LOOP_SECONDS = 3;

/** A loop of the footage: frames [from, to) of its file, cut to `file`, the wrap crossfaded over `blend` frames. */
export interface FootageLoop {
  file: string;
  from: number;
  to: number;
  blend?: number;
  /**
   * The person's matte on every frame of `file` (grey H.264, the same frames; white is the person): what
   * `remove_bot_background` shows them by (functions/prepare/footage/footage-matte.ts). Absent: the look has none.
   */
  matte?: string;
  /**
   * The frames of `file` with the person's own colours across the matte's edge (functions/prepare/footage/
   * edge-colours.ts): what `remove_bot_background` shows in place of `file`. Absent (a look made before it): `file`.
   */
  cutout?: string;
}

/** Whether every loop the footage shows has its matte: what `remove_bot_background` needs of a video bot's look. */
export const footageMatted = (footage: Pick<FootageManifest, 'loop' | 'listen'>): boolean =>
  footage.loop.matte !== undefined && (footage.listen === undefined || footage.listen.matte !== undefined);

/**
 * The recording's frames shown at frame `n` of a loop (counted from its start, over and over): `source`, and in the
 * crossfade at its end, `mixed` shown `amount` of the way (FootageManifest.loop). The rig and the matte read the same.
 */
export function loopFrameSources(loop: FootageLoop, n: number): { source: number; mixed?: number; amount: number } {
  const { from, to, blend = 0 } = loop;
  const source = from + (n % (to - from));
  const k = source - (to - blend);
  if (k < 0) return { source, amount: 0 };
  return { source, mixed: from - blend + k, amount: (k + 1) / (blend + 1) };
}

/** One lower face of the atlas, in face space (functions/domain/face-space.ts). */
export interface MouthSample {
  /** The lip sync's mouth frame it shows: `m0`..`m4`, `r1`, `r2`, `w1`, `w2`, `fv`. */
  frame: string;
  /** Its place on the sheet, px. */
  x: number;
  y: number;
  /** The recording's frame it was cut from, its head roll (radians) and its mouth's measures (eye distances). */
  sourceFrame: number;
  roll: number;
  opening: number;
  width: number;
  /** Its jaw line (landmarks 2-14) and the nose's base (33), px of the sample. */
  jaw: Array<{ x: number; y: number }>;
  nose: { x: number; y: number };
}

/** A face's landmarks for the head's motion, in canvas units (BotManifest.face). */
export interface FaceGeometry {
  pivot: { x: number; y: number };
  eyes: [{ x: number; y: number }, { x: number; y: number }];
  brows: [{ x: number; y: number }, { x: number; y: number }];
}

/**
 * Mouth shapes besides the open/closed levels: `round` (rounded, narrow lips: o, u, w, "who"), `wide` (spread lips:
 * ee, i, "see"), `fv` (lower lip to the upper teeth). Closed (m, b, p) is level 0; open (a) and mid (e, the rest)
 * are the levels.
 */
export const MOUTH_SHAPES = ['round', 'wide', 'fv'] as const;
export type MouthShape = (typeof MOUTH_SHAPES)[number];

/**
 * The mouth frames of each shape, from least to most open: `r1` rounded and nearly closed ("oo"), `r2` rounded
 * and open ("o", "aw"); `w1` spread with the teeth showing ("ee"), `w2` spread and open ("eh", "a" of "cat");
 * `fv` the lower lip tucked under the upper teeth.
 */
export const SHAPE_FRAMES: Record<MouthShape, readonly string[]> = { round: ['r1', 'r2'], wide: ['w1', 'w2'], fv: ['fv'] };

/** Every mouth frame a look has: `m0`..`m<levels-1>`, then its shapes' frames. */
export const mouthFramesOf = (manifest: Pick<BotManifest, 'mouthLevels' | 'mouthShapes'>): string[] => [
  ...Array.from({ length: manifest.mouthLevels }, (_, level) => `m${level}`),
  ...(manifest.mouthShapes ?? []).flatMap((shape) => SHAPE_FRAMES[shape]),
];

/** The rig a look's presenter is drawn with (BotManifest.rig), for looks stored before it too. */
export const rigOf = (manifest: Pick<BotManifest, 'rig' | 'headMotion'>): NonNullable<BotManifest['rig']> =>
  manifest.rig ?? (manifest.headMotion === false ? 'single-picture' : 'layered');

/** Why an image cannot become a bot: the code is public (`bot.failed`, the bot's `error.code`). */
export type LookErrorCode =
  | 'image_invalid'
  | 'image_too_large'
  | 'no_face_found'
  | 'face_too_small'
  | 'video_invalid'
  | 'video_too_short'
  | 'video_too_long'
  | 'video_too_large'
  | 'several_faces'
  | 'face_turned_away'
  | 'face_lost'
  | 'mouth_never_closed';
