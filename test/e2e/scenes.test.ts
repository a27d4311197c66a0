/**
 * A video with a logo through the whole local service: the logo (a PNG with a transparent border, served by a
 * test server) is drawn at its corner on every clip, its border showing the background; GET shows it; a logo
 * that is not there fails the video with logo_unavailable in the API's words.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageBoxOf } from '#functions/render/engine/image-layers.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import type { TestRuntime } from '../support/harness.ts';
import { colourDistance, frameRgb, pixel } from '../support/render-media.ts';
import { apiOf, type E2eService, finishedVideo, startE2eService, stopE2eService } from '../support/service.ts';

const FRAME = { width: 1280, height: 720 };
const BACKGROUND = [0x20, 0xc0, 0x40] as const;
const MAGENTA = [255, 0, 255] as const;

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
let work: string;
let logos: Awaited<ReturnType<typeof startFileServer>>;

beforeAll(async () => {
  ({ app, files, receiver, work } = await startE2eService('vidbot-e2e-scenes-', { seconds: 3, pattern: 'solid', color: '0x20c040' }));
  // 300x150: a 30 px transparent (black) border around opaque magenta.
  const [width, height] = [300, 150];
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 30; y < 120; y++) for (let x = 30; x < 270; x++) rgba.set([...MAGENTA, 255], (y * width + x) * 4);
  const logo = join(work, 'logo.png');
  await sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toFile(logo);
  logos = await startFileServer({ '/logo.png': logo });
}, 180_000);
afterAll(async () => {
  await logos?.stop();
  await stopE2eService({ app, files, receiver });
});

const api = apiOf(() => app);

async function create(fields: Record<string, unknown>): Promise<string> {
  const response = await api('/v1/create_video', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook: receiver.url, ...fields }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { video_id: string }).video_id;
}

describe('a video with a logo', () => {
  it('draws it at its corner in every clip, its transparent border showing the background', async () => {
    const logo = { url: `${logos.base}/logo.png`, position: 'top-left', size: 0.2 };
    const videoId = await create({
      logo,
      clips: [
        { bot_uid: 'bot_ava', text: 'First.', bot_position: 'bottom-right', background: `${files.base}/background.mp4` },
        { bot_uid: 'bot_leo', text: 'Second.', bot_position: 'bottom-right', background: `${files.base}/background.mp4` },
      ],
    });
    const { event, video } = await finishedVideo({ receiver }, api, videoId);
    expect(event.data.status).toBe('completed');
    expect(video.logo).toEqual({ ...logo, opacity: 1 });

    const path = join(work, 'logo.mp4');
    await writeFile(path, Buffer.from(await (await fetch(video.output.download_url)).arrayBuffer()));
    const box = imageBoxOf(FRAME, { width: 300, height: 150 }, 'top-left', 0.2);
    const [first, second] = video.clips.map((c: { duration_seconds: number }) => c.duration_seconds) as number[];
    for (const seconds of [first! / 2, first! + second! / 2]) {
      const rgb = await frameRgb(path, seconds);
      expect(colourDistance(pixel(rgb, box.x + box.width / 2, box.y + box.height / 2), MAGENTA), `${seconds} s`).toBeLessThan(30);
      expect(colourDistance(pixel(rgb, box.x + 4, box.y + 4), BACKGROUND), `${seconds} s`).toBeLessThan(30);
      // Nothing at the opposite corner.
      expect(colourDistance(pixel(rgb, FRAME.width - box.x - box.width / 2, box.y + box.height / 2), BACKGROUND)).toBeLessThan(30);
    }
  }, 150_000);

  it('whose file is not there fails with logo_unavailable, in our words', async () => {
    const videoId = await create({ logo: { url: `${logos.base}/missing.png?token=secret` }, clips: [{ bot_uid: 'bot_ava', text: 'Hi.' }] });
    const { event } = await finishedVideo({ receiver }, api, videoId);
    expect(event.data).toMatchObject({ status: 'failed', error: { code: 'logo_unavailable', clip_index: 0 } });
    expect(event.data.error!.message).toBe('clip 0: the URL of the logo answered HTTP 404');
  }, 150_000);

  it('a bad field is a 400 naming its path', async () => {
    const response = await api('/v1/create_video', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        webhook: receiver.url,
        clips: `[{"bot_uid": 'bot_ava', "text": 'Hi'}]`,
        logo: JSON.stringify({ url: `${logos.base}/logo.png`, size: 0.9 }),
      }).toString(),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error.details).toEqual([{ path: 'logo.size', message: 'must be between 0.05 and 0.3' }]);
  });
});
