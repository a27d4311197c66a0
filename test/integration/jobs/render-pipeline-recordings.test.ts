/**
 * The render pipeline on dynalite with a clip that speaks the caller's recording: the render is handed the
 * recording as its speech (not the bot's voice, no lexicon), the recording's bytes are in the clip's cache key, its
 * work dir is gone afterwards, and an upload whose file is gone fails the clip with audio_unavailable.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runQueueJob } from '#commons/jobs';
import type { Recording } from '#domain/clip';
import { renderJob } from '#functions/render/clip-job.ts';
import { fetchRecording } from '#functions/render/recording.ts';
import { clipDeps, counter, objects, renderClip, renderQueue, submit, useRenderPipeline, videos } from '../../support/render-pipeline.ts';

const clock = new Date('2026-11-27T10:00:00Z');
useRenderPipeline(() => clock);

/** Stands for the download of an audio_url: writes `bytes`, remembering where. */
function recordingOf(bytes: string) {
  const paths: string[] = [];
  const fetch = async (_recording: Recording, path: string) => {
    paths.push(path);
    await writeFile(path, bytes);
    return fetchRecording({ uploadKey: 'absent' }, path, { mode: 'local', objects: { getToFile: async () => true } });
  };
  return { fetch, paths };
}

describe('a recorded clip through the render job', () => {
  it('renders with the recording as its speech, keyed by its bytes, and leaves no work dir behind', async () => {
    const clip = { bot_uid: 'bot_ava', audio_url: 'https://example.com/me.wav', text: 'Hello from me.' };
    const first = recordingOf('recording A');
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, { ...clipDeps, fetchRecording: first.fetch });
    expect(renderClip).toHaveBeenCalledTimes(1);
    const input = renderClip.mock.calls[0]![0];
    expect(input.speech.name).toBe('recording');
    expect(input.pronunciations).toEqual([]);
    expect(input.text).toBe('Hello from me.');
    expect(existsSync(dirname(first.paths[0]!))).toBe(false);
    const rendered = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;

    // The same bytes again: found in the cache. Other bytes behind the same URL: another clip.
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, { ...clipDeps, fetchRecording: recordingOf('recording A').fetch });
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']).toMatchObject({ cached: true, contentHash: rendered.contentHash });
    await submit([clip]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, { ...clipDeps, fetchRecording: recordingOf('recording B').fetch });
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']!.contentHash).not.toBe(rendered.contentHash);
  });

  it("fails the clip with audio_unavailable when an upload's file is gone", async () => {
    const gone = async (_recording: Recording, path: string) =>
      fetchRecording({ uploadKey: 'upload-files/acct_1/upl_AAAAAAAAAAAAAAAA' }, path, { mode: 'local', objects });
    await submit([{ bot_uid: 'bot_ava', audio_url: 'https://example.com/me.wav' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, { ...clipDeps, fetchRecording: gone });
    const video = (await videos.get(`vid_test${counter}`))!;
    expect(video.status).toBe('failed');
    expect(video.error).toMatchObject({ code: 'audio_unavailable' });
    expect(renderClip).not.toHaveBeenCalled();
  });
});
