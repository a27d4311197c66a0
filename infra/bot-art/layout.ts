/** Where a built-in bot's parts sit on its canvas (canvas px; the canvas and card: #media/raster/card): shared by the drawing (./draw.ts, ./mouths.ts) and the build. */
/** The part of the canvas the head layer covers (head frames are cropped to it). */
export const HEAD_BOX = { x: 100, y: 50, width: 320, height: 360 } as const;
export const MOUTH_LEVELS = 5;
export const CX = 260;
export const EYE_Y = 246;
export const EYE_DX = 34;
/** How far above the eye's centre the middle of its brow is (the brow's curve, ./draw.ts eye). */
export const BROW_RISE = 27;
