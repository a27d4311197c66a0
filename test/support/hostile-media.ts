/**
 * Media made in the tests: a sample of every accepted background format, and the files of the security review
 * (a PNG that declares 30000x30000 in 66 bytes, a real 16000x16000 PNG, an HLS playlist with an MPEG-PS video
 * appended whose segment is a local file).
 */
import { createWriteStream, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { runFfmpeg } from '#functions/media/media.ts';

const ff = (args: string[]) => runFfmpeg(['-y', ...args], { budgetSeconds: 120 });

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

function ihdr(width: number, height: number): Buffer {
  const b = Buffer.alloc(13);
  b.writeUInt32BE(width, 0);
  b.writeUInt32BE(height, 4);
  b[8] = 8; // bit depth
  b[9] = 2; // truecolour
  return b;
}

const PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** A tiny PNG whose header declares width x height, with almost no picture data (the review's 69-byte PNG). */
export function writeDeclaredSizePng(path: string, width: number, height: number): string {
  writeFileSync(
    path,
    Buffer.concat([
      PNG_SIGNATURE,
      chunk('IHDR', ihdr(width, height)),
      chunk('IDAT', zlib.deflateSync(Buffer.alloc(1))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
  return path;
}

/** A complete, valid black PNG of width x height (deflate shrinks 16000x16000 to well under a megabyte). */
export async function writeHugePng(path: string, width: number, height: number): Promise<string> {
  const row = Buffer.alloc(1 + width * 3); // filter byte 0, then black pixels
  let y = 0;
  const rows = new Readable({
    read() {
      // A few rows per push keep the stream fast without holding the whole picture.
      for (let i = 0; i < 64 && y < height; i++, y++) this.push(row);
      if (y >= height) this.push(null);
    },
  });
  const parts: Buffer[] = [];
  const deflate = zlib.createDeflate({ level: 6 });
  deflate.on('data', (c: Buffer) => parts.push(c));
  await pipeline(rows, deflate);
  const out = createWriteStream(path);
  out.write(Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr(width, height)), chunk('IDAT', Buffer.concat(parts)), chunk('IEND', Buffer.alloc(0))]));
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return path;
}

/** An HLS playlist naming a local file as its one segment, with an MPEG-PS video appended: the review's polyglot. */
export async function writeHlsPolyglot(path: string, segmentPath: string, mpegPsPath: string): Promise<string> {
  const playlist = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:2.0,\nfile://${segmentPath}\n#EXT-X-ENDLIST\n`;
  writeFileSync(path, Buffer.concat([Buffer.from(playlist), await readFile(mpegPsPath)]));
  return path;
}

export type SampleFormat = 'mp4' | 'mov' | 'webm' | 'mkv' | 'avi' | 'ts' | 'mpg' | 'gif' | 'png' | 'jpg' | 'webp';

/** How each sample is made: codecs as such files usually carry them. */
const RECIPES: Record<SampleFormat, { still?: boolean; args: string[] }> = {
  mp4: { args: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mp4'] },
  mov: { args: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mov'] },
  webm: { args: ['-c:v', 'libvpx', '-b:v', '500k', '-c:a', 'libopus', '-f', 'webm'] },
  mkv: { args: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'matroska'] },
  avi: { args: ['-c:v', 'mpeg4', '-c:a', 'libmp3lame', '-f', 'avi'] },
  ts: { args: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mpegts'] },
  mpg: { args: ['-c:v', 'mpeg2video', '-c:a', 'mp2', '-f', 'vob'] },
  gif: { args: ['-an', '-f', 'gif'] },
  png: { still: true, args: ['-frames:v', '1', '-f', 'image2', '-c:v', 'png'] },
  jpg: { still: true, args: ['-frames:v', '1', '-f', 'image2', '-c:v', 'mjpeg'] },
  webp: { still: true, args: ['-frames:v', '1', '-f', 'image2', '-c:v', 'libwebp'] },
};

/**
 * A short sample in `format`: a solid colour (so a test can find it in a rendered frame) with a tone, 320x240,
 * 1.5 s (a still: one picture). Returns its path.
 */
export async function writeSample(dir: string, format: SampleFormat, color = '0x2060d0'): Promise<string> {
  const recipe = RECIPES[format];
  const path = join(dir, `sample-${format}.${format}`);
  const fps = format === 'gif' ? 10 : 25;
  const inputs = ['-f', 'lavfi', '-i', `color=c=${color}:s=320x240:r=${fps}:d=1.5`];
  if (!recipe.still && format !== 'gif') inputs.push('-f', 'lavfi', '-i', 'sine=f=440:d=1.5:sample_rate=44100');
  await ff([...inputs, ...recipe.args, '-t', '1.5', path]);
  return path;
}

/** A PNG whose header (signature + IHDR) declares width x height, with no pixels behind it. */
export function declaredPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'ascii');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8;
  ihdr[17] = 6;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.alloc(64)]);
}

/**
 * A Matroska file that lies about its length: `actualSeconds` of a tone (and, with `video`, a small test picture)
 * whose Segment Info says it lasts `claimedSeconds` (its Duration element rewritten; ffmpeg reports that and decodes
 * every cluster).
 */
export async function writeLyingMatroska(
  path: string,
  { actualSeconds, claimedSeconds, video }: { actualSeconds: number; claimedSeconds: number; video?: boolean },
): Promise<string> {
  const picture = video ? ['-f', 'lavfi', '-i', `testsrc=s=160x120:r=5:d=${actualSeconds}`] : [];
  const codecs = video ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'] : [];
  await ff([...picture, '-f', 'lavfi', '-i', `sine=f=440:d=${actualSeconds}`, ...codecs, '-c:a', 'libmp3lame', '-f', 'matroska', path]);
  const bytes = await readFile(path);
  const at = bytes.indexOf(Buffer.from([0x44, 0x89])); // Duration, in TimecodeScale units (1 ms)
  if (at < 0) throw new Error('no Duration element');
  if (bytes[at + 2] === 0x88) bytes.writeDoubleBE(claimedSeconds * 1000, at + 3);
  else bytes.writeFloatBE(claimedSeconds * 1000, at + 3);
  writeFileSync(path, bytes);
  return path;
}

/**
 * A WebM of an Opus tone written as a stream (a browser's MediaRecorder writes one so): its header holds no Duration,
 * so the probe reads no length.
 */
export async function writeStreamedWebm(path: string, seconds: number): Promise<string> {
  const { stdout } = await runFfmpeg(['-f', 'lavfi', '-i', `sine=f=440:d=${seconds}`, '-c:a', 'libopus', '-f', 'webm', 'pipe:1'], {
    budgetSeconds: 120,
    captureStdout: true,
  });
  writeFileSync(path, stdout);
  return path;
}

/** An MPEG-TS file whose first second is `small` pictures and the next two seconds `large` ones: its probe sees `small`. */
export async function writeGrowingTs(dir: string, small: string, large: string): Promise<string> {
  const part = async (name: string, size: string, seconds: number) => {
    const path = join(dir, name);
    await ff(['-f', 'lavfi', '-i', `testsrc=s=${size}:r=10:d=${seconds}`, '-c:v', 'mpeg2video', '-f', 'mpegts', path]);
    return readFile(path);
  };
  const path = join(dir, 'growing.ts');
  writeFileSync(path, Buffer.concat([await part('small.ts', small, 1), await part('large.ts', large, 2)]));
  return path;
}
