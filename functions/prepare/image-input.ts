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
export function checkHeader(
  image: Buffer,
  name = 'image',
  accepted: readonly ImageType[] = ['jpg', 'png', 'webp'],
): { type: ImageType; width: number; height: number } {
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
    throw new LookError(
      'image_too_large',
      `${name} declares ${width}x${height} px; at most ${MAX_SIDE} px a side and ${MAX_PIXELS / 1e6} megapixels`,
    );
  }
  if (width < 1 || height < 1) throw new LookError('image_invalid', `${name} declares an empty picture`);
  if (type === 'jpg') checkJpegScans(image, name);
  return { type, width, height };
}

/**
 * Most scans a JPEG may have. A progressive JPEG is decoded once per scan over the whole picture; cameras and
 * encoders write up to about a dozen (libjpeg's default script has 10), while a scan bomb repeats tiny refinement
 * scans by the thousand (libvips spent 44 s of CPU on each MB of one).
 */
const MAX_JPEG_SCANS = 32;

/**
 * Counts a JPEG's scans (SOS markers) by walking its segments, before anything decodes it: a file with more than
 * MAX_JPEG_SCANS, or whose segments do not parse, is refused as image_invalid. Linear in the file's size.
 * @internal Exported for its tests.
 */
export function checkJpegScans(image: Buffer, name = 'image'): number {
  const invalid = (why: string) => new LookError('image_invalid', `${name} is not a JPEG image we accept: ${why}`);
  if (image[0] !== 0xff || image[1] !== 0xd8) throw invalid('it does not start like a JPEG');
  let scans = 0;
  let at = 2;
  while (at + 1 < image.length) {
    if (image[at] !== 0xff) throw invalid('a segment is malformed');
    const marker = image[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd9) return scans; // end of image
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (at + 3 >= image.length) break;
    const length = image.readUInt16BE(at + 2);
    if (length < 2) throw invalid('a segment is malformed');
    at += 2 + length;
    if (marker !== 0xda) continue;
    if (++scans > MAX_JPEG_SCANS) throw invalid(`it has more than ${MAX_JPEG_SCANS} scans`);
    // The entropy-coded data runs to the next marker: FF then neither 00 (a stuffed byte) nor a restart.
    while (at + 1 < image.length && !(image[at] === 0xff && image[at + 1] !== 0x00 && !(image[at + 1]! >= 0xd0 && image[at + 1]! <= 0xd7))) at++;
  }
  return scans;
}

/**
 * Decodes strictly (orientation applied) to raw pixels with the given channels, at most `maxSide` px a side.
 * libvips stops the work itself past `timeoutSeconds` (sharp's timeout kills the pipeline: no CPU is spent on it
 * after the refusal), so a picture that decodes too slowly costs its preparation, not the function's time.
 */
export async function decode(
  image: Buffer,
  channels: 3 | 4,
  maxSide: number,
  name = 'image',
  timeoutSeconds: number = limits.botImageDecodeSeconds,
): Promise<{ data: Buffer; width: number; height: number }> {
  try {
    let pipeline = sharp(image, { failOn: 'truncated', limitInputPixels: MAX_PIXELS }).timeout({ seconds: timeoutSeconds }).rotate();
    pipeline = channels === 3 ? pipeline.flatten({ background: '#ffffff' }) : pipeline.ensureAlpha();
    const { data, info } = await pipeline
      .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    const detail = (error as Error).message.split('\n')[0];
    if (detail?.startsWith('timeout'))
      throw new LookError('image_invalid', `${name} takes too long to decode (more than ${timeoutSeconds} s)`, detail);
    // libvips' own words stay in the log (the detail): the caller reads ours.
    throw new LookError('image_invalid', `${name} cannot be decoded: it is damaged or not a complete image`, detail);
  }
}
