/**
 * A caller's image that cannot be decoded is refused in our words: libvips' own text (what sharp throws) is kept
 * as the LookError's detail, for the log, and never in the public message (the bot's error, bot.failed).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { limits } from '#domain/limits';
import { checkHeader, decode } from '#functions/prepare/image-input.ts';
import { LookError } from '#functions/prepare/look.ts';
import { assertPublicMessage, internalsIn } from '../../support/public-errors.ts';

async function refusal(promise: Promise<unknown>): Promise<LookError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LookError);
    return error as LookError;
  }
  throw new Error('expected a LookError');
}

const picture = (format: 'jpeg' | 'png') =>
  sharp({ create: { width: 200, height: 150, channels: 3, background: '#3a6' } })
    .toFormat(format)
    .toBuffer();

describe('decode: a damaged image', () => {
  it.each(['jpeg', 'png'] as const)('refuses a truncated %s in fixed words, libvips text only in the detail', async (format) => {
    const whole = await picture(format);
    const error = await refusal(decode(whole.subarray(0, Math.floor(whole.length / 2)), 3, 512, 'image'));
    expect(error.code).toBe('image_invalid');
    expect(error.message).toBe('image cannot be decoded: it is damaged or not a complete image');
    assertPublicMessage(error.message, 'the bot error');
    // The detail is libvips' own text, and the public-errors scanner recognises it as such.
    expect(error.detail).toBeTruthy();
    expect(internalsIn(error.detail!)).toContain("an image library's text");
  });
});

describe("the public-errors scanner knows libvips' words", () => {
  it.each([
    'VipsJpeg: Premature end of JPEG file',
    'Input buffer has corrupt header: pngload_buffer: libspng read error',
    'VipsForeignLoad: "x" is not a known file format',
  ])('flags %j', (text) => expect(internalsIn(text)).toContain("an image library's text"));
  it.each(['mouth_half cannot be decoded: it is damaged or not a complete PNG', 'the webhook payload: 12 bytes', 'upload: image is 12 bytes'])(
    'lets %j through',
    (text) => expect(internalsIn(text)).toEqual([]),
  );
});

describe('checkHeader: the limits of limits.ts', () => {
  it('refuses more bytes than maxBotImageBytes before reading the header', () => {
    expect(() => checkHeader(Buffer.alloc(limits.maxBotImageBytes + 1))).toThrow(
      `image is ${limits.maxBotImageBytes + 1} bytes, more than ${limits.maxBotImageBytes}`,
    );
  });
});
