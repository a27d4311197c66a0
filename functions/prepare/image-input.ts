/**
 * A caller's image, checked before anything decodes it: bytes, then the size its header declares
 * (image-size reads only the header), then a strict decode with sharp (EXIF orientation applied; a truncated
 * file is an error, not a grey half-picture).
 */
import { imageSize } from 'image-size';
import sharp from 'sharp';
import { limits } from '#domain/limits';
import { LookError } from './look.ts';

const { maxBotImageBytes: MAX_IMAGE_BYTES, maxBotImagePixels: MAX_PIXELS, maxBotImageSide: MAX_SIDE } = limits;

export type ImageType = 'jpg' | 'png' | 'webp';

/** The header's type and size, or the error that refuses the file. */
export function checkHeader(image: Buffer, name = 'image', accepted: readonly ImageType[] = ['jpg', 'png', 'webp']): { type: ImageType; width: number; height: number } {
  if (image.length > MAX_IMAGE_BYTES) throw new LookError('image_too_large', `${name} is ${image.length} bytes, more than ${MAX_IMAGE_BYTES}`);
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(image);
  } catch {
    throw new LookError('image_invalid', `${name} is not a ${accepted.map((t) => t.toUpperCase()).join(', ')} image`);
  }
  const type = size.type as ImageType;
  if (!accepted.includes(type)) throw new LookError('image_invalid', `${name} is ${size.type ?? 'an unknown type'}, not ${accepted.join(' or ')}`);
  const { width, height } = size;
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) {
    throw new LookError('image_too_large', `${name} declares ${width}x${height} px; at most ${MAX_SIDE} px a side and ${MAX_PIXELS / 1e6} megapixels`);
  }
  if (width < 1 || height < 1) throw new LookError('image_invalid', `${name} declares an empty picture`);
  return { type, width, height };
}

/** Decodes strictly (orientation applied) to raw pixels with the given channels, at most `maxSide` px a side. */
export async function decode(image: Buffer, channels: 3 | 4, maxSide: number, name = 'image'): Promise<{ data: Buffer; width: number; height: number }> {
  try {
    let pipeline = sharp(image, { failOn: 'truncated', limitInputPixels: MAX_PIXELS }).rotate();
    pipeline = channels === 3 ? pipeline.flatten({ background: '#ffffff' }) : pipeline.ensureAlpha();
    const { data, info } = await pipeline
      .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    // libvips' own words stay in the log (the detail): the caller reads ours.
    throw new LookError('image_invalid', `${name} cannot be decoded: it is damaged or not a complete image`, (error as Error).message.split('\n')[0]);
  }
}
