/**
 * Text overlays and a theme through the local service, as a caller sends them from a form: a bad overlay is a 400
 * naming its field; a good one is stored, shown back, and drawn in the finished video in the theme's colour
 * during its window only.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../support/events.ts';
import type { TestRuntime } from '../support/harness.ts';
import { frameRgb, pixel } from '../support/render-media.ts';
import { apiOf, type E2eService, finishedVideo, startE2eService, stopE2eService } from '../support/service.ts';

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
let work: string;

beforeAll(async () => {
  ({ app, files, receiver, work } = await startE2eService('vidbot-e2e-overlays-', { seconds: 3 }));
}, 180_000);
afterAll(() => stopE2eService({ app, files, receiver }));

const api = apiOf(() => app);

async function post(fields: Record<string, string>) {
  const { body, contentType } = await multipart({ ...fields, webhook: receiver.url });
  return api('/v1/create_video', { method: 'POST', headers: { 'content-type': contentType }, body });
}

describe('text overlays, end to end', () => {
  it('refuses a bad overlay with the path of its field', async () => {
    const response = await post({
      clips: JSON.stringify([{ bot_uid: 'bot_ava', text: 'Hi', overlays: [{ type: 'text', text: 'x', style: 'title', start: 2, end: 1 }] }]),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { details: { path: string; message: string }[] } };
    expect(error.details).toEqual([{ path: 'clips[0].overlays[0].end', message: 'must be after start' }]);
  });

  it("draws a title in the theme's colour during its window, and shows the overlays and theme back", async () => {
    const response = await post({
      theme: JSON.stringify({ text_color: '#ff00ff' }),
      clips: JSON.stringify([
        {
          bot_uid: 'bot_ava',
          text: 'A title shows above me for a moment, then it goes.',
          bot_position: 'bottom-right',
          overlays: [{ type: 'text', text: 'HELLO {\\b1}', style: 'title', position: 'top_center', start: 0.2, end: 1.2 }],
        },
      ]),
    });
    expect(response.status).toBe(202);
    const { video_id: videoId } = (await response.json()) as { video_id: string };
    const { video } = await finishedVideo({ receiver }, api, videoId);
    expect(video.status).toBe('completed');
    expect(video.theme).toEqual({ font: 'inter', primary_color: '#2B59C3', text_color: '#FF00FF' });
    expect(video.clips[0].overlays).toEqual([{ type: 'text', text: 'HELLO {\\b1}', style: 'title', start: 0.2, end: 1.2, position: 'top-center' }]);

    const path = join(work, 'overlays.mp4');
    await writeFile(path, Buffer.from(await (await fetch(video.output.download_url)).arrayBuffer()));
    const magentaAtTop = async (seconds: number) => {
      const frame = await frameRgb(path, seconds);
      let n = 0;
      for (let y = 0; y < 216; y++)
        for (let x = 0; x < 1280; x++) {
          const [r, g, b] = pixel(frame, x, y);
          if (r > 200 && g < 80 && b > 200) n++;
        }
      return n;
    };
    expect(await magentaAtTop(0.7)).toBeGreaterThan(1000);
    expect(await magentaAtTop(1.8)).toBe(0);
  }, 120_000);
});
