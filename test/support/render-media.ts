/** Measuring rendered files with the same ffmpeg the engine uses. */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { runFfmpeg as run } from '#functions/media/media.ts';

/** ffmpeg for measurements: output on stdout, a generous budget. */
const runFfmpeg = (args: string[]) => run(args, { budgetSeconds: 300, captureStdout: true });

/** One decoded frame as RGB24 (width*height*3 bytes). */
export async function frameRgb(path: string, seconds: number, width = 1280, height = 720): Promise<Buffer> {
  const { stdout } = await runFfmpeg([
    '-ss',
    String(seconds),
    '-i',
    path,
    '-frames:v',
    '1',
    '-vsync',
    '0',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  if (stdout.length !== width * height * 3) throw new Error(`unexpected frame size ${stdout.length}`);
  return stdout;
}

/** A picture file (a JPEG poster) as RGB24. */
export async function pictureRgb(path: string, width = 1280, height = 720): Promise<Buffer> {
  const { stdout } = await runFfmpeg(['-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
  if (stdout.length !== width * height * 3) throw new Error(`unexpected picture size ${stdout.length}`);
  return stdout;
}

/**
 * The lip-sync measures' box around a bot's mouth in the frame: 56x50 artwork px about the look's mouth point
 * (manifest `mouth`), at the bot's scale, for a bot placed at (x, y).
 */
export function mouthBox(place: { x: number; y: number }, sprites: { scale: number; manifest: { mouth: { x: number; y: number } } }) {
  const { mouth } = sprites.manifest;
  return {
    x: Math.round(place.x + (mouth.x - 28) * sprites.scale),
    y: Math.round(place.y + (mouth.y - 10) * sprites.scale),
    w: Math.round(56 * sprites.scale),
    h: Math.round(50 * sprites.scale),
  };
}

export const pixel = (frame: Buffer, x: number, y: number, width = 1280) => {
  const i = (y * width + x) * 3;
  return [frame[i]!, frame[i + 1]!, frame[i + 2]!] as const;
};

export const colourDistance = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** Share of pixels in a rectangle further than `tolerance` from `colour`. */
export function shareDiffering(
  frame: Buffer,
  rect: { x: number; y: number; w: number; h: number },
  colour: readonly number[],
  tolerance = 40,
): number {
  let differing = 0;
  for (let y = rect.y; y < rect.y + rect.h; y++) {
    for (let x = rect.x; x < rect.x + rect.w; x++) if (colourDistance(pixel(frame, x, y), colour) > tolerance) differing++;
  }
  return differing / (rect.w * rect.h);
}

/** Mono float samples of the file's audio (48 kHz), optionally a window of it. */
export async function audioSamples(path: string, window?: { start: number; duration: number }): Promise<Float32Array> {
  const { stdout } = await runFfmpeg([
    ...(window ? ['-ss', String(window.start), '-t', String(window.duration)] : []),
    '-i',
    path,
    '-vn',
    '-ac',
    '1',
    '-ar',
    '48000',
    '-f',
    'f32le',
    '-',
  ]);
  return new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.length));
}

export const rms = (samples: Float32Array) => Math.sqrt(samples.reduce((sum, v) => sum + v * v, 0) / Math.max(1, samples.length));
export const dbfs = (value: number) => 20 * Math.log10(Math.max(value, 1e-9));

/** Top-level MP4 boxes in file order (faststart puts moov before mdat). */
export function topLevelBoxes(path: string): string[] {
  const fd = openSync(path, 'r');
  const size = statSync(path).size;
  const boxes: string[] = [];
  const header = Buffer.alloc(16);
  try {
    let offset = 0;
    while (offset + 8 <= size) {
      readSync(fd, header, 0, 16, offset);
      let length = header.readUInt32BE(0);
      const type = header.toString('ascii', 4, 8);
      if (length === 1) length = Number(header.readBigUInt64BE(8));
      else if (length === 0) length = size - offset;
      boxes.push(type);
      if (length < 8) break;
      offset += length;
    }
  } finally {
    closeSync(fd);
  }
  return boxes;
}

/** Gray frames of a crop, as an array of per-frame buffers. */
export async function grayCropFrames(path: string, box: { x: number; y: number; w: number; h: number }): Promise<Buffer[]> {
  // crop on yuv420p works on even sizes and offsets.
  const even = (n: number) => 2 * Math.round(n / 2);
  const rect = { x: even(box.x), y: even(box.y), w: even(box.w), h: even(box.h) };
  const { stdout } = await runFfmpeg([
    '-i',
    path,
    '-vf',
    `crop=${rect.w}:${rect.h}:${rect.x}:${rect.y}`,
    '-vsync',
    '0',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'gray',
    '-',
  ]);
  const size = rect.w * rect.h;
  const frames: Buffer[] = [];
  for (let o = 0; o + size <= stdout.length; o += size) frames.push(stdout.subarray(o, o + size));
  return frames;
}
