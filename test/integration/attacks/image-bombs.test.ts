/**
 * A progressive JPEG is decoded once per scan: a file that repeats tiny scans by the thousand costs a decoder
 * minutes of CPU for a few MB. It is refused as image_invalid by counting its scans before anything decodes it,
 * in well under a second; ordinary baseline and progressive photos pass.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkHeader, checkJpegScans } from '#functions/prepare/image-input.ts';
import { LookError } from '#functions/prepare/look.ts';

const PORTRAIT = readFileSync(join(import.meta.dirname, '../../fixtures/prepare', 'portrait.jpg'));

/** A progressive JPEG whose last scan is repeated `copies` times before its end marker. */
async function scanBomb(copies: number): Promise<Buffer> {
  const progressive = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366cc' } })
    .jpeg({ progressive: true, quality: 80 })
    .toBuffer();
  const lastScan = progressive.lastIndexOf(Buffer.from([0xff, 0xda]));
  const end = progressive.length - 2; // FF D9
  const scan = progressive.subarray(lastScan, end);
  return Buffer.concat([progressive.subarray(0, end), ...Array.from({ length: copies }, () => scan), Buffer.from([0xff, 0xd9])]);
}

describe('JPEG scan bombs', () => {
  it('refuses a JPEG of 40,000 scans as image_invalid before decoding, in under a second', async () => {
    const bomb = await scanBomb(40_000);
    expect(bomb.length).toBeGreaterThan(400_000);
    const started = performance.now();
    let refused: unknown;
    try {
      checkHeader(bomb);
    } catch (error) {
      refused = error;
    }
    const ms = performance.now() - started;
    expect(refused).toBeInstanceOf(LookError);
    expect((refused as LookError).code).toBe('image_invalid');
    expect((refused as LookError).message).toMatch(/more than 32 scans/);
    expect(ms).toBeLessThan(1000);
  });

  it("accepts ordinary photos: baseline, progressive (libjpeg's 10 scans), the test portrait", async () => {
    const picture = sharp({ create: { width: 800, height: 600, channels: 3, background: '#884422' } });
    const baseline = await picture.clone().jpeg().toBuffer();
    const progressive = await picture.clone().jpeg({ progressive: true }).toBuffer();
    expect(checkJpegScans(baseline)).toBe(1);
    expect(checkJpegScans(progressive)).toBeGreaterThan(1);
    expect(checkJpegScans(progressive)).toBeLessThanOrEqual(12);
    expect(() => checkHeader(progressive)).not.toThrow();
    expect(() => checkHeader(PORTRAIT)).not.toThrow();
  });

  it('refuses a valid JPEG of 99 scans made by an encoder (libjpeg-turbo cjpeg with a scan script: test/fixtures/prepare/many-scans.jpg)', () => {
    const manyScans = readFileSync(join(import.meta.dirname, '../../fixtures/prepare', 'many-scans.jpg'));
    expect(() => checkJpegScans(manyScans)).toThrow(/more than 32 scans/);
  });

  it('refuses a JPEG whose segments do not parse', () => {
    expect(() => checkJpegScans(Buffer.from([0xff, 0xd8, 0x00, 0x00, 0x00]))).toThrow(/malformed/);
  });
});
