/**
 * The README's scene, as a new user sends it, through the whole local service: a bot made from a photo by URL, then
 * a 9:16 video with that presenter at `full` size, a logo top-right, a lower third for the first 4 s, the `calm`
 * music bed, and a break in the text. The frames show each layer where it was asked (the lower third only in its
 * 4 s, over the presenter's bust; the logo in its corner inside the margins; the presenter standing on the bottom
 * edge, tall), the captions
 * never show the markup, and the music is heard in the silences. (How far the music drops under speech is measured
 * with a tone in test/e2e/music.test.ts and test/integration/render/music.test.ts.)
 * (docs/scene.png, the same scene's real frames, comes from test/e2e/readme.test.ts.)
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameSizeOf } from '#domain/shape';
import { imageBoxOf } from '#functions/render/engine/image-layers.ts';
import { safeMarginOf } from '#functions/render/engine/layout.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { PORTRAIT } from '../support/bots-e2e.ts';
import type { TestRuntime } from '../support/harness.ts';
import { audioSamples, colourDistance, dbfs, frameRgb, pixel, rms } from '../support/render-media.ts';
import { apiOf, type E2eService, finishedVideo, startE2eService, stopE2eService } from '../support/service.ts';

const FRAME = frameSizeOf({ aspectRatio: '9:16', resolution: '720p' });
const BACKGROUND = [0x20, 0xc0, 0x40] as const;
const MAGENTA = [255, 0, 255] as const;

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
let work: string;
let served: Awaited<ReturnType<typeof startFileServer>>;

beforeAll(async () => {
  ({ app, files, receiver, work } = await startE2eService('vidbot-e2e-scene-', { seconds: 3, pattern: 'solid', color: '0x20c040' }));
  // A logo: opaque magenta inside a transparent border, 240x120.
  const [width, height] = [240, 120];
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 20; y < 100; y++) for (let x = 20; x < 220; x++) rgba.set([...MAGENTA, 255], (y * width + x) * 4);
  const logo = join(work, 'logo.png');
  await sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toFile(logo);
  const portrait = join(work, 'portrait.jpg');
  await writeFile(portrait, PORTRAIT);
  served = await startFileServer({ '/logo.png': logo, '/portrait.jpg': portrait });
}, 180_000);
afterAll(async () => {
  await served?.stop();
  await stopE2eService({ app, files, receiver });
});

const api = apiOf(() => app);
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The share of pixels of a row that are not the background's green. */
function shareNotBackground(rgb: Buffer, y: number, from: number, to: number): number {
  let count = 0;
  for (let x = from; x < to; x++) if (colourDistance(pixel(rgb, x, y, FRAME.width), BACKGROUND) > 60) count++;
  return count / (to - from);
}

describe("the README's scene", () => {
  it('draws a full presenter from a photo, a logo top-right, a lower third for 4 s, and plays a music bed', async () => {
    const put = await api('/v1/bot/host', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Host', image_url: `${served.base}/portrait.jpg`, webhook: receiver.url }),
    });
    expect(put.status).toBe(202);
    for (let i = 0; i < 600 && !receiver.delivered().some((r) => r.event?.type === 'bot.ready'); i++) await new Promise((r) => setTimeout(r, 200));
    expect(receiver.delivered().map((r) => r.event?.type)).toContain('bot.ready');

    const created = await api(
      '/v1/bot',
      json({
        webhook: receiver.url,
        aspect_ratio: '9:16',
        logo: { url: `${served.base}/logo.png`, position: 'top-right' },
        music: { preset: 'calm' },
        clips: [
          {
            bot_uid: 'host',
            bot_size: 'full',
            transitions: 'fade_in fade_out',
            background: `${files.base}/background.mp4`,
            background_volume: 0,
            text: 'Hi! <break time="300ms"/> Here is what is new this week: three things you asked for, and one surprise.',
            overlays: [{ type: 'text', style: 'lower_third', text: 'Ana Pérez · Host', end: 4 }],
          },
        ],
      }),
    );
    expect(created.status).toBe(202);
    const { video_id: videoId } = (await created.json()) as { video_id: string };
    const { event, video } = await finishedVideo({ receiver }, api, videoId);
    expect(event.type, JSON.stringify(video.error)).toBe('video.completed');
    expect(video.clips[0].duration_seconds).toBeGreaterThan(6);

    const path = join(work, 'scene.mp4');
    await writeFile(path, Buffer.from(await (await fetch(video.output.download_url)).arrayBuffer()));
    const [withLowerThird, without] = [await frameRgb(path, 2, FRAME.width, FRAME.height), await frameRgb(path, 5.5, FRAME.width, FRAME.height)];

    // The logo, top-right inside the safe margins, on both frames.
    // 0.12 of the frame's longer side: its height in 9:16.
    const logo = imageBoxOf(FRAME, { width: 240, height: 120 }, 'top-right', (0.12 * FRAME.height) / FRAME.width);
    expect(logo.x + logo.width).toBeLessThanOrEqual(FRAME.width - safeMarginOf(FRAME));
    for (const rgb of [withLowerThird, without])
      expect(
        colourDistance(pixel(rgb, Math.round(logo.x + logo.width / 2), Math.round(logo.y + logo.height / 2), FRAME.width), MAGENTA),
      ).toBeLessThan(40);

    // The presenter is the subject: standing on the bottom edge, its figure reaching far up the frame.
    const middle = Math.round(FRAME.width / 2);
    expect(shareNotBackground(without, FRAME.height - 3, middle - 60, middle + 60)).toBeGreaterThan(0.9);
    let top = FRAME.height - 1;
    while (top > 0 && shareNotBackground(without, top - 1, middle - 40, middle + 40) > 0.5) top--;
    expect((FRAME.height - top) / FRAME.height, 'the presenter reaches from the bottom edge').toBeGreaterThan(0.45);

    // The lower third: at 2 s, gone at 5.5 s, at the frame's left, clear of the full presenter's face (under its
    // chin when the safe area has room there, beside its head when it has not). Its rows are those where most of
    // the left half differs between the two frames (the mouth and a breath move only a few pixels of a row); across
    // the rest of those rows, where the face is, little differs.
    const changedShare = (y: number, x0: number, x1: number) => {
      let changed = 0;
      let total = 0;
      for (let x = Math.round(x0); x < Math.round(x1); x += 2, total++)
        if (colourDistance(pixel(withLowerThird, x, y, FRAME.width), pixel(without, x, y, FRAME.width)) > 80) changed++;
      return changed / total;
    };
    const band: number[] = [];
    for (let y = 0; y < FRAME.height; y++) if (changedShare(y, FRAME.width * 0.05, FRAME.width * 0.5) > 0.3) band.push(y);
    expect(band.length, 'the lower third shows at 2 s and is gone at 5.5 s').toBeGreaterThan(FRAME.height * 0.02);
    const beside = band.reduce((sum, y) => sum + changedShare(y, FRAME.width * 0.6, FRAME.width * 0.95), 0) / band.length;
    expect(beside, 'the lower third covers nothing of the face beside it').toBeLessThan(0.1);

    // The captions never show the markup.
    const vtt = await (await fetch(video.output.captions.vtt_url)).text();
    const shown = vtt
      .split('\n')
      .filter((line) => !line.includes('-->'))
      .join(' ');
    expect(shown).toContain('Hi!');
    expect(shown).not.toMatch(/break|<|>/);

    // The music bed is heard in the first clip's fade-in, where nobody speaks (the preset fades in over 2 s).
    const quiet = await audioSamples(path, { start: 0.35, duration: 0.2 });
    expect(dbfs(rms(quiet)), 'the music in the entry transition').toBeGreaterThan(-60);
    expect(video.music).toEqual({ preset: 'calm', volume: 0.25 });
  }, 300_000);
});
