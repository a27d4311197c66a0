/**
 * An attack on a render's memory: ten image overlays of an 8000x4000 PNG (a flat colour, about 100 KB each on
 * disk) can drive one 1-s clip's ffmpeg processes to about 4 GB. A clip's pictures therefore declare at most
 * limits.maxClipPicturePixels in all, are decoded one at a time and are scaled to their box when fetched, so the
 * render's filter graph never holds a full picture. Here: that request fails its clip with
 * `clip_pictures_too_large` in seconds, and the worst clip the limits allow (ten overlays of a tenth of the budget
 * each) renders with the summed RSS of its ffmpeg processes, sampled from /proc, far under half of the render
 * function's 3008 MB.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { JobFailedError } from '#domain/errors';
import { limits } from '#domain/limits';
import { PictureBudget } from '#domain/picture-budget';
import { overlayImageSubject } from '#functions/media/remote-media.ts';
import { imageFitOf } from '#functions/render/engine/image-layers.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { fetchImage } from '../../support/fetch-then-inspect.ts';
import { writeDeclaredSizePng } from '../../support/hostile-media.ts';
import { AVA_VOICE, FRAME, workDirs } from '../../support/media-pipeline.ts';
import { peakChildrenRss } from '../../support/process-memory.ts';
import { assertPublicMessage } from '../../support/public-errors.ts';
import { frameRgb, pixel } from '../../support/render-media.ts';

const dir = workDirs();
/** The render function's memory (infra/wiring.ts); the render may use at most half of it for its media. */
const RENDER_MEMORY_BYTES = 3008 * 1024 * 1024;
const SIZE = 0.1;
let server: Awaited<ReturnType<typeof startFileServer>>;

const flatPng = async (path: string, width: number, height: number) => {
  await sharp({ create: { width, height, channels: 4, background: { r: 255, g: 0, b: 255, alpha: 1 } } })
    .png({ compressionLevel: 9 })
    .toFile(path);
  return path;
};

beforeAll(async () => {
  const work = dir();
  // The worst a clip may ask for: ten pictures of a tenth of the budget each (4000x2500 = 10 million pixels).
  const side = Math.floor(Math.sqrt((limits.maxClipPicturePixels / 10) * 1.6));
  server = await startFileServer({
    // Its header is all the budget reads: a file declaring 8000x4000 with no picture data stands for the issue's
    // (ffmpeg decodes it as a black picture of that size, at the same cost).
    '/huge.png': writeDeclaredSizePng(join(work, 'huge.png'), 8000, 4000),
    '/worst.png': await flatPng(join(work, 'worst.png'), side, Math.floor(limits.maxClipPicturePixels / 10 / side)),
  });
}, 60_000);
afterAll(() => server?.stop());

/** The clip job's fetches of ten overlay images, side by side, against one clip's budget. */
const fetchTen = (name: string, work: string) => {
  const budget = new PictureBudget();
  return Array.from({ length: 10 }, (_, i) =>
    fetchImage(`${server.base}/${name}`, join(work, `image-${i}`), 'local', overlayImageSubject(i), imageFitOf(FRAME, SIZE), budget),
  );
};

describe("a clip's picture budget", () => {
  it('fails ten 8000x4000 overlays with clip_pictures_too_large from their headers, decoding none past the budget', async () => {
    const started = Date.now();
    const { result: settled, peakBytes } = await peakChildrenRss(() => Promise.allSettled(fetchTen('huge.png', dir())));
    const seconds = (Date.now() - started) / 1000;
    const refused = settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason as JobFailedError);
    // 100 million pixels hold three 8000x4000 pictures (96 million): the seven others are refused from their
    // headers, and of the three, those still waiting for their turn to decode never start (the clip fails).
    const overBudget = refused.filter((f) => f.code === 'clip_pictures_too_large');
    expect(overBudget.length).toBeGreaterThanOrEqual(9);
    for (const failure of refused) {
      expect(failure).toBeInstanceOf(JobFailedError);
      assertPublicMessage(failure.message, 'JobFailedError');
    }
    expect(overBudget[0]!.message).toMatch(/declare 1\d\d\.\d million pixels in all; a clip may have at most 100 million/);
    console.log(`picture budget: ten 8000x4000 overlays refused in ${seconds.toFixed(1)} s, ffmpeg peak ${(peakBytes / 2 ** 20).toFixed(0)} MiB`);
    expect(peakBytes).toBeLessThan(RENDER_MEMORY_BYTES / 2);
  }, 60_000);

  it('renders the worst clip the limits allow with its ffmpeg processes far under half the render memory', async () => {
    const work = dir();
    const { result: clip, peakBytes } = await peakChildrenRss(async () => {
      const images = fetchTen('worst.png', work);
      const ready = await Promise.all(images);
      // Each picture arrives at its box's size: the render never sees the 10-million-pixel original.
      for (const image of ready) expect(image.width).toBeLessThanOrEqual(Math.ceil(SIZE * FRAME.width));
      return renderClip({
        bot: BUILT_IN_BOTS[0]!,
        voice: AVA_VOICE,
        text: 'Hi.',
        position: 'center',
        removeBotBackground: false,
        backgroundVolume: 0,
        transitions: {},
        frame: FRAME,
        mode: 'video',
        workDir: work,
        speech: new EspeakSpeechEngine(),
        imageLayers: ready.map((image, i) => ({
          image,
          position: (['top-left', 'top-right', 'bottom-left', 'bottom-right', 'center'] as const)[i % 5]!,
          size: SIZE,
          opacity: 1,
        })),
      });
    });
    console.log(
      `picture budget: worst allowed clip (ten ${limits.maxClipPicturePixels / 1e7}-million-pixel overlays) rendered, ffmpeg peak ${(peakBytes / 2 ** 20).toFixed(0)} MiB`,
    );
    expect(peakBytes).toBeLessThan(RENDER_MEMORY_BYTES / 2);
    // The overlays are drawn: magenta in the top-left corner's box.
    const frame = await frameRgb(clip.path, 0.2);
    const [r, g, b] = pixel(frame, Math.round(FRAME.width * 0.07), Math.round(FRAME.height * 0.1), FRAME.width);
    expect([r, g, b]).toEqual([expect.closeTo(255, -1.5), expect.closeTo(0, -1.5), expect.closeTo(255, -1.5)]);
  }, 120_000);
});
