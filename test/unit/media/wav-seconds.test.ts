/**
 * A WAV file's length from its headers (functions/media/wav.ts wavSeconds), whatever chunks come before its data:
 * ffmpeg copies a recording's tags into a LIST chunk, which a caller can make kilobytes long.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sealedStreamedWav, wavSeconds } from '#media/wav';

const dir = mkdtempSync(join(tmpdir(), 'wav-seconds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const chunk = (id: string, body: Buffer, declared = body.length) => {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'ascii');
  header.writeUInt32LE(declared, 4);
  return Buffer.concat([header, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
};
const format = (channels: number, rate: number) => {
  const body = Buffer.alloc(16);
  body.writeUInt16LE(1, 0);
  body.writeUInt16LE(channels, 2);
  body.writeUInt32LE(rate, 4);
  body.writeUInt32LE(rate * channels * 2, 8);
  body.writeUInt16LE(channels * 2, 12);
  body.writeUInt16LE(16, 14);
  return chunk('fmt ', body);
};
const wav = (name: string, ...chunks: Buffer[]) => {
  const body = Buffer.concat([Buffer.from('WAVE', 'ascii'), ...chunks]);
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat([Buffer.from('RIFF', 'ascii'), Buffer.from(Uint32Array.of(body.length).buffer), body]));
  return path;
};
const samples = (seconds: number, rate: number, channels = 1) => Buffer.alloc(Math.round(seconds * rate) * 2 * channels);

describe("a WAV file's length from its headers", () => {
  it('reads the data chunk after a tag chunk of any size, odd sizes padded', () => {
    for (const tag of [0, 35, 4096, 6036, 100_001]) {
      const path = wav(`tag-${tag}.wav`, format(1, 48_000), chunk('LIST', Buffer.alloc(tag, 0x78)), chunk('data', samples(1.5, 48_000)));
      expect(wavSeconds(path), `a tag of ${tag} bytes`).toBe(1.5);
    }
  });

  it('counts stereo frames once, at their rate', () => {
    expect(wavSeconds(wav('stereo.wav', format(2, 44_100), chunk('data', samples(2, 44_100, 2))))).toBe(2);
  });

  it('takes the rest of the file where a streaming writer left the size 0 or all ones, or the file is cut short', () => {
    expect(wavSeconds(wav('zero.wav', format(1, 16_000), chunk('data', samples(1, 16_000), 0)))).toBe(1);
    expect(wavSeconds(wav('ones.wav', format(1, 16_000), chunk('data', samples(1, 16_000), 0xffffffff)))).toBe(1);
    expect(wavSeconds(wav('short.wav', format(1, 16_000), chunk('data', samples(0.5, 16_000), 32_000)))).toBe(0.5);
  });

  it('refuses a file with no data chunk, or not 16-bit PCM, or not a WAV', () => {
    expect(() => wavSeconds(wav('none.wav', format(1, 16_000)))).toThrow('no data chunk');
    const eight = format(1, 16_000);
    eight.writeUInt16LE(8, 8 + 14);
    expect(() => wavSeconds(wav('eight.wav', eight, chunk('data', samples(1, 16_000))))).toThrow('unsupported WAV');
    writeFileSync(join(dir, 'text.wav'), 'not a sound at all');
    expect(() => wavSeconds(join(dir, 'text.wav'))).toThrow('not a WAV');
  });
});

describe('a WAV written to a pipe, read from a copy given the sizes it holds (sealedStreamedWav)', () => {
  const sizes = (path: string) => {
    const bytes = readFileSync(path);
    const data = bytes.indexOf('data');
    return { riff: bytes.readUInt32LE(4), data: bytes.readUInt32LE(data + 4), dataStart: data + 8 };
  };

  it('copies it with its data to the end of the file, in whole sample frames, and the RIFF size with it; the file itself is untouched', () => {
    for (const declared of [0, 0xffffffff]) {
      // Stereo 16-bit (4-byte frames) and half a frame more at the end, after a tag chunk.
      const body = Buffer.concat([samples(0.5, 8000, 2), Buffer.alloc(2)]);
      const path = wav(`piped-${declared}.wav`, format(2, 8000), chunk('LIST', Buffer.alloc(26)), chunk('data', body, declared));
      const before = readFileSync(path);
      const copy = join(dir, `sealed-${declared}.wav`);
      expect(sealedStreamedWav(path, copy)).toBe(copy);
      expect(readFileSync(path).equals(before)).toBe(true);
      const after = sizes(copy);
      expect(after.data).toBe(0.5 * 8000 * 4);
      expect(after.riff).toBe(after.dataStart - 8 + after.data);
      expect(wavSeconds(copy)).toBe(0.5);
    }
  });

  it('cuts no partial block of a coding other than samples (MP3 in a WAV: its block is 1152 bytes)', () => {
    const mp3Format = chunk('fmt ', Buffer.from([0x55, 0, 1, 0, 0x80, 0x3e, 0, 0, 0xe8, 0x03, 0, 0, 0x80, 0x04, 0, 0]));
    const path = wav('mp3-in-wav.wav', mp3Format, chunk('data', Buffer.alloc(3000), 0xffffffff));
    const copy = join(dir, 'sealed-mp3.wav');
    expect(sealedStreamedWav(path, copy)).toBe(copy);
    expect(sizes(copy).data).toBe(3000);
  });

  it('answers the file itself for any other: sizes given, not a WAV, a streamed chunk before the data, no format, none there', () => {
    const honest = wav('honest.wav', format(1, 8000), chunk('data', samples(0.25, 8000)));
    const notWav = join(dir, 'not.wav');
    writeFileSync(notWav, Buffer.from('ID3 not a wave file at all'));
    const streamedTag = wav('streamed-tag.wav', format(1, 8000), chunk('LIST', Buffer.alloc(10), 0xffffffff), chunk('data', samples(0.25, 8000), 0));
    const noFormat = wav('no-format.wav', chunk('data', samples(0.25, 8000), 0));
    for (const path of [honest, notWav, streamedTag, noFormat, join(dir, 'missing.wav')]) {
      const copy = join(dir, 'never.wav');
      expect(sealedStreamedWav(path, copy)).toBe(path);
      expect(existsSync(copy)).toBe(false);
    }
  });
});
