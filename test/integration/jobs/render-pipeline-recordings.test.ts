/**
 * The render pipeline on dynalite with a clip that speaks the caller's recording: the render is handed the
 * recording as its speech (not the bot's voice; the lexicon reaches only espeak-ng's reading when it aligns), the
 * recording's bytes are in the clip's cache key, its work dir is gone afterwards, and an upload whose file is gone
 * fails the clip with audio_unavailable.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runQueueJob } from '#commons/jobs';
import { renderJob } from '#functions/render/clip-job.ts';
import { fetchRecording, type RecordingObject } from '#functions/render/recording.ts';
import { clipDeps, counter, download, objects, renderClip, renderQueue, submit, useRenderPipeline, videos } from '../../support/render-pipeline.ts';

const clock = new Date('2026-11-27T10:00:00Z');
useRenderPipeline(() => clock);

/** Where the render read each recording to. */
const paths: string[] = [];
beforeAll(() => {
  const read = clipDeps.fetchRecording;
  clipDeps.fetchRecording = async (recording: RecordingObject, path: string) => {
    paths.push(path);
    return read(recording, path);
  };
});
/** The bytes the recording's URL answers the fetch stage with, once. */
function serving(bytes: string) {
  download.mockImplementationOnce(async (_url: string, path: string) => {
    await writeFile(path, bytes);
    return bytes.length;
  });
}

describe('a recorded clip through the render job', () => {
  it('renders with the recording as its speech, keyed by its bytes, and leaves no work dir behind', async () => {
    const clip = { bot_uid: 'bot_ava', audio_url: 'https://example.com/me.wav', text: 'Hello from me.' };
    serving('recording A');
    await submit([clip]);
    // The render hands the clip to the fetch stage first (the recording is in its cache key), which renders it.
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(download).toHaveBeenCalledTimes(1);
    expect(renderClip).toHaveBeenCalledTimes(1);
    const input = renderClip.mock.calls[0]![0];
    expect(input.speech.name).toBe('recording');
    expect(input.pronunciations).toEqual([]);
    expect(input.text).toBe('Hello from me.');
    expect(existsSync(dirname(paths.at(-1)!))).toBe(false);
    const rendered = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;

    // The same bytes again: found in the cache. Other bytes behind the same URL: another clip.
    serving('recording A');
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']).toMatchObject({ cached: true, contentHash: rendered.contentHash });
    serving('recording B');
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']!.contentHash).not.toBe(rendered.contentHash);
  });

  it("fails the clip with audio_unavailable when an upload's file is gone", async () => {
    const gone = async (_recording: RecordingObject, path: string) =>
      fetchRecording({ objectKey: 'upload-files/acct_1/upl_AAAAAAAAAAAAAAAA', upload: true }, path, objects);
    await submit([{ bot_uid: 'bot_ava', audio_url: 'https://example.com/me.wav' }]);
    await runQueueJob(renderJob, { ...renderQueue.take()[0]!, fetched: true }, 1, 3, { ...clipDeps, fetchRecording: gone });
    const video = (await videos.get(`vid_test${counter}`))!;
    expect(video.status).toBe('failed');
    expect(video.error).toMatchObject({ code: 'audio_unavailable' });
    expect(renderClip).not.toHaveBeenCalled();
  });
});
