/**
 * Image layers: still pictures drawn over a clip (the video's logo, an overlay's image) at a position inside
 * the safe margins, at a share of the frame's width, with an opacity, for the whole clip or a window of it
 * (drawn by layers/image.ts).
 */
import type { BotPosition } from '#domain/choices';
import type { FrameSize } from '#domain/shape';
import type { ImageMedia } from '#media/image-media';
import { safeMarginOf } from './layout.ts';

export interface ImageLayer {
  /** The downloaded (guarded) and inspected image (see fetchImage), or its download still under way. */
  image: ImageMedia | Promise<ImageMedia>;
  position: BotPosition;
  /** Its width as a share of the frame's width (its height keeps the picture's proportions). */
  size: number;
  /** 0 (invisible) to 1 (the picture as it is). */
  opacity: number;
  /** Seconds into the clip: drawn from `start` to `end` only, fading in and out. Absent: from the first frame, to the last. */
  start?: number;
  end?: number;
}

/** A logo's `size` (a share of the frame's longer side) as a layer's share of the frame's width: as big in every shape. */
export const logoLayerSize = (size: number, frame: FrameSize): number => (size * Math.max(frame.width, frame.height)) / frame.width;

/**
 * The most a picture is enlarged: beyond twice its own size it looks blurred, so a picture smaller than half its
 * asked width is drawn at twice its own size, smaller than asked.
 */
const MAX_IMAGE_UPSCALE = 2;

/** A layer's rectangle in the frame, px. */
export interface ImageBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The largest box a layer `size` of the frame's width is drawn in: that width, and the frame's height inside its
 * margins. A larger picture is scaled down to it once, when it is fetched (functions/media/image-media.ts).
 */
export function imageFitOf(frame: FrameSize, size: number): { width: number; height: number } {
  return { width: size * frame.width, height: frame.height - 2 * safeMarginOf(frame) };
}

/**
 * Where a picture of `image`'s size is drawn: `size` of the frame's width wide (never more than MAX_IMAGE_UPSCALE
 * times its own size, never taller or wider than the frame inside its margins), at `position` a safe margin in
 * from the frame's edges, as the bot is (text overlays keep clear of it).
 */
export function imageBoxOf(frame: FrameSize, image: { width: number; height: number }, position: BotPosition, size: number): ImageBox {
  const margin = safeMarginOf(frame);
  const fit = imageFitOf(frame, size);
  const scale = Math.min(fit.width / image.width, fit.height / image.height, MAX_IMAGE_UPSCALE);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const [vertical, horizontal] = position === 'center' ? ['center', 'center'] : (position.split('-') as [string, string]);
  const x = horizontal === 'left' ? margin : horizontal === 'right' ? frame.width - width - margin : Math.round((frame.width - width) / 2);
  const y = vertical === 'top' ? margin : vertical === 'bottom' ? frame.height - height - margin : Math.round((frame.height - height) / 2);
  return { x, y, width, height };
}
