/**
 * A video's music in the render pipeline (dynalite, stand-ins for the media steps; the mix itself is measured with
 * real ffmpeg in test/integration/render/music.test.ts): stored on the video and shown, laid under the joined
 * file at assembly (a one-clip video too, and a video of cached and kept clips), ducked where the cues are, and
 * never part of a clip's render-cache key.
 */

import { describe, expect, it } from 'vitest';
import { runQueueJob } from '#commons/jobs';
import { toPublicVideo } from '#commons/presenters/video';
import { assembleJob } from '#functions/assemble/assemble-job.ts';
import { renderJob } from '#functions/render/clip-job.ts';
import {
  assembleDeps,
  assembleQueue,
  clipDeps,
  concat,
  counter,
  mixMusic,
  musicBed,
  objects,
  renderClip,
  renderQueue,
  submit,
  useRenderPipeline,
  videos,
} from '../../support/render-pipeline.ts';

const clock = new Date('2026-11-25T10:00:00Z');
useRenderPipeline(() => clock);

async function renderAndAssemble(videoId: string) {
  for (const message of renderQueue.take()) await runQueueJob(renderJob, message, 1, 3, clipDeps);
  await runQueueJob(assembleJob, assembleQueue.take()[0]!, 1, 3, assembleDeps);
  const video = (await videos.get(videoId))!;
  expect(video.status).toBe('completed');
  return { video, output: (await objects.read(video.output!.objectKey)).toString() };
}

describe("a video's music", () => {
  it('is stored with its defaults and shown by GET /v1/video/{id}; a video without shows null', async () => {
    const created = await submit([{ bot_uid: 'bot_ava', text: 'With a bed' }], true, undefined, { music: { preset: 'calm' } });
    const video = (await videos.get(created.videoId))!;
    expect(video.music).toEqual({ preset: 'calm', volume: 0.25 });
    expect(toPublicVideo(video, 'https://api.test').music).toEqual({ preset: 'calm', volume: 0.25 });
    const plain = await submit([{ bot_uid: 'bot_ava', text: 'Without' }]);
    expect(toPublicVideo((await videos.get(plain.videoId))!, 'https://api.test').music).toBeNull();
    renderQueue.take();
  });

  it('is laid under the joined clips, ducked where the voices speak (their cues, shifted to each clip)', async () => {
    const url = 'https://cdn.example.com/bed.mp3';
    const created = await submit(
      [
        { bot_uid: 'bot_ava', text: 'First clip here' },
        { bot_uid: 'bot_leo', text: 'Second one' },
      ],
      true,
      undefined,
      { music: { url, volume: 0.4 } },
    );
    const { video, output } = await renderAndAssemble(created.videoId);
    // Clip durations are text.length / 10 (1.5 s, 1 s); each clip's cue runs from 0.1 s to 0.1 s before its end.
    expect(output).toBe(`bot_ava:First clip here|bot_leo:Second one + bed of ${url} for 9.0 s at 0.4 ducked at 0.1-1.4,1.6-2.4`);
    expect(video.output!.contentType).toBe('video/mp4');
  });

  it('makes a one-clip video be downloaded and mixed rather than copied', async () => {
    const created = await submit([{ bot_uid: 'bot_otto', text: 'Alone with music' }], false, undefined, {
      music: { preset: 'ambient', volume: 0.1 },
    });
    const { video, output } = await renderAndAssemble(created.videoId);
    expect(concat).not.toHaveBeenCalled();
    expect(output).toBe('voice:Alone with music + bed of ambient for 1.6 s at 0.1 ducked at 0.1-1.5');
    expect(video.output).toMatchObject({ kind: 'audio', contentType: 'audio/mpeg', durationSeconds: 1.6 });
  });

  it('changes no clip: a clip rendered without music is found in the cache for a video with music, and gets it', async () => {
    const clip = { bot_uid: 'bot_maya', text: 'Rendered once', reusable_clip: true };
    const first = await submit([clip]);
    const plain = await renderAndAssemble(first.videoId);
    expect(plain.output).toBe('bot_maya:Rendered once');
    const hash = plain.video.clipResults['0']!.contentHash;

    const again = await submit([clip], true, undefined, { music: { preset: 'upbeat' } });
    const { video, output } = await renderAndAssemble(again.videoId);
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect(video.clipResults['0']).toMatchObject({ cached: true, contentHash: hash });
    expect(output).toBe('bot_maya:Rendered once + bed of upbeat for 1.3 s at 0.25 ducked at 0.1-1.2');
  });

  it('is laid under a kept clip (clip_uid) joined with a new one', async () => {
    await submit([{ bot_uid: 'bot_ava', text: 'Keep me', reusable_clip: true, clip_name: 'Kept for music' }]);
    await renderAndAssemble(`vid_test${counter}`);
    const kept = (await clipDeps.clips.list('acct_1', { limit: 100 })).items.find((c) => c.clipName === 'Kept for music')!;
    const created = await submit([{ clip_uid: kept.clipUid }, { bot_uid: 'bot_leo', text: 'New' }], true, undefined, {
      music: { preset: 'calm', volume: 0.3 },
    });
    const { output } = await renderAndAssemble(created.videoId);
    expect(output).toBe('bot_ava:Keep me|bot_leo:New + bed of calm for 9.0 s at 0.3 ducked at 0.1-0.6,0.8-0.9');
  });

  it("joins, decodes and mixes within the assembly's deadline, the join's budget from the clips' own length", async () => {
    const deadline = clock.getTime() + 240_000;
    assembleDeps.mediaDeadline = () => deadline;
    try {
      const created = await submit(
        [
          { bot_uid: 'bot_ava', text: 'First clip here' },
          { bot_uid: 'bot_leo', text: 'Second one' },
        ],
        true,
        undefined,
        { music: { url: 'https://cdn.example.com/bed.mp3' } },
      );
      await renderAndAssemble(created.videoId);
      // Clip durations are text.length / 10: 1.5 s and 1 s.
      expect(concat).toHaveBeenCalledWith(expect.objectContaining({ seconds: 2.5, deadline }));
      expect(musicBed.mock.calls[0]![4]).toBe(deadline);
      expect(mixMusic).toHaveBeenCalledWith(expect.objectContaining({ deadline }));
    } finally {
      delete assembleDeps.mediaDeadline;
    }
  });
});
