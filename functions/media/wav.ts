/** Minimal PCM WAV reading and writing (16-bit; what espeak-ng and the Polly adapter produce). */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

export interface Pcm {
  sampleRate: number;
  channels: number;
  /** Mono samples in -1..1 (channels averaged). */
  samples: Float32Array;
}

function parseWav(bytes: Buffer): Pcm {
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let offset = 12;
  let sampleRate = 0;
  let channels = 0;
  let bits = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    let size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      channels = bytes.readUInt16LE(body + 2);
      sampleRate = bytes.readUInt32LE(body + 4);
      bits = bytes.readUInt16LE(body + 14);
    } else if (id === 'data') {
      // Streaming writers (espeak-ng among them) may leave the size at 0 or 0xffffffff: take what is there.
      if (size === 0 || body + size > bytes.length) size = bytes.length - body;
      if (bits !== 16 || !channels) throw new Error(`unsupported WAV: ${bits}-bit, ${channels} channel(s)`);
      const frames = Math.floor(size / (2 * channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += bytes.readInt16LE(body + (i * channels + c) * 2);
        samples[i] = sum / channels / 32768;
      }
      return { sampleRate, channels, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV has no data chunk');
}

export const readWav = (path: string) => parseWav(readFileSync(path));

/**
 * The seconds of sound a 16-bit PCM WAV file holds, from its chunks' headers alone (the samples are not read): its
 * data chunk's length as declared, or to the end of the file where a streaming writer left it 0 or all ones, or where
 * the file is cut short; wherever the chunks before it put it.
 */
export function wavSeconds(path: string): number {
  const fd = openSync(path, 'r');
  try {
    const fileSize = fstatSync(fd).size;
    const at = (position: number, length: number) => {
      const bytes = Buffer.alloc(length);
      if (readSync(fd, bytes, 0, length, position) < length) throw new Error('WAV ends inside a chunk header');
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
        if (bits !== 16 || !channels || !sampleRate) throw new Error(`unsupported WAV: ${bits}-bit, ${channels} channel(s)`);
        const rest = fileSize - offset - 8;
        const bytes = size === 0 || size === 0xffffffff ? rest : Math.min(size, rest);
        return Math.floor(bytes / (2 * channels)) / sampleRate;
      }
      offset += 8 + size + (size % 2);
    }
    throw new Error('WAV has no data chunk');
  } finally {
    closeSync(fd);
  }
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
