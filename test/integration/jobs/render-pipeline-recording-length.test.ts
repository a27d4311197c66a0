/**
 * A video of recordings longer than it may last fails as soon as that is known, not after its renders: each clip
 * records its prepared recording's length on the video, and the clip that takes the video past limits.maxVideoSeconds
 * fails it with video_too_long before its recording is aligned or drawn; the clips after it never fetch theirs. Short
 * generated recordings under a lowered limit stand for ten 10-minute ones under 30 minutes.
 */
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runQueueJob } from '#commons/jobs';
import { speechScriptOf } from '#domain/lexicon';
import { limits } from '#domain/limits';
import { renderJob } from '#functions/render/clip-job.ts';
import type { RenderClipInput } from '#functions/render/engine/types.ts';
import { recordingCheckpoints } from '#functions/render/recording.ts';
import { RecordedSpeech } from '#functions/render/speech/recorded.ts';
import { clipDeps, counter, download, renderClip, renderQueue, submit, useRenderPipeline, videos } from '../../support/render-pipeline.ts';
import { swellingTone } from '../../support/tone.ts';

const clock = new Date('2026-11-28T09:00:00Z');
useRenderPipeline(() => clock);

const mutableLimits = limits as { maxVideoSeconds: number };
const liveLimit = limits.maxVideoSeconds;
/** The clips whose recording was prepared, and those drawn after it (the engine's stand-in, past its speech). */
let prepared: number[];
let drawn: number[];
beforeEach(() => {
  mutableLimits.maxVideoSeconds = 5;
  prepared = [];
  drawn = [];
  // Each URL its own recording (the same bytes would be found in the render cache): take-1 lasts 3.1 s.
  download.mockImplementation(async (url: string, path: string) => {
    const bytes = swellingTone(3 + Number(/take-(\d+)/.exec(url)?.[1] ?? 0) / 10);
    await writeFile(path, bytes);
    return bytes.length;
  });
  renderClip.mockImplementation(async (input: RenderClipInput) => {
    const index = Number(/-(\d+)-\w{6}$/.exec(input.workDir)?.[1]);
    prepared.push(index);
    const speech = await input.speech.synthesize(speechScriptOf(input.text), input.voice, input.workDir);
    drawn.push(index);
    return { path: speech.wavPath, contentType: 'video/mp4', durationSeconds: speech.durationSeconds, cues: [], words: [] };
  });
});
afterEach(() => {
  mutableLimits.maxVideoSeconds = liveLimit;
  download.mockReset();
  renderClip.mockReset();
});

describe("a video's length while its recordings render", () => {
  it('fails video_too_long at the recording that takes it past the limit, before it is drawn; later clips stand down', async () => {
    const clip = (n: number) => ({ bot_uid: 'bot_ava', audio_url: `https://example.com/take-${n}.wav` });
    await submit([clip(0), clip(1), clip(2)]);
    const [first, second, third] = renderQueue.take();
    await runQueueJob(renderJob, first!, 1, 3, clipDeps);
    const rendered = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;
    expect(rendered.status).toBe('rendered');
    expect(rendered.durationSeconds).toBeCloseTo(3.5, 2);

    await runQueueJob(renderJob, second!, 1, 3, clipDeps);
    const video = (await videos.get(`vid_test${counter}`))!;
    expect(video.status).toBe('failed');
    expect(video.error).toEqual({
      code: 'video_too_long',
      clipIndex: 1,
      message: 'clip 1: a video lasts at most 5 s; its clips last 7.1 s together: make it two videos',
    });
    expect(drawn).toEqual([0]);

    await runQueueJob(renderJob, third!, 1, 3, clipDeps);
    expect(download).toHaveBeenCalledTimes(2);
    expect(prepared).toEqual([0, 1]);
  }, 60_000);

  it('keeps a video within the limit, and stops a clip whose video ended while its recording was aligned', async () => {
    await submit([{ bot_uid: 'bot_ava', audio_url: 'https://example.com/take.wav' }]);
    const videoId = `vid_test${counter}`;
    await videos.markClipRendering(videoId, 0);
    const checkpoints = recordingCheckpoints({ videoId, clipIndex: 0 }, videos);
    await checkpoints.prepared(4.9);
    expect((await videos.get(videoId))!.clipResults['0']).toEqual({ status: 'rendering', recordingSeconds: 4.9 });
    await checkpoints.ready();
    await videos.fail(videoId, { code: 'audio_invalid', message: 'clip 0: another clip failed' }, 'evt_1');
    await expect(checkpoints.ready()).rejects.toMatchObject({ code: 'video_ended' });
    await expect(checkpoints.prepared(1)).rejects.toMatchObject({ code: 'video_ended' });
  });

  it('stops a clip without a transcript whose video ended once its recording was prepared, before it is drawn', async () => {
    await submit([{ bot_uid: 'bot_ava', audio_url: 'https://example.com/take.wav' }]);
    const videoId = `vid_test${counter}`;
    await videos.markClipRendering(videoId, 0);
    const checkpoints = recordingCheckpoints({ videoId, clipIndex: 0 }, videos);
    const path = join(tmpdir(), `untranscribed-${counter}.wav`);
    await writeFile(path, swellingTone(2));
    // Another clip fails the video (video_too_long) while this one's mouth is read from its recording's spectrum.
    const endedWhilePrepared = {
      prepared: async (seconds: number) => {
        await checkpoints.prepared(seconds);
        await videos.fail(videoId, { code: 'video_too_long', clipIndex: 1, message: 'clip 1: too long' }, 'evt_2');
      },
      ready: checkpoints.ready,
    };
    const speech = new RecordedSpeech(path, undefined, undefined, limits.maxRecordedSpeechSeconds, endedWhilePrepared);
    try {
      await expect(speech.synthesize(speechScriptOf(''), { id: 'recording' }, tmpdir())).rejects.toMatchObject({ code: 'video_ended' });
    } finally {
      await rm(path, { force: true });
    }
  }, 30_000);
});
