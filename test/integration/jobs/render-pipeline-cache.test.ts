/**
 * The render pipeline on dynalite, with stand-ins for the media steps: the render cache and the expiry of temporary
 * renders, kept clips stored apart, the cache per tenant, and the video's shape in the cache key.
 */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runQueueJob } from '#commons/jobs';
import { KEPT, TEMPORARY } from '#domain/bucket-layout';
import { REUSABLE_RENDER_MAX_AGE_MS } from '#domain/render-cache';
import { assembleJob } from '#functions/assemble/assemble-job.ts';
import { renderJob } from '#functions/render/clip-job.ts';
import {
  assembleDeps,
  caller,
  clipDeps,
  concat,
  counter,
  gate,
  notifyQueue,
  objects,
  renderClip,
  renderedVideo,
  renderQueue,
  submit,
  until,
  useRenderPipeline,
  videoInput,
  videos,
} from '../../support/render-pipeline.ts';

const clock = new Date('2026-11-22T10:00:00Z');
useRenderPipeline(() => clock);

describe('the render cache and the expiry of temporary renders', () => {
  it('reuses a temporary render while it is young, and renders again one close to its expiry', async () => {
    const clip = { bot_uid: 'bot_leo', text: 'Getting old in the bucket' };
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const { objectKey } = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;
    expect(objectKey).toMatch(/^renders\//);

    objects.backdate(objectKey!, new Date(clock.getTime() - REUSABLE_RENDER_MAX_AGE_MS + 3600_000));
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']).toMatchObject({ cached: true, objectKey });

    // Six and a half days old: it could expire (7 days) before this video is assembled.
    objects.backdate(objectKey!, new Date(clock.getTime() - REUSABLE_RENDER_MAX_AGE_MS - 12 * 3600_000));
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(2);
    const result = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;
    expect(result.cached).toBeUndefined();
    expect(result.objectKey).toBe(objectKey);
    // Rewritten, so its age starts again.
    expect((await objects.head(objectKey!))?.lastModified).toEqual(clock);
    expect(objects.tags.get(objectKey!)).toEqual(TEMPORARY);
  });

  it('a kept clip is stored apart: a temporary render of the same content finishing later cannot make it temporary', async () => {
    const clip = { bot_uid: 'bot_maya', text: 'Kept and temporary at once' };
    const kept = await submit([{ ...clip, reusable_clip: true, clip_name: 'Both' }]);
    const keptMessage = renderQueue.take()[0]!;
    const temporary = await submit([clip]);
    const temporaryMessage = renderQueue.take()[0]!;

    // The temporary render misses the cache and is slow; the reusable one misses it too and finishes first.
    const held = gate();
    renderClip.mockImplementationOnce(async (input) => {
      await held.opened;
      const path = join(input.workDir, 'clip.mp4');
      await writeFile(path, `${videoInput(input).bot.uid}:${input.text}`);
      return { path, contentType: 'video/mp4', durationSeconds: 2.6, cues: [], words: [] };
    });
    const slow = runQueueJob(renderJob, temporaryMessage, 1, 3, clipDeps);
    await until(() => renderClip.mock.calls.length === 1, 'the temporary render to start');
    await runQueueJob(renderJob, keptMessage, 1, 3, clipDeps);
    held.open();
    await slow;

    const keptResult = (await videos.get(kept.videoId))!.clipResults['0']!;
    const temporaryResult = (await videos.get(temporary.videoId))!.clipResults['0']!;
    const keptClip = (await clipDeps.clips.list('acct_1', { limit: 100 })).items.find((c) => c.clipName === 'Both')!;
    expect(objects.tags.get(keptClip.objectKey)).toEqual(KEPT);
    expect(keptClip.objectKey).toMatch(/^kept\//);
    expect(keptResult.objectKey).toBe(keptClip.objectKey);
    expect(temporaryResult.objectKey).toMatch(/^renders\//);
    expect(objects.tags.get(temporaryResult.objectKey!)).toEqual(TEMPORARY);
  });

  it('a reusable clip found among temporary renders is copied under kept/, and later found there first', async () => {
    const clip = { bot_uid: 'bot_otto', text: 'First temporary, then kept' };
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const renderKey = (await videos.get(`vid_test${counter}`))!.clipResults['0']!.objectKey!;

    await submit([{ ...clip, reusable_clip: true, clip_name: 'Promoted' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(1);
    const keptClip = (await clipDeps.clips.list('acct_1', { limit: 100 })).items.find((c) => c.clipName === 'Promoted')!;
    expect(keptClip.objectKey).toBe(renderKey.replace(/^renders\//, 'kept/'));
    expect(keptClip.durationSeconds).toBe(clip.text.length / 10);
    expect(objects.tags.get(keptClip.objectKey)).toEqual(KEPT);
    expect(objects.tags.get(renderKey)).toEqual(TEMPORARY);
    // Its poster goes with it, kept as well.
    const keptPoster = keptClip.objectKey.replace(/\.mp4$/, '.poster.jpg');
    expect((await objects.read(keptPoster)).toString()).toBe(`frame of bot_otto:${clip.text}`);
    expect(objects.tags.get(keptPoster)).toEqual(KEPT);

    // Even once the temporary render is too old to use, the kept clip serves the same content.
    objects.backdate(renderKey, new Date(clock.getTime() - REUSABLE_RENDER_MAX_AGE_MS - 3600_000));
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']).toMatchObject({ cached: true, objectKey: keptClip.objectKey });
  });

  it('a rendered clip gone by the time of assembly fails the video at once with render_expired', async () => {
    const { videoId, message } = await renderedVideo('Gone before assembly');
    await objects.delete((await videos.get(videoId))!.clipResults['0']!.objectKey!);
    await runQueueJob(assembleJob, message, 1, 3, assembleDeps);
    const video = await videos.get(videoId);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'render_expired', clipIndex: 0 } });
    expect(video?.error?.message).toMatch(/^clip 0: /);
    expect(concat).not.toHaveBeenCalled();
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([`evt_${videoId}_failed`]);
  });
});

describe('the render cache is per tenant', () => {
  it('an identical clip of another tenant is rendered again, never reported as cached', async () => {
    const clip = { bot_uid: 'bot_ava', text: 'Only my own renders' };
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const mine = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;

    await submit([clip], true, { tenantId: 'acct_2', keyId: 'key_2' });
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const theirs = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect(theirs.cached).toBeUndefined();
    expect(theirs.renderMs).toBeGreaterThanOrEqual(0);
    expect(theirs.contentHash).not.toBe(mine.contentHash);
    expect(theirs.objectKey).not.toBe(mine.objectKey);
  });
});

describe("the video's shape", () => {
  it('reaches the engine as the frame size, and the same clip in another shape is rendered again', async () => {
    const clip = { bot_uid: 'bot_maya', text: 'Every shape of me' };
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const landscape = (await videos.get(`vid_test${counter}`))!;
    expect(videoInput(renderClip.mock.calls.at(-1)![0]).frame).toEqual({ width: 1280, height: 720 });

    await submit([clip], true, caller, { aspect_ratio: '9:16', resolution: '1080p' });
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const vertical = (await videos.get(`vid_test${counter}`))!;
    expect(vertical.shape).toEqual({ aspectRatio: '9:16', resolution: '1080p' });
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect(videoInput(renderClip.mock.calls.at(-1)![0]).frame).toEqual({ width: 1080, height: 1920 });
    expect(vertical.clipResults['0']!.cached).toBeUndefined();
    expect(vertical.clipResults['0']!.contentHash).not.toBe(landscape.clipResults['0']!.contentHash);

    // The same shape again is a cache hit.
    await submit([clip], true, caller, { aspect_ratio: '9:16', resolution: '1080p' });
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']).toMatchObject({
      cached: true,
      contentHash: vertical.clipResults['0']!.contentHash,
    });
  });

  it('is kept with a kept clip, which joins a video of its own shape and is refused by another', async () => {
    await submit([{ bot_uid: 'bot_leo', text: 'Kept square', reusable_clip: true }], true, caller, { aspect_ratio: '1:1' });
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const kept = (await clipDeps.clips.list('acct_1', { limit: 100 })).items.find((c) => c.spec.text === 'Kept square')!;
    expect(kept.shape).toEqual({ aspectRatio: '1:1', resolution: '720p' });

    await expect(submit([{ clip_uid: kept.clipUid }])).rejects.toMatchObject({
      problems: [{ path: 'clips[0].clip_uid', message: expect.stringContaining('is 1:1 720p (720x720) and this video is 16:9 720p (1280x720)') }],
    });
    expect(renderQueue.take()).toEqual([]);

    await submit([{ clip_uid: kept.clipUid }], true, caller, { aspect_ratio: '1:1' });
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']).toMatchObject({ cached: true, objectKey: kept.objectKey });
  });
});
