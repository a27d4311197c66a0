/**
 * Image layers: still pictures drawn over a clip (the video's logo, an overlay's image) at a position inside
 * the safe margins, at a share of the frame's width, with an opacity, for the whole clip or a window of it.
 * Each picture is decoded, scaled and made translucent once, and its one frame is blended over every frame of
 * the clip (over those of its window only): a layer costs an alpha blend of its own rectangle per frame.
 */
import type { BotPosition } from '#domain/choices';
import type { FrameSize } from '#domain/shape';
import { type ImageMedia, imageInputArgs } from '#media/image-media';
import { safeMarginOf } from './layout.ts';
import { FPS } from './types.ts';

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

/** How long a layer with a window fades in at its start and out at its end. */
const IMAGE_LAYER_FADE_SECONDS = 0.3;
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
 * Where a picture of `image`'s size is drawn: `size` of the frame's width wide (never more than MAX_IMAGE_UPSCALE
 * times its own size, never taller or wider than the frame inside its margins), at `position` a safe margin in
 * from the frame's edges, as the bot is (text overlays keep clear of it).
 */
export function imageBoxOf(frame: FrameSize, image: { width: number; height: number }, position: BotPosition, size: number): ImageBox {
  const margin = safeMarginOf(frame);
  const scale = Math.min((size * frame.width) / image.width, (frame.height - 2 * margin) / image.height, MAX_IMAGE_UPSCALE);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const [vertical, horizontal] = position === 'center' ? ['center', 'center'] : (position.split('-') as [string, string]);
  const x = horizontal === 'left' ? margin : horizontal === 'right' ? frame.width - width - margin : Math.round((frame.width - width) / 2);
  const y = vertical === 'top' ? margin : vertical === 'bottom' ? frame.height - height - margin : Math.round((frame.height - height) / 2);
  return { x, y, width, height };
}

const f = (n: number) => Number(n.toFixed(4)).toString();

/** The pinned input options and the file of a layer's picture (one `-i`). */
export const imageLayerInputArgs = (image: ImageMedia): string[] => [...imageInputArgs(image), '-i', image.path];

/**
 * The filters that draw one layer, whose picture is input `input`: `source` makes its stream (labelled `label`),
 * `overlay` blends it over the picture (the caller gives the main and `label` inputs).
 */
export function imageLayerFilters(
  layer: Omit<ImageLayer, 'image'> & { image: ImageMedia },
  frame: FrameSize,
  input: number,
  label: string,
): { source: string; overlay: string } {
  const box = imageBoxOf(frame, layer.image, layer.position, layer.size);
  const windowed = layer.start !== undefined || layer.end !== undefined;
  const steps = [
    // One picture (a file of several PNGs is read for its first), its alpha premultiplied while it is scaled so
    // that transparent pixels' colours do not bleed into its edges, then made as translucent as asked.
    'trim=end_frame=1',
    'format=gbrap',
    'premultiply=inplace=1',
    `scale=${box.width}:${box.height}:flags=lanczos`,
    'unpremultiply=inplace=1',
    'format=rgba',
    ...(layer.opacity < 1 ? [`colorchannelmixer=aa=${f(layer.opacity)}`] : []),
    // Converted to what the blend takes once, here, and not per frame.
    'format=yuva420p',
  ];
  // A layer for the whole clip is that one frame: the blend keeps drawing it after its input ends (overlay's
  // eof_action=repeat), at no cost per frame. Repeating it with `loop` instead cost ~10 % more CPU per clip.
  let enable = '';
  if (windowed) {
    // A window fades the picture's alpha in and out over time, so the frame is repeated for the fade to act on.
    steps.push('loop=loop=-1:size=1:start=0', `settb=1/${FPS}`, `setpts=N/${FPS}/TB`);
    const start = layer.start ?? 0;
    const end = layer.end ?? Number.POSITIVE_INFINITY;
    const fade = Math.min(IMAGE_LAYER_FADE_SECONDS, (end - start) / 2);
    // It fades in at a start inside the clip and out at an end inside it (not at the clip's own first frame).
    if (start > 0) steps.push(`fade=t=in:st=${f(start)}:d=${f(fade)}:alpha=1`);
    if (Number.isFinite(end)) steps.push(`fade=t=out:st=${f(end - fade)}:d=${f(fade)}:alpha=1`);
    // Outside its window the layer is not blended at all.
    enable = `:enable='between(t,${f(start)},${Number.isFinite(end) ? f(end) : '1e9'})'`;
  }
  return {
    source: `[${input}:v]${steps.join(',')}[${label}]`,
    overlay: `overlay=x=${box.x}:y=${box.y}:eval=init:eof_action=repeat:format=yuv420${enable}`,
  };
}
