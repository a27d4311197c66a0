/**
 * The render pipeline on dynalite, with stand-ins for the media steps, when things go wrong: clips that fail, the
 * sweeper settling dead-lettered and stuck renders, and assembly claimed once with a lease.
 */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { runQueueJob } from '#commons/jobs';
import { JobFailedError } from '#domain/errors';
import { failVideo } from '#domain/video-outcomes';
import { assembleJob } from '#functions/assemble/assemble-job.ts';
import { MediaToolError } from '#functions/media/media.ts';
import { renderJob } from '#functions/render/clip-job.ts';
import { SpeechTooLongError } from '#functions/render/engine/types.ts';
import { sweep } from '#functions/sweeper/sweep.ts';
import { assemblyLeaseSeconds } from '#infra/wiring.ts';
import { noBatches } from '../../support/fakes.ts';
import {
  assembleDeps,
  assembleQueue,
  clipDeps,
  concat,
  dynamo,
  fetchBackground,
  gate,
  notifyQueue,
  objects,
  renderClip,
  renderedVideo,
  renderQueue,
  submit,
  until,
  useRenderPipeline,
  videos,
} from '../../support/render-pipeline.ts';

let clock = new Date('2026-11-22T10:00:00Z');
useRenderPipeline(() => clock);

describe('failures', () => {
  it('a text that takes too long to say fails its clip as text_too_long, at once', async () => {
    renderClip.mockRejectedValueOnce(new SpeechTooLongError(231, 180));
    const created = await submit([{ bot_uid: 'bot_ava', text: '9999999 '.repeat(10) }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const video = await videos.get(created.videoId);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'text_too_long', clipIndex: 0 } });
    expect(video?.error?.message).toMatch(/^clip 0: its text takes 231 s to say; a clip may speak for at most 180 s/);
  });

  it("a caller's background that ffmpeg stops decoding part-way is background_invalid, not a service fault", async () => {
    renderClip.mockRejectedValueOnce(new MediaToolError('ffmpeg exited with code 1', 1, 'Invalid data found when processing input'));
    const created = await submit([{ bot_uid: 'bot_ava', text: 'Broken later', background: 'https://cdn.test/x.mp4' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const video = await videos.get(created.videoId);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'background_invalid', clipIndex: 0 } });
    expect(video?.error?.message).not.toMatch(/Invalid data|ffmpeg/);
  });

  it('a bad background fails the video at once with a reason naming the clip, and queues the failure event', async () => {
    fetchBackground.mockRejectedValueOnce(new JobFailedError('background_unavailable', 'the background URL answered HTTP 404'));
    const created = await submit([
      { bot_uid: 'bot_ava', text: 'Fine' },
      { bot_uid: 'bot_ava', text: 'Broken', background: 'https://cdn.test/x.mp4' },
    ]);
    const [first, second] = renderQueue.take();
    await runQueueJob(renderJob, second!, 1, 3, clipDeps);
    const video = await videos.get(created.videoId);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'background_unavailable', clipIndex: 1 } });
    expect(video?.error?.message).toMatch(/^clip 1: .*404/);
    expect(notifyQueue.take()).toEqual([
      { kind: 'deliver', tenantId: 'acct_1', videoId: created.videoId, eventId: `evt_${created.videoId}_failed`, attempt: 1 },
    ]);
    // The other clip's message finds the video ended and does nothing.
    await runQueueJob(renderJob, first!, 1, 3, clipDeps);
    // The first clip stood down; the broken one rendered nothing (its speech may have started while the download failed).
    expect(renderClip.mock.calls.length).toBeLessThanOrEqual(1);
    expect((await videos.get(created.videoId))!.clipResults['1']?.status).not.toBe('rendered');
  });

  it('a transient error is retried; on the last attempt the video fails and the message goes on to the DLQ', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    renderClip.mockRejectedValueOnce(reset).mockRejectedValueOnce(reset).mockRejectedValueOnce(reset);
    const created = await submit([{ bot_uid: 'bot_leo', text: 'Flaky' }]);
    const message = renderQueue.take()[0]!;
    await expect(runQueueJob(renderJob, message, 1, 3, clipDeps)).rejects.toThrow('socket hang up');
    expect((await videos.get(created.videoId))?.status).toBe('rendering');
    await expect(runQueueJob(renderJob, message, 2, 3, clipDeps)).rejects.toThrow();
    await expect(runQueueJob(renderJob, message, 3, 3, clipDeps)).rejects.toThrow();
    expect(await videos.get(created.videoId)).toMatchObject({ status: 'failed', error: { code: 'render_failed', clipIndex: 0 } });
    expect(notifyQueue.take()).toHaveLength(1);
  });

  it('a transient error that clears is retried and the video completes', async () => {
    renderClip.mockRejectedValueOnce(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    const created = await submit([{ bot_uid: 'bot_leo', text: 'Second time lucky' }]);
    const message = renderQueue.take()[0]!;
    await expect(runQueueJob(renderJob, message, 1, 3, clipDeps)).rejects.toThrow();
    await runQueueJob(renderJob, message, 2, 3, clipDeps);
    await runQueueJob(assembleJob, assembleQueue.take()[0]!, 1, 3, assembleDeps);
    expect((await videos.get(created.videoId))?.status).toBe('completed');
  });
});

describe('sweeper', () => {
  it('fails a video whose render message was dead-lettered (it crashed on every attempt) and leaves the message', async () => {
    const created = await submit([{ bot_uid: 'bot_ava', text: 'Crashes every time' }]);
    const message = renderQueue.take()[0]!;
    const peeked: number[] = [];
    const inbox = { peek: async (_max: number, hide: number) => (peeked.push(hide), [{ body: JSON.stringify(message), receiveCount: 4 }]) };
    const result = await sweep({
      ...noBatches,
      videos,
      notifyQueue,
      accountBots: new DynamoAccountBotStore(dynamo.client, 'accountBots'),
      objects,
      deadLetters: [inbox],
      now: () => clock,
    });
    expect(result.deadLettered).toBe(1);
    expect(await videos.get(created.videoId)).toMatchObject({ status: 'failed', error: { code: 'render_failed', clipIndex: 0 } });
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([`evt_${created.videoId}_failed`]);
    expect(peeked[0]).toBeGreaterThanOrEqual(600); // hidden, not deleted: it stays in the DLQ
    // Seen again later, it changes nothing.
    expect(
      (
        await sweep({
          ...noBatches,
          videos,
          notifyQueue,
          accountBots: new DynamoAccountBotStore(dynamo.client, 'accountBots'),
          objects,
          deadLetters: [inbox],
          now: () => clock,
        })
      ).deadLettered,
    ).toBe(0);
  });

  it('fails renders stuck past their deadline and re-queues events that were never queued', async () => {
    const stuck = await submit([{ bot_uid: 'bot_ava', text: 'Stuck' }]);
    renderQueue.take();
    const finished = await submit([{ bot_uid: 'bot_ava', text: 'Finished but the event was lost' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    await runQueueJob(assembleJob, assembleQueue.take()[0]!, 1, 3, assembleDeps);
    notifyQueue.take(); // as if the process died before this message was sent

    clock = new Date(clock.getTime() + 2 * 3600 * 1000);
    const result = await sweep({
      ...noBatches,
      videos,
      notifyQueue,
      accountBots: new DynamoAccountBotStore(dynamo.client, 'accountBots'),
      objects,
      deadLetters: [],
      now: () => clock,
    });
    expect(result.failed).toBeGreaterThanOrEqual(1);
    expect(await videos.get(stuck.videoId)).toMatchObject({ status: 'failed', error: { code: 'deadline_exceeded' } });
    const events = notifyQueue.take().map((m) => m.eventId);
    expect(events).toEqual(expect.arrayContaining([`evt_${stuck.videoId}_failed`, `evt_${finished.videoId}_completed`]));
  });
});

describe('assembly is claimed once, with a lease', () => {
  it('of two copies of the assemble message running at once, one joins the clips and the other stands down', async () => {
    const { videoId, message } = await renderedVideo('Assembled once');
    const held = gate();
    concat.mockImplementationOnce(async (input) => {
      await held.opened;
      const path = join(input.workDir, 'joined');
      await writeFile(path, 'joined');
      return { path, contentType: 'video/mp4', durationSeconds: 1, sizeBytes: 6 };
    });
    const first = runQueueJob(assembleJob, message, 1, 3, assembleDeps);
    await until(() => concat.mock.calls.length === 1, 'the first assembly to reach concat');
    // The duplicate arrives while the first is joining: it returns without error (its message is deleted).
    await runQueueJob(assembleJob, message, 1, 3, assembleDeps);
    expect(concat).toHaveBeenCalledTimes(1);
    held.open();
    await first;
    expect(concat).toHaveBeenCalledTimes(1);
    expect((await videos.get(videoId))?.status).toBe('completed');
    expect(notifyQueue.take()).toEqual([{ kind: 'deliver', tenantId: 'acct_1', videoId, eventId: `evt_${videoId}_completed`, attempt: 1 }]);
  });

  it('the message of an assembler that crashed claims again once the lease has run out, and not before', async () => {
    const { videoId, message } = await renderedVideo('The first assembler crashed');
    // A run claimed the assembly and died (timeout, OOM) without a word.
    expect(await videos.claimAssembly(videoId, assemblyLeaseSeconds)).toBe(true);

    await runQueueJob(assembleJob, message, 1, 3, assembleDeps);
    clock = new Date(clock.getTime() + (assemblyLeaseSeconds - 1) * 1000);
    await runQueueJob(assembleJob, message, 1, 3, assembleDeps);
    expect(concat).not.toHaveBeenCalled();
    expect((await videos.get(videoId))?.status).toBe('assembling');

    // Its own message comes back after the visibility timeout, which is longer than the lease.
    clock = new Date(clock.getTime() + 2_000);
    await runQueueJob(assembleJob, message, 2, 3, assembleDeps);
    expect(concat).toHaveBeenCalledTimes(1);
    expect((await videos.get(videoId))?.status).toBe('completed');
  });

  it('when the video ends while it is being assembled, the output this run uploaded is removed', async () => {
    const { videoId, message } = await renderedVideo('Failed by the sweeper meanwhile');
    concat.mockImplementationOnce(async (input) => {
      // The sweeper gives up on the video while the clips are being joined.
      await failVideo({ videos, notifyQueue }, { videoId, tenantId: message.tenantId }, { code: 'deadline_exceeded', message: 'too slow' });
      const path = join(input.workDir, 'joined');
      await writeFile(path, 'joined');
      return { path, contentType: 'video/mp4', durationSeconds: 1, sizeBytes: 6 };
    });
    await runQueueJob(assembleJob, message, 1, 3, assembleDeps);
    const video = await videos.get(videoId);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'deadline_exceeded' } });
    expect(objects.has(`outputs/acct_1/${videoId}.mp4`)).toBe(false);
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([`evt_${videoId}_failed`]);
  });
});
