/**
 * Image layers on real frames (the logo's drawing): the picture at its corner inside the safe margins, at its
 * size (±2 px) and opacity, its transparency kept (no black box), a windowed layer visible only in its window;
 * and fetchImage's refusals in our words with the logo_* codes, through a local server.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Mode } from '#commons/config';
import { BUILT_IN_BOTS } from '#domain/bot';
import { JobFailedError } from '#domain/errors';
import { inspectBackground } from '#functions/media/background-media.ts';
import { inspectImage } from '#functions/media/image-media.ts';
import { LOGO } from '#functions/media/remote-media.ts';
import { imageBoxOf } from '#functions/render/engine/image-layers.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { safeMarginOf } from '#functions/render/engine/layout.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { fetchImage } from '../../support/fetch-then-inspect.ts';
import { writeDeclaredSizePng } from '../../support/hostile-media.ts';
import { AVA_VOICE, FRAME, workDirs } from '../../support/media-pipeline.ts';
import { assertPublicMessage } from '../../support/public-errors.ts';
import { frameRgb, pixel } from '../../support/render-media.ts';

const dir = workDirs();
const BACKDROP = [64, 96, 128] as const;
const MAGENTA = [255, 0, 255] as const;

/**
 * A 400x200 PNG: a 40 px border fully transparent (its pixels black: a blend that ignored alpha would show a black
 * box), inside it opaque magenta.
 */
async function framedLogo(path: string): Promise<string> {
  const [width, height] = [400, 200];
  const rgba = Buffer.alloc(width * height * 4); // transparent black
  for (let y = 40; y < 160; y++) for (let x = 40; x < 360; x++) rgba.set([...MAGENTA, 255], (y * width + x) * 4);
  await sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toFile(path);
  return path;
}

/** The rectangle of pixels in `frame` far from the plain backdrop, inside `area`. */
function changedBox(frame: Buffer, area: { x: number; y: number; w: number; h: number }) {
  const box = { left: Infinity, top: Infinity, right: -1, bottom: -1 };
  for (let y = area.y; y < area.y + area.h; y++)
    for (let x = area.x; x < area.x + area.w; x++) {
      const [r, g, b] = pixel(frame, x, y, FRAME.width);
      if (Math.abs(r - BACKDROP[0]) + Math.abs(g - BACKDROP[1]) + Math.abs(b - BACKDROP[2]) <= 30) continue;
      box.left = Math.min(box.left, x);
      box.top = Math.min(box.top, y);
      box.right = Math.max(box.right, x);
      box.bottom = Math.max(box.bottom, y);
    }
  return box;
}

const near = (actual: readonly number[], expected: readonly number[], tolerance: number) =>
  actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);

describe('image layers on real frames', () => {
  it('draw the logo at its corner inside the margins, at its size and opacity, its transparency kept; a windowed layer only in its window', async () => {
    const work = dir();
    const logoPath = await framedLogo(join(work, 'logo.png'));
    const plain = join(work, 'plain.png');
    await sharp({ create: { width: 1280, height: 720, channels: 3, background: { r: BACKDROP[0], g: BACKDROP[1], b: BACKDROP[2] } } })
      .png()
      .toFile(plain);
    const logo = await inspectImage(logoPath);
    const clip = await renderClip({
      bot: BUILT_IN_BOTS[0]!,
      voice: AVA_VOICE,
      text: 'Hello there, this clip shows a logo in each corner and one for a second only.',
      position: 'center',
      removeBotBackground: false,
      background: await inspectBackground(plain, work),
      backgroundVolume: 0,
      transitions: {},
      frame: FRAME,
      mode: 'video',
      workDir: work,
      speech: new EspeakSpeechEngine(),
      imageLayers: [
        { image: logo, position: 'top-right', size: 0.25, opacity: 1 },
        { image: Promise.resolve(logo), position: 'bottom-left', size: 0.1, opacity: 0.5 },
        { image: logo, position: 'top-left', size: 0.2, opacity: 1, start: 1, end: 2 },
      ],
    });
    expect(clip.durationSeconds).toBeGreaterThan(3);
    const margin = safeMarginOf(FRAME);
    const quadrant = (x: number, y: number) => ({ x, y, w: 440, h: 240 });

    const during = await frameRgb(clip.path, 1.5);
    // Top-right: 25 % of 1280 = 320 px wide (scale 0.8), a margin in from the top and right edges; what shows is the
    // magenta inside the transparent border (40 px of the picture, 32 px drawn), with nothing dark around it.
    const big = imageBoxOf(FRAME, logo, 'top-right', 0.25);
    expect(big).toEqual({ x: 1280 - 320 - margin, y: margin, width: 320, height: 160 });
    const shown = changedBox(during, quadrant(840, 0));
    expect(Math.abs(shown.left - (big.x + 32))).toBeLessThanOrEqual(2);
    expect(Math.abs(shown.right - (big.x + big.width - 33))).toBeLessThanOrEqual(2);
    expect(Math.abs(shown.top - (big.y + 32))).toBeLessThanOrEqual(2);
    expect(Math.abs(shown.bottom - (big.y + big.height - 33))).toBeLessThanOrEqual(2);
    expect(near(pixel(during, big.x + 160, big.y + 80), MAGENTA, 12)).toBe(true);
    // The transparent border is the backdrop, not black.
    expect(near(pixel(during, big.x + 10, big.y + 10), BACKDROP, 6)).toBe(true);
    expect(near(pixel(during, big.x + 160, big.y + 150), BACKDROP, 6)).toBe(true);

    // Bottom-left at half opacity: magenta and the backdrop, half and half.
    const faint = imageBoxOf(FRAME, logo, 'bottom-left', 0.1);
    expect(faint).toMatchObject({ x: margin, y: 720 - 64 - margin, width: 128, height: 64 });
    const half = MAGENTA.map((c, i) => (c + BACKDROP[i]!) / 2);
    expect(near(pixel(during, faint.x + 64, faint.y + 32), half, 14)).toBe(true);
    expect(near(pixel(during, faint.x + 4, faint.y + 4), BACKDROP, 6)).toBe(true);

    // Top-left, drawn from 1 s to 2 s only: there in the middle of its window, gone before and after it.
    const windowed = imageBoxOf(FRAME, logo, 'top-left', 0.2);
    const centre = [windowed.x + windowed.width / 2, windowed.y + windowed.height / 2] as const;
    expect(near(pixel(during, ...centre), MAGENTA, 12)).toBe(true);
    expect(Math.abs(changedBox(during, quadrant(0, 0)).left - (windowed.x + 26))).toBeLessThanOrEqual(2);
    // Its edges blend magenta into the backdrop, no pixel darker than both: the black of its transparent pixels
    // does not bleed in while it is scaled (0.64 times here).
    const luma = ([r, g, b]: readonly number[]) => 0.299 * r! + 0.587 * g! + 0.114 * b!;
    let darkest = 255;
    for (let y = windowed.y; y < windowed.y + windowed.height; y++)
      for (let x = windowed.x; x < windowed.x + windowed.width; x++) darkest = Math.min(darkest, luma(pixel(during, x, y, FRAME.width)));
    expect(darkest).toBeGreaterThan(Math.min(luma(BACKDROP), luma(MAGENTA)) - 15); // 82 here; 67 with the fringe
    for (const seconds of [0.5, 2.5, clip.durationSeconds - 0.05]) {
      const outside = await frameRgb(clip.path, seconds);
      expect(changedBox(outside, quadrant(0, 0)).right, `at ${seconds} s`).toBe(-1);
      // The logo without a window is there all the time.
      expect(near(pixel(outside, big.x + 160, big.y + 80), MAGENTA, 12)).toBe(true);
    }
    // It fades in: a few frames into its window it is part way.
    const fading = pixel(await frameRgb(clip.path, 1.1), ...centre);
    expect(near(fading, MAGENTA, 12) || near(fading, BACKDROP, 6)).toBe(false);
  }, 120_000);

  it('never enlarge a small picture more than twice, and keep a tall one inside the frame', () => {
    expect(imageBoxOf(FRAME, { width: 50, height: 50 }, 'top-right', 0.3)).toMatchObject({ width: 100, height: 100 });
    const tall = imageBoxOf(FRAME, { width: 100, height: 1000 }, 'center', 0.3);
    expect(tall.height).toBe(720 - 2 * safeMarginOf(FRAME));
    expect(tall.y).toBe(safeMarginOf(FRAME));
  });
});

describe('fetchImage', () => {
  async function failure(url: string, mode: Mode = 'local'): Promise<JobFailedError> {
    const work = dir();
    const error = await fetchImage(url, join(work, 'logo'), mode, LOGO).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JobFailedError);
    assertPublicMessage((error as JobFailedError).message, 'JobFailedError');
    expect((error as JobFailedError).message).not.toMatch(/127\.0\.0\.1|secret|ffmpeg/);
    return error as JobFailedError;
  }

  it('takes a PNG, a JPEG and a WebP; refuses a missing file, a declared-huge PNG, an SVG, a GIF, HTML and a private address', async () => {
    const work = dir();
    const png = await framedLogo(join(work, 'logo.png'));
    const jpeg = join(work, 'logo.jpg');
    await sharp(png).flatten({ background: '#ffffff' }).jpeg().toFile(jpeg);
    const webp = join(work, 'logo.webp');
    await sharp(png).webp().toFile(webp);
    const gif = join(work, 'logo.gif');
    await sharp(png).gif().toFile(gif);
    const svg = join(work, 'logo.svg');
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect width="100" height="50"/></svg>');
    const html = join(work, 'page.html');
    writeFileSync(html, '<!doctype html><html><body>Not found</body></html>');
    const server = await startFileServer({
      '/logo.png': png,
      '/logo.jpg': jpeg,
      '/logo.webp': webp,
      '/logo.gif': gif,
      '/logo.svg': svg,
      '/page.html': html,
      '/bomb.png': writeDeclaredSizePng(join(work, 'bomb.png'), 30000, 30000),
    });
    try {
      for (const [name, demuxer] of [
        ['logo.png', 'png_pipe'],
        ['logo.jpg', 'jpeg_pipe'],
        ['logo.webp', 'webp_pipe'],
      ] as const) {
        const media = await fetchImage(`${server.base}/${name}`, join(dir(), 'logo'), 'local', LOGO);
        expect(media).toMatchObject({ format: { demuxer }, width: 400, height: 200 });
      }
      expect(await failure(`${server.base}/missing.png?sig=secret`)).toMatchObject({
        code: 'logo_unavailable',
        message: 'the URL of the logo answered HTTP 404',
      });
      expect(await failure(`${server.base}/bomb.png`)).toMatchObject({
        code: 'logo_invalid',
        message: 'the logo is 30000x30000 pixels; at most 8192 pixels on either side are accepted',
      });
      expect(await failure(`${server.base}/logo.svg`)).toMatchObject({ code: 'logo_invalid', message: expect.stringMatching(/^the logo is an SVG/) });
      expect(await failure(`${server.base}/logo.gif`)).toMatchObject({ code: 'logo_invalid', message: expect.stringMatching(/^the logo is a GIF/) });
      expect(await failure(`${server.base}/page.html`)).toMatchObject({
        code: 'logo_invalid',
        message: 'the logo is not a PNG, JPEG or WebP image',
      });
      expect(await failure(`${server.base}/logo.png`, 'cloud')).toMatchObject({ code: 'logo_not_allowed' });
    } finally {
      await server.stop();
    }
  });

  it('refuses a file whose header is a PNG but whose picture does not decode', async () => {
    const work = dir();
    const broken = join(work, 'broken.png');
    // A PNG signature and header, then garbage where the picture should be.
    const png = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#ff0000' } })
      .png()
      .toBuffer();
    writeFileSync(broken, Buffer.concat([png.subarray(0, 33), Buffer.alloc(200, 0x41)]));
    await expect(inspectImage(broken)).rejects.toThrow(/could not be decoded/);
  });
});
