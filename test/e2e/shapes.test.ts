/**
 * A vertical 1080p video through the whole local service, as a new user would ask for it: the spec's sample
 * (multipart, single-quoted clips) with aspect_ratio=9:16 and resolution=1080p, over a flat background so the
 * bot can be found in the picture. The video and its poster are 1080x1920, the bot stands where each clip
 * asked, and a bad value is a 400 that names the field.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameSizeOf } from '#domain/shape';
import { type BotBox, botHeightFor, layoutFor } from '#functions/render/engine/layout.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import { multipart, SPEC_SAMPLE_FIELDS } from '../support/events.ts';
import type { TestRuntime } from '../support/harness.ts';
import { probeFile } from '../support/media.ts';
import { colourDistance, frameRgb } from '../support/render-media.ts';
import { apiOf, type E2eService, startE2eService, stopE2eService } from '../support/service.ts';

const FRAME = frameSizeOf({ aspectRatio: '9:16', resolution: '1080p' });
const BACKGROUND = [0x20, 0xc0, 0x40];

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
let work: string;

beforeAll(async () => {
  ({ app, files, receiver, work } = await startE2eService('vidbot-e2e-shapes-', { seconds: 3, pattern: 'solid', color: '0x20c040' }));
}, 180_000);
afterAll(() => stopE2eService({ app, files, receiver }));

const api = apiOf(() => app);

/** Share of the box's pixels (a fifth in from its sides) that are not the background's green. */
function shareNotBackground(rgb: Buffer, box: BotBox): number {
  const x0 = Math.round(box.x + box.width / 5),
    x1 = Math.round(box.x + (box.width * 4) / 5);
  const y0 = Math.round(box.y + box.height / 5),
    y1 = Math.round(box.y + (box.height * 4) / 5);
  let other = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * FRAME.width + x) * 3;
      if (colourDistance([rgb[i]!, rgb[i + 1]!, rgb[i + 2]!], BACKGROUND) > 60) other++;
    }
  return other / ((x1 - x0) * (y1 - y0));
}

describe('the spec sample as a 9:16 1080p video', () => {
  it('is a 1080x1920 H.264 video with a 1080x1920 poster, each bot where its clip asked', async () => {
    const fields = {
      ...SPEC_SAMPLE_FIELDS,
      webhook: receiver.url,
      aspect_ratio: '9:16',
      resolution: '1080p',
      clips: SPEC_SAMPLE_FIELDS.clips
        .replaceAll('https://www.website.com/background.mp4', `${files.base}/background.mp4`)
        .replace('Welcome to our product tour!', 'Welcome.')
        .replace('Let me show you around.', 'Here we go.')
        // Keep this clip out of the other suites' kept clips: it is of another shape.
        .replace(`"reusable_clip": true`, `"reusable_clip": false`)
        // Leo's clip asks for a large presenter (any letter case).
        .replace(`"bot_position": 'top-left'`, `"bot_position": 'top-left', "bot_size": 'Large'`),
    };
    const { body, contentType } = await multipart(fields);
    const created = await api('/v1/create_video', { method: 'POST', headers: { 'content-type': contentType }, body });
    expect(created.status).toBe(202);
    const { video_id: videoId } = (await created.json()) as { video_id: string };

    await receiver.waitForDelivered(1, 120_000);
    const event = receiver.delivered().find((r) => r.event?.data.video_id === videoId)!.event!;
    expect(event.data).toMatchObject({ status: 'completed', aspect_ratio: '9:16', resolution: '1080p' });
    const video = (await (await api(`/v1/video/${videoId}`)).json()) as any;
    expect(video).toMatchObject({ status: 'completed', aspect_ratio: '9:16', resolution: '1080p' });

    const path = join(work, 'vertical.mp4');
    await writeFile(path, Buffer.from(await (await fetch(video.output.download_url)).arrayBuffer()));
    const stream = (await probeFile(path)).streams.find((s) => s.codec_type === 'video')!;
    expect(stream).toMatchObject({ codec_name: 'h264', width: 1080, height: 1920, pix_fmt: 'yuv420p' });
    const poster = Buffer.from(await (await fetch(video.output.thumbnail_url)).arrayBuffer());
    expect(imageSize(poster)).toMatchObject({ type: 'jpg', width: 1080, height: 1920 });

    // Clip 0: bot_ava bottom-right without her card (standing on the bottom edge); clip 1: bot_leo top-left on his, large.
    const [first, second] = video.clips.map((c: { duration_seconds: number }) => c.duration_seconds) as number[];
    const avaSprites = loadSprites('ava', botHeightFor(FRAME, 'bottom-right'));
    const ava = layoutFor(FRAME, 'bottom-right', avaSprites.manifest, { removeBotBackground: true });
    const leo = layoutFor(FRAME, 'top-left', loadSprites('leo', botHeightFor(FRAME, 'top-left', 'large')).manifest, { size: 'large' });
    const mirrored = (box: BotBox): BotBox => ({ ...box, x: FRAME.width - box.x - box.width, y: FRAME.height - box.y - box.height });
    const [during0, during1] = await Promise.all([
      frameRgb(path, first! / 2, FRAME.width, FRAME.height),
      frameRgb(path, first! + second! / 2, FRAME.width, FRAME.height),
    ]);
    expect(shareNotBackground(during0, ava)).toBeGreaterThan(0.5);
    expect(shareNotBackground(during0, mirrored(ava))).toBeLessThan(0.02);
    expect(shareNotBackground(during1, leo)).toBeGreaterThan(0.85);
    expect(shareNotBackground(during1, mirrored(leo))).toBeLessThan(0.02);
  }, 150_000);

  it('a bad aspect_ratio or resolution is a 400 naming the field', async () => {
    for (const [field, value] of [
      ['aspect_ratio', '4:3'],
      ['resolution', '2160p'],
    ] as const) {
      const response = await api('/v1/bot', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ webhook: receiver.url, clips: `[{"bot_uid": 'bot_ava', "text": 'Hi'}]`, [field]: value }).toString(),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error.details).toEqual([{ path: field, message: expect.stringContaining('must be one of') }]);
    }
  });
});
