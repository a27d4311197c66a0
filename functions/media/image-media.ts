/**
 * Images drawn over a clip (the video's logo, an overlay's image): what a caller may send, identified from its
 * header and decoded once before a frame is rendered (see media.ts). A still PNG, JPEG or WebP only: a GIF, an
 * SVG or anything else is refused (docs/security.md).
 */
import { open } from 'node:fs/promises';
import { imageSize } from 'image-size';
import type { PictureBudget } from '#domain/picture-budget';
import { checkPictureSize } from './background-media.ts';
import { MediaRejectedError, pinnedInput, runFfmpeg } from './media.ts';

export interface ImageFormat {
  /** The ffmpeg demuxer, named with -f (and alone in -format_whitelist) on every run. */
  demuxer: 'png_pipe' | 'jpeg_pipe' | 'webp_pipe';
  label: string;
}

/** The accepted images, by the type image-size reads from the header. */
const IMAGE_FORMATS: Record<string, ImageFormat> = {
  png: { demuxer: 'png_pipe', label: 'PNG' },
  jpg: { demuxer: 'jpeg_pipe', label: 'JPEG' },
  webp: { demuxer: 'webp_pipe', label: 'WebP' },
};
const ACCEPTED = 'PNG, JPEG or WebP';

/** An image that passed inspection: how to read it, and its size as its header declares it. */
export interface ImageMedia {
  path: string;
  format: ImageFormat;
  width: number;
  height: number;
}

/** The pinned input options of an image for the render (before its `-i`). */
export const imageInputArgs = (media: ImageMedia): string[] => [...pinnedInput(media.format.demuxer)];

/** The header's type and size (image-size reads only the header), or undefined when it is no image it knows. */
async function readHeader(path: string): Promise<{ type?: string; width: number; height: number } | undefined> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(256 * 1024);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return imageSize(head.subarray(0, bytesRead));
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

/** The largest box a picture is drawn in, px (engine/image-layers.ts imageFitOf): it is scaled down to it here, once. */
export interface PictureFit {
  width: number;
  height: number;
}

/**
 * Decides whether a downloaded image may be drawn, and makes it ready to draw: its header must be a PNG, JPEG or
 * WebP within the backgrounds' picture limits and within what is left of the clip's `budget` (checked before
 * anything decodes it); its first picture is then decoded once (one decode of the clip at a time), with the
 * demuxer of its type alone, and when it is larger than `fit`, scaled down to it into a PNG beside it, so that
 * the render's filter graph never holds the full picture. Refusals are MediaRejectedError, in our words; an
 * exhausted budget is PictureBudgetExceededError.
 */
export async function inspectImage(path: string, fit?: PictureFit, budget?: PictureBudget): Promise<ImageMedia> {
  const header = await readHeader(path);
  if (!header) throw new MediaRejectedError(`is not a ${ACCEPTED} image`);
  const format = IMAGE_FORMATS[header.type ?? ''];
  if (!format) {
    const why =
      header.type === 'gif'
        ? 'is a GIF; send it as a PNG (its transparency is kept), JPEG or WebP'
        : header.type === 'svg'
          ? 'is an SVG drawing; send it as a PNG (its transparency is kept), JPEG or WebP'
          : `is not a ${ACCEPTED} image`;
    throw new MediaRejectedError(why);
  }
  if (!(header.width >= 1 && header.height >= 1)) throw new MediaRejectedError(`(${format.label}) declares an empty picture`);
  checkPictureSize(header.width, header.height);
  budget?.claim(header.width, header.height);
  const declared: ImageMedia = { path, format, width: header.width, height: header.height };
  const scale = fit ? Math.min(fit.width / header.width, fit.height / header.height) : 1;
  const decode = () => (scale < 1 ? scaledDown(declared, scale) : decodeOnce(declared));
  return budget ? budget.oneAtATime(decode) : decode();
}

const COULD_NOT_DECODE = 'could not be decoded: it is damaged or not a complete image';

/** Its first picture decoded with its own demuxer only: what passes here decodes the same way in the render. */
async function decodeOnce(media: ImageMedia): Promise<ImageMedia> {
  // -xerror: a decoding error ends the run with a failure instead of an empty output.
  const { exitCode } = await runFfmpeg(
    [...imageInputArgs(media), '-i', media.path, '-map', '0:v:0', '-frames:v', '1', '-xerror', '-f', 'null', '-'],
    { budgetSeconds: 20, anyExit: true, stallSeconds: false },
  );
  if (exitCode !== 0) throw new MediaRejectedError(`(${media.format.label}) ${COULD_NOT_DECODE}`);
  return media;
}

/**
 * Its first picture decoded and scaled by `scale` (< 1) into a PNG beside it, its alpha premultiplied while it is
 * scaled so that transparent pixels' colours do not bleed into its edges: the picture the render draws.
 */
async function scaledDown(media: ImageMedia, scale: number): Promise<ImageMedia> {
  const width = Math.max(1, Math.round(media.width * scale));
  const height = Math.max(1, Math.round(media.height * scale));
  const path = `${media.path}-${width}x${height}.png`;
  const steps = ['format=gbrap', 'premultiply=inplace=1', `scale=${width}:${height}:flags=lanczos`, 'unpremultiply=inplace=1', 'format=rgba'];
  const { exitCode } = await runFfmpeg(
    [...imageInputArgs(media), '-i', media.path, '-map', '0:v:0', '-frames:v', '1', '-vf', steps.join(','), '-xerror'].concat([
      '-c:v',
      'png',
      '-f',
      'image2',
      '-y',
      path,
    ]),
    { budgetSeconds: 20, anyExit: true, stallSeconds: false },
  );
  if (exitCode !== 0) throw new MediaRejectedError(`(${media.format.label}) ${COULD_NOT_DECODE}`);
  return { path, format: IMAGE_FORMATS.png!, width, height };
}
