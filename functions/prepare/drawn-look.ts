/**
 * A bot's look from drawn images: the caller's PNGs (with alpha) are the sprites; no detection needed.
 * mouth_closed is the body; the head frames carry only what differs from it (the mouth, and the eyes when
 * eyes_closed is given); the in-between mouth levels are the wider drawing squashed towards the upper lip. Each mouth
 * shape drawn (mouth_round, mouth_wide, mouth_fv) adds its frames: the drawing is the shape's most open frame, and
 * its narrower frame (r1, w1) is the drawing squashed the same way.
 */
import sharp from 'sharp';
import { DRAWN_SHAPE_PARTS } from '#domain/account-bot';
import { limits } from '#domain/limits';
import { type BotManifest, MOUTH_SHAPES, type MouthShape, SHAPE_FRAMES } from '#domain/look';
import { type Box, EMPTY_BOX } from '#media/raster/box';
import { CANVAS, CARD, cardAlpha } from '#media/raster/card';
import { boxBlur, dilate, fieldBounds } from '#media/raster/field';
import type { Picture } from '#media/raster/picture';
import { checkHeader } from './image-input.ts';
import { png } from './layers.ts';
import { LookError, type PreparedLook } from './look.ts';

export interface DrawnImages {
  mouthClosed: Buffer;
  mouthOpen: Buffer;
  mouthHalf?: Buffer;
  eyesClosed?: Buffer;
  /** The drawing of each mouth shape given (DRAWN_SHAPE_PARTS): the shape at its most open. */
  shapes?: Partial<Record<MouthShape, Buffer>>;
}

const MOUTH_LEVELS = 5;
const { minDrawnImageSide: MIN_SIDE, maxDrawnImageSide: MAX_SIDE } = limits;
/** A channel difference above this (of 255) counts as a change between two drawings. */
const CHANGED = 10;
/** How open a shape's narrower frame (r1, w1) is, of its drawing: about the mouth's first level (m1). */
const SHAPE_NARROW = 0.5;

/** Checks one drawing (PNG, alpha, sane size) and places it on the look's canvas, bottom-centred in the card. */
async function place(
  image: Buffer,
  name: string,
  expected?: { width: number; height: number },
): Promise<{ picture: Picture; width: number; height: number }> {
  const { width, height } = checkHeader(image, name, ['png']);
  if (width < MIN_SIDE || height < MIN_SIDE || width > MAX_SIDE || height > MAX_SIDE) {
    throw new LookError('image_invalid', `${name} is ${width}x${height} px; a drawing is ${MIN_SIDE} to ${MAX_SIDE} px a side`);
  }
  if (expected && (expected.width !== width || expected.height !== height)) {
    throw new LookError(
      'image_invalid',
      `${name} is ${width}x${height} px; it must be the size of mouth_closed (${expected.width}x${expected.height})`,
    );
  }
  const fit = Math.min(CARD.width / width, CARD.height / height);
  const w = Math.max(1, Math.round(width * fit)),
    h = Math.max(1, Math.round(height * fit));
  const left = Math.round(CARD.x + (CARD.width - w) / 2),
    top = CARD.y + CARD.height - h;
  try {
    const metadata = await sharp(image, { failOn: 'truncated' }).metadata();
    if (!metadata.hasAlpha) throw new LookError('image_invalid', `${name} has no alpha channel: a drawing needs a transparent background`);
    const data = await sharp(image, { failOn: 'truncated' })
      .timeout({ seconds: limits.botImageDecodeSeconds })
      .ensureAlpha()
      .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
      .extend({ left, top, right: CANVAS.width - left - w, bottom: CANVAS.height - top - h, background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .raw()
      .toBuffer();
    return { picture: { ...CANVAS, data }, width, height };
  } catch (error) {
    if (error instanceof LookError) throw error;
    throw new LookError('image_invalid', `${name} cannot be decoded: it is damaged or not a complete PNG`, (error as Error).message.split('\n')[0]);
  }
}

/** 0/1 per pixel: where two canvases differ. */
function difference(a: Picture, b: Picture): Uint8Array {
  const out = new Uint8Array(a.width * a.height);
  for (let i = 0; i < out.length; i++) {
    const o = i * 4;
    const aa = a.data[o + 3]!,
      ba = b.data[o + 3]!;
    if (aa < 8 && ba < 8) continue;
    if (Math.abs(aa - ba) > CHANGED || [0, 1, 2].some((n) => Math.abs(a.data[o + n]! - b.data[o + n]!) > CHANGED)) out[i] = 1;
  }
  return out;
}

/**
 * An in-between mouth: the opened drawing's changed region squashed vertically towards its top edge (the upper
 * lip stays, the lower lip and jaw come up) by `open` (0..1), over the base drawing.
 */
function squash(base: Picture, opened: Picture, weight: Float32Array, region: Box, open: number): Picture {
  const data = Buffer.from(base.data);
  const { width } = base;
  const { height } = region;
  const top = region.y,
    bottom = region.y + region.height;
  for (let y = top; y < bottom; y++) {
    const sy = top + (y + 0.5 - top) / Math.max(open, 1e-3) - 0.5;
    if (sy > bottom - 1) continue;
    const y0 = Math.max(top, Math.floor(sy)),
      y1 = Math.min(top + height - 1, y0 + 1),
      fy = Math.max(0, sy - y0);
    for (let x = region.x; x < region.x + region.width; x++) {
      const w = weight[y0 * width + x]! * (1 - fy) + weight[y1 * width + x]! * fy;
      if (w <= 0) continue;
      const o = (y * width + x) * 4,
        a = (y0 * width + x) * 4,
        b = (y1 * width + x) * 4;
      const aa = opened.data[a + 3]! * (1 - fy),
        ba = opened.data[b + 3]! * fy;
      const alpha = aa + ba;
      const baseAlpha = data[o + 3]! * (1 - w),
        topAlpha = alpha * w;
      const outAlpha = baseAlpha + topAlpha;
      if (outAlpha <= 0) continue;
      for (let n = 0; n < 3; n++) {
        const top = alpha > 0 ? (opened.data[a + n]! * aa + opened.data[b + n]! * ba) / alpha : 0;
        data[o + n] = Math.round((data[o + n]! * baseAlpha + top * topAlpha) / outAlpha);
      }
      data[o + 3] = Math.round(outAlpha);
    }
  }
  return { width, height: base.height, data };
}

/** A card for drawn bots: a soft light-to-mist gradient on the card's rounded shape. */
function drawnPanel(): Picture {
  const { width, height } = CANVAS;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const t = y / (height - 1);
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      data[o] = Math.round(236 - 34 * t);
      data[o + 1] = Math.round(241 - 30 * t);
      data[o + 2] = Math.round(247 - 22 * t);
      data[o + 3] = Math.round(cardAlpha(x, y) * 255);
    }
  }
  return { width, height, data };
}

/** How much of a squashed drawing shows at each pixel (where it changes the mouth, feathered) and the box of it. */
function squashWeight(change: Uint8Array): { weight: Float32Array; region: Box } {
  const { width, height } = CANVAS;
  const weight = boxBlur(dilate(change, width, height, 3), width, height, 2);
  return { weight, region: fieldBounds(weight, width) ?? EMPTY_BOX };
}

/** The mouth's levels, closed to open (through mouth_half when given): the in-betweens squashed from the next wider drawing. */
function mouthLevelPictures(closed: Picture, open: Picture, half: Picture | undefined, mouthChange: Uint8Array, halfChange: Uint8Array): Picture[] {
  const { weight: mouthWeight, region } = squashWeight(mouthChange.map((v, i) => v | halfChange[i]!));
  return half
    ? [closed, squash(closed, half, mouthWeight, region, 0.55), half, squash(closed, open, mouthWeight, region, 0.8), open]
    : [0, 0.45, 0.65, 0.85, 1].map((t) => (t === 0 ? closed : t === 1 ? open : squash(closed, open, mouthWeight, region, t)));
}

/**
 * A shape's frames (SHAPE_FRAMES), least to most open: the drawing is the last; r1 and w1 are it squashed towards
 * the upper lip as the levels are; fv is the drawing alone.
 */
function shapePictures(closed: Picture, drawing: Picture, change: Uint8Array, frames: readonly string[]): Picture[] {
  if (frames.length === 1) return [drawing];
  const { weight, region } = squashWeight(change);
  return [squash(closed, drawing, weight, region, SHAPE_NARROW), drawing];
}

/** The head box: every changed pixel, with room for the feathering. */
function headBox(reach: Float32Array): { x: number; y: number; width: number; height: number } {
  const { width, height } = CANVAS;
  let x0 = width,
    y0 = height,
    x1 = 0,
    y1 = 0;
  reach.forEach((v, i) => {
    if (v <= 0) return;
    const x = i % width,
      y = (i - x) / width;
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x + 1);
    y1 = Math.max(y1, y + 1);
  });
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The middle of the pixels the mouth changes: where the bot's mouth is. */
function mouthCentre(mouthChange: Uint8Array): { x: number; y: number } {
  const { width } = CANVAS;
  let mx = 0,
    my = 0,
    count = 0;
  mouthChange.forEach((v, i) => {
    if (!v) return;
    mx += i % width;
    my += Math.floor(i / width);
    count++;
  });
  return { x: Math.round(mx / count), y: Math.round(my / count) };
}

/** The look's pictures but the manifest: a head frame per mouth frame and eyes state, the card, the body, the back and the preview. */
async function lookFiles(
  mouths: Map<string, Picture>,
  crop: (picture: Picture, eyesClosed: boolean) => Picture,
  body: Picture,
): Promise<{ files: Map<string, Buffer>; frames: Record<string, string> }> {
  const { width, height } = CANVAS;
  const files = new Map<string, Buffer>();
  const frames: Record<string, string> = {};
  for (const [mouth, picture] of mouths) {
    for (const eyesClosed of [true, false]) {
      const key = `${mouth}-e${eyesClosed ? 'c' : 'o'}`;
      frames[key] = `head-${key}.png`;
      files.set(frames[key], await png(crop(picture, eyesClosed)));
    }
  }
  const panelPng = await png(drawnPanel());
  const bodyPng = await png(body);
  files
    .set('panel.png', panelPng)
    .set('body.png', bodyPng)
    .set('back.png', await png({ width, height, data: Buffer.alloc(width * height * 4) }));
  files.set(
    'preview.png',
    await sharp(panelPng)
      .composite([{ input: bodyPng }])
      .png()
      .toBuffer()
      .then((composed) => sharp(composed).resize(512, 512, { fit: 'cover', position: 'top' }).png().toBuffer()),
  );
  return { files, frames };
}

export async function buildDrawnLook(images: DrawnImages): Promise<PreparedLook> {
  const closed = await place(images.mouthClosed, 'mouth_closed');
  const size = { width: closed.width, height: closed.height };
  const open = await place(images.mouthOpen, 'mouth_open', size);
  const half = images.mouthHalf ? await place(images.mouthHalf, 'mouth_half', size) : undefined;
  const eyes = images.eyesClosed ? await place(images.eyesClosed, 'eyes_closed', size) : undefined;
  const shapes: { shape: MouthShape; picture: Picture; change: Uint8Array }[] = [];
  for (const shape of MOUTH_SHAPES) {
    const drawing = images.shapes?.[shape];
    if (!drawing) continue;
    const part = DRAWN_SHAPE_PARTS[shape];
    const { picture } = await place(drawing, part, size);
    const change = difference(closed.picture, picture);
    if (!change.some(Boolean)) throw new LookError('image_invalid', `${part} is the same picture as mouth_closed`);
    shapes.push({ shape, picture, change });
  }

  const { width, height } = CANVAS;
  const mouthChange = difference(closed.picture, open.picture);
  if (!mouthChange.some(Boolean)) throw new LookError('image_invalid', 'mouth_open is the same picture as mouth_closed');
  const eyesChange = eyes ? difference(closed.picture, eyes.picture) : new Uint8Array(width * height);
  const halfChange = half ? difference(closed.picture, half.picture) : new Uint8Array(width * height);
  const changed = mouthChange.map((v, i) => v | eyesChange[i]! | halfChange[i]!);
  for (const { change } of shapes) for (let i = 0; i < change.length; i++) changed[i]! |= change[i]!;

  const levels = mouthLevelPictures(closed.picture, open.picture, half?.picture, mouthChange, halfChange);
  const mouths = new Map(levels.map((picture, level) => [`m${level}`, picture]));
  for (const { shape, picture, change } of shapes) {
    const frames = SHAPE_FRAMES[shape];
    const pictures = shapePictures(closed.picture, picture, change, frames);
    frames.forEach((frame, n) => {
      mouths.set(frame, pictures[n]!);
    });
  }
  const eyeWeight = eyes ? boxBlur(dilate(eyesChange, width, height, 2), width, height, 1) : undefined;
  const reach = boxBlur(dilate(changed, width, height, 3), width, height, 2);
  const box = headBox(reach);
  const crop = (picture: Picture, eyesClosed: boolean): Picture => {
    const data = Buffer.alloc(box.width * box.height * 4);
    for (let y = 0; y < box.height; y++) {
      for (let x = 0; x < box.width; x++) {
        const i = (y + box.y) * width + x + box.x;
        const o = (y * box.width + x) * 4;
        for (let n = 0; n < 4; n++) {
          const base = picture.data[i * 4 + n]!;
          data[o + n] = eyesClosed && eyeWeight ? Math.round(base + (eyes!.picture.data[i * 4 + n]! - base) * eyeWeight[i]!) : base;
        }
        data[o + 3] = Math.round(data[o + 3]! * reach[i]!);
      }
    }
    return { width: box.width, height: box.height, data };
  };

  const { files, frames } = await lookFiles(mouths, crop, closed.picture);
  const manifest: BotManifest = {
    look: 'drawn',
    width,
    height,
    panel: { file: 'panel.png', ...CARD },
    back: 'back.png',
    body: 'body.png',
    head: { ...box, frames: Object.fromEntries(Object.entries(frames).sort()) },
    mouthLevels: MOUTH_LEVELS,
    ...(shapes.length ? { mouthShapes: shapes.map((s) => s.shape) } : {}),
    mouth: mouthCentre(mouthChange),
    anchor: { x: CARD.x + CARD.width / 2, y: CARD.y + CARD.height },
    preview: 'preview.png',
    rig: 'single-picture',
  };
  files.set('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  return { manifest, files };
}
