/**
 * The video's logo through the render pipeline (dynalite, stand-ins for the media steps): it reaches every clip's
 * render as an image layer downloaded beside the speech, it is part of the render-cache key, a kept clip takes
 * the logo of the video it joins, a voice fetches none, a logo that cannot be fetched fails the video with its
 * own code, and GET /v1/video/{id} shows it.
 */

import { describe, expect, it } from 'vitest';
import { runQueueJob } from '#commons/jobs';
import { JobFailedError } from '#domain/errors';
import { toPublicVideo } from '#functions/commons/presenters/video.ts';
import { LOGO, overlayImageSubject } from '#functions/media/remote-media.ts';
import { renderJob } from '#functions/render/clip-job.ts';
import {
  caller,
  clipDeps,
  counter,
  fetchImage,
  renderClip,
  renderQueue,
  submit,
  urlFetchedAt,
  useRenderPipeline,
  videoInput,
  videos,
} from '../../support/render-pipeline.ts';

const clock = new Date('2026-11-22T10:00:00Z');
useRenderPipeline(() => clock);

const LOGO_URL = 'https://cdn.test/logo.png';

async function renderAll() {
  for (const message of renderQueue.take()) await runQueueJob(renderJob, message, 1, 3, clipDeps);
  return (await videos.get(`vid_test${counter}`))!;
}

describe('the logo', () => {
  it('is fetched for every clip and handed to its render as an image layer, with its defaults', async () => {
    await submit(
      [
        { bot_uid: 'bot_ava', text: 'First with a logo' },
        { bot_uid: 'bot_leo', text: 'Second with a logo' },
      ],
      true,
      caller,
      { logo: JSON.stringify({ url: LOGO_URL, position: 'bottom-left', opacity: 0.8 }) },
    );
    const video = await renderAll();
    expect(video.renderedCount).toBe(2);
    expect(fetchImage).toHaveBeenCalledTimes(2);
    expect(await Promise.all(fetchImage.mock.calls.map(async ([key, , subject]) => [await urlFetchedAt(key), subject]))).toEqual([
      [LOGO_URL, LOGO],
      [LOGO_URL, LOGO],
    ]);
    for (const [call] of renderClip.mock.calls) {
      const input = videoInput(call);
      expect(input.imageLayers).toHaveLength(1);
      const [layer] = input.imageLayers!;
      expect(layer).toMatchObject({ position: 'bottom-left', size: 0.12, opacity: 0.8 });
      expect(await layer!.image).toMatchObject({ format: { demuxer: 'png_pipe' }, width: 400 });
    }
    expect(toPublicVideo(video, 'https://api.test').logo).toEqual({ url: LOGO_URL, position: 'bottom-left', size: 0.12, opacity: 0.8 });
  });

  it('is part of the render-cache key: each of its fields makes another render; the same logo is found again', async () => {
    const clip = { bot_uid: 'bot_maya', text: 'Cache me with a logo' };
    const hashes: string[] = [];
    const logos = [
      undefined,
      { url: LOGO_URL },
      { url: 'https://cdn.test/other.png' },
      { url: LOGO_URL, position: 'top-left' },
      { url: LOGO_URL, size: 0.2 },
      { url: LOGO_URL, opacity: 0.5 },
    ];
    for (const logo of logos) {
      await submit([clip], true, caller, logo ? { logo } : {});
      hashes.push((await renderAll()).clipResults['0']!.contentHash!);
    }
    expect(new Set(hashes).size).toBe(logos.length);
    expect(renderClip).toHaveBeenCalledTimes(logos.length);
    // The same logo, its fields given in another order and its defaults spelled out: the render is found.
    await submit([clip], true, caller, { logo: { opacity: 1, size: 0.12, position: 'top-right', url: LOGO_URL } });
    const again = await renderAll();
    expect(again.clipResults['0']).toMatchObject({ cached: true, contentHash: hashes[1] });
    expect(renderClip).toHaveBeenCalledTimes(logos.length);
  });

  it("a kept clip takes the logo of the video it joins, not its first video's", async () => {
    await submit([{ bot_uid: 'bot_otto', text: 'Kept with a logo', reusable_clip: true }], true, caller, { logo: { url: LOGO_URL } });
    await renderAll();
    const kept = (await clipDeps.clips.list('acct_1', { limit: 10 })).items.find((c) => c.spec.text === 'Kept with a logo')!;

    await submit([{ clip_uid: kept.clipUid }]);
    const bare = await renderAll();
    expect(bare.clips[0]!.logo).toBeUndefined();
    expect(videoInput(renderClip.mock.lastCall![0]).imageLayers).toEqual([]);

    await submit([{ clip_uid: kept.clipUid }], true, caller, { logo: { url: 'https://cdn.test/new.png', position: 'center' } });
    const relogoed = await renderAll();
    expect(relogoed.clips[0]!.logo).toEqual({ url: 'https://cdn.test/new.png', position: 'center', size: 0.12, opacity: 1 });
    expect(await urlFetchedAt(fetchImage.mock.lastCall![0])).toBe('https://cdn.test/new.png');
    expect(renderClip).toHaveBeenCalledTimes(3);

    await submit([{ clip_uid: kept.clipUid }], true, caller, { logo: { url: LOGO_URL } });
    expect((await renderAll()).clipResults['0']).toMatchObject({ cached: true, contentHash: kept.contentHash });
    expect(renderClip).toHaveBeenCalledTimes(3);
  });

  it('a voice draws no picture: its logo is not fetched', async () => {
    await submit([{ bot_uid: 'bot_ava', text: 'Only a voice' }], false, caller, { logo: { url: LOGO_URL } });
    expect((await renderAll()).renderedCount).toBe(1);
    expect(fetchImage).not.toHaveBeenCalled();
    expect(renderClip.mock.lastCall![0]).toMatchObject({ mode: 'voice' });
    expect(renderClip.mock.lastCall![0]).not.toHaveProperty('imageLayers');
  });

  it('a logo that cannot be fetched fails the video with its own code and words', async () => {
    fetchImage.mockRejectedValueOnce(new JobFailedError('logo_unavailable', 'the URL of the logo answered HTTP 404'));
    await submit([{ bot_uid: 'bot_ava', text: 'Broken logo' }], true, caller, { logo: { url: LOGO_URL } });
    const video = await renderAll();
    expect(video).toMatchObject({ status: 'failed', error: { code: 'logo_unavailable', clipIndex: 0 } });
    expect(video.error!.message).toBe('clip 0: the URL of the logo answered HTTP 404');
  });

  it("a clip's image overlays are drawn under the logo, each in its window, and fail the clip with their own code", async () => {
    const overlays = [
      { type: 'text', text: 'A title', style: 'title' },
      { type: 'image', url: 'https://cdn.test/badge.png', start: 1.5, end: 4, position: 'top-left', size: 0.1 },
      { type: 'image', url: 'https://cdn.test/seal.png', position: 'bottom-right', size: 0.2, opacity: 0.5 },
    ];
    await submit([{ bot_uid: 'bot_ava', text: 'Badges and a logo', overlays }], true, caller, { logo: { url: LOGO_URL } });
    await renderAll();
    expect(await Promise.all(fetchImage.mock.calls.map(async ([key, , subject]) => [await urlFetchedAt(key), subject]))).toEqual([
      ['https://cdn.test/badge.png', overlayImageSubject(1)],
      ['https://cdn.test/seal.png', overlayImageSubject(2)],
      [LOGO_URL, LOGO],
    ]);
    const layers = videoInput(renderClip.mock.lastCall![0]).imageLayers!.map(({ image: _image, ...layer }) => layer);
    expect(layers).toEqual([
      { position: 'top-left', size: 0.1, opacity: 1, start: 1.5, end: 4 },
      { position: 'bottom-right', size: 0.2, opacity: 0.5 },
      { position: 'top-right', size: 0.12, opacity: 1 },
    ]);

    fetchImage.mockRejectedValueOnce(new JobFailedError('overlay_image_invalid', 'the image of overlay 1 is not a PNG, JPEG or WebP'));
    await submit([{ bot_uid: 'bot_ava', text: 'A broken badge', overlays: [overlays[1]] }]);
    const failed = await renderAll();
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'overlay_image_invalid', clipIndex: 0 } });
  });
});
