/** What both look builders write: a layer as PNG bytes. */
import sharp from 'sharp';
import type { Picture } from '#media/raster/picture';

/** Straight RGBA to PNG bytes; fully transparent pixels are stored black (they compress to almost nothing). */
export function png(picture: Picture): Promise<Buffer> {
  const data = Buffer.from(picture.data);
  for (let o = 0; o < data.length; o += 4) if (data[o + 3] === 0) data.fill(0, o, o + 3);
  return sharp(data, { raw: { width: picture.width, height: picture.height, channels: 4 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}
