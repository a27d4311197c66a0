/**
 * Minimal PCM WAV reading and writing (16-bit; what espeak-ng and the Polly adapter produce), and the sizes of a WAV
 * written to a pipe (any coding) made whole before ffmpeg reads it.
 */
import { closeSync, copyFileSync, fstatSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

export interface Pcm {
  sampleRate: number;
  channels: number;
  /** Mono samples in -1..1 (channels averaged). */
  samples: Float32Array;
}

/** Where a 16-bit PCM WAV's samples are, and how they are laid out. */
interface WavLayout {
  sampleRate: number;
  channels: number;
  /** The data chunk's first byte, and its length: as declared, or to the end of the file (see layoutOf). */
  dataStart: number;
  dataBytes: number;
}

/**
 * The layout of a WAV of `fileSize` bytes, from its chunks' headers, read by `read(position, length)` (a buffer, or a
 * file read by headers alone). The data chunk may come after chunks of any size (ffmpeg writes a LIST chunk of the
 * input's tags unless told not to); streaming writers (espeak-ng among them) may leave its size at 0 or 0xffffffff,
 * and a file cut short holds less than it declares: the rest of the file is taken then.
 */
function layoutOf(read: (position: number, length: number) => Buffer, fileSize: number): WavLayout {
  const at = (position: number, length: number) => {
    const bytes = read(position, length);
    if (bytes.length < length) throw new Error('WAV ends inside a chunk header');
    return bytes;
  };
  const riff = at(0, 12);
  if (riff.toString('ascii', 0, 4) !== 'RIFF' || riff.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let [offset, sampleRate, channels, bits] = [12, 0, 0, 0];
  while (offset + 8 <= fileSize) {
    const header = at(offset, 8);
    const id = header.toString('ascii', 0, 4);
    const size = header.readUInt32LE(4);
    if (id === 'fmt ') {
      const format = at(offset + 8, 16);
      [channels, sampleRate, bits] = [format.readUInt16LE(2), format.readUInt32LE(4), format.readUInt16LE(14)];
    } else if (id === 'data') {
      if (bits !== 16 || !channels) throw new Error(`unsupported WAV: ${bits}-bit, ${channels} channel(s)`);
      const rest = fileSize - offset - 8;
      return { sampleRate, channels, dataStart: offset + 8, dataBytes: size === 0 || size > rest ? rest : size };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error('WAV has no data chunk');
}

function parseWav(bytes: Buffer): Pcm {
  const { sampleRate, channels, dataStart, dataBytes } = layoutOf((position, length) => bytes.subarray(position, position + length), bytes.length);
  const frames = Math.floor(dataBytes / (2 * channels));
  const samples = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += bytes.readInt16LE(dataStart + (i * channels + c) * 2);
    samples[i] = sum / channels / 32768;
  }
  return { sampleRate, channels, samples };
}

export const readWav = (path: string) => parseWav(readFileSync(path));

/** The seconds of sound a 16-bit PCM WAV file holds, from its chunks' headers alone (the samples are not read). */
export function wavSeconds(path: string): number {
  const fd = openSync(path, 'r');
  try {
    const read = (position: number, length: number) => {
      const bytes = Buffer.alloc(length);
      return bytes.subarray(0, readSync(fd, bytes, 0, length, position));
    };
    const { sampleRate, channels, dataBytes } = layoutOf(read, fstatSync(fd).size);
    if (!sampleRate) throw new Error(`unsupported WAV: ${sampleRate} Hz`);
    return Math.floor(dataBytes / (2 * channels)) / sampleRate;
  } finally {
    closeSync(fd);
  }
}

/** The size a WAV written to a pipe leaves in its headers (it cannot go back to write them): none, or "to the end". */
const STREAMED_SIZES = new Set([0, 0xffffffff]);
/** Format tags whose data is whole sample frames of `blockAlign` bytes: PCM, IEEE float (also as WAVE_FORMAT_EXTENSIBLE). */
const SAMPLE_FORMATS = new Set([1, 3]);
const EXTENSIBLE = 0xfffe;

/** Where a streamed WAV's data chunk's size is, and the size it holds; undefined for any other file. */
function streamedData(path: string): { sizeAt: number; dataBytes: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined; // Not there or not readable: the probe that follows says so in its own words.
  }
  try {
    const fileSize = fstatSync(fd).size;
    const read = (position: number, length: number) => {
      const bytes = Buffer.alloc(length);
      return bytes.subarray(0, readSync(fd, bytes, 0, length, position));
    };
    const riff = read(0, 12);
    if (riff.length < 12 || riff.toString('ascii', 0, 4) !== 'RIFF' || riff.toString('ascii', 8, 12) !== 'WAVE') return undefined;
    let [offset, blockAlign, wholeFrames] = [12, 0, false];
    while (offset + 8 <= fileSize) {
      const header = read(offset, 8);
      if (header.length < 8) return undefined;
      const id = header.toString('ascii', 0, 4);
      const size = header.readUInt32LE(4);
      if (id === 'fmt ') {
        const format = read(offset + 8, Math.min(26, size));
        if (format.length < 16) return undefined;
        const tag = format.readUInt16LE(0);
        blockAlign = format.readUInt16LE(12);
        wholeFrames = SAMPLE_FORMATS.has(tag) || (tag === EXTENSIBLE && format.length >= 26 && SAMPLE_FORMATS.has(format.readUInt16LE(24)));
      } else if (id === 'data') {
        if (!STREAMED_SIZES.has(size) || blockAlign === 0) return undefined;
        const rest = fileSize - offset - 8;
        // Samples end on a whole frame; other codings (MP3, ADPCM in a WAV) are their demuxer's to cut.
        return { sizeAt: offset + 4, dataBytes: wholeFrames ? rest - (rest % blockAlign) : rest };
      }
      // A chunk of a streamed size before the data: nothing to walk past.
      if (STREAMED_SIZES.has(size)) return undefined;
      offset += 8 + size + (size % 2);
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * A WAV written to a pipe (ffmpeg to stdout, arecord) leaves its RIFF and data sizes at 0 or 0xFFFFFFFF. ffmpeg's
 * demuxer then reads its data in whole blocks to the file's end and marks the last, short block corrupt, which a
 * decode that stops at its first error (-xerror) refuses. For such a file, a copy at `into` with the sizes it holds
 * (its data to the file's end, in whole sample frames for PCM and float), whose path is returned; any other file's
 * own path. The file itself is never written.
 */
export function sealedStreamedWav(path: string, into: string): string {
  const streamed = streamedData(path);
  if (!streamed) return path;
  copyFileSync(path, into);
  const fd = openSync(into, 'r+');
  try {
    const sizes = Buffer.alloc(4);
    sizes.writeUInt32LE(streamed.dataBytes);
    writeSync(fd, sizes, 0, 4, streamed.sizeAt);
    // RIFF's size: what follows its first 8 bytes, to the data's end.
    sizes.writeUInt32LE(streamed.sizeAt + 4 + streamed.dataBytes - 8);
    writeSync(fd, sizes, 0, 4, 4);
  } finally {
    closeSync(fd);
  }
  return into;
}

/** A WAV file around raw 16-bit little-endian PCM (Polly's "pcm" output is mono; `channels` interleaved). */
export function wavFromPcm16(pcm: Buffer, sampleRate: number, channels = 1): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2 * channels, 28);
  header.writeUInt16LE(2 * channels, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}
