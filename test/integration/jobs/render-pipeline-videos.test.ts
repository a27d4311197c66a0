/**
 * The render pipeline on dynalite, with stand-ins for the media steps: a one-clip video is its clip, a multi-clip
 * video renders each clip once (voices, the render cache, kept clips, temporary renders), and its captions.
 */

import { describe, expect, it, vi } from 'vitest';
import { runQueueJob } from '#commons/jobs';
import { KEPT, TEMPORARY } from '#domain/bucket-layout';
import { assembleJob } from '#functions/assemble/assemble-job.ts';
import { renderJob } from '#functions/render/clip-job.ts';
import {
  assembleDeps,
  assembleQueue,
  caller,
  clipDeps,
  concat,
  counter,
  fetchBackground,
  notifyQueue,
  objects,
  poster,
  renderClip,
  renderQueue,
  submit,
  useRenderPipeline,
  videoInput,
  videos,
} from '../../support/render-pipeline.ts';

const clock = new Date('2026-11-22T10:00:00Z');
useRenderPipeline(() => clock);

describe('a one-clip video', () => {
  it('is its clip: assembled by a copy within the bucket, no download, no join', async () => {
    const created = await submit([{ bot_uid: 'bot_otto', text: 'Just me' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const [message] = assembleQueue.take();
    const downloads = vi.spyOn(objects, 'getToFile');
    await runQueueJob(assembleJob, message!, 1, 3, assembleDeps);
    // Only the clip's cues were read: the clip and its poster were copied within the bucket.
    expect(downloads.mock.calls.map(([key]) => key)).toEqual([expect.stringMatching(/\.cues\.json$/)]);
    downloads.mockRestore();
    expect(concat).not.toHaveBeenCalled();
    const done = await videos.get(created.videoId);
    const clipKey = done!.clipResults['0']!.objectKey!;
    const clipSeconds = done!.clipResults['0']!.durationSeconds!;
    expect(clipSeconds).toBeGreaterThan(0);
    expect(done).toMatchObject({
      status: 'completed',
      output: {
        kind: 'video',
        objectKey: `outputs/acct_1/${created.videoId}.mp4`,
        contentType: 'video/mp4',
        durationSeconds: clipSeconds,
        clipDurations: [clipSeconds],
      },
    });
    expect((await objects.read(done!.output!.objectKey)).toString()).toBe((await objects.read(clipKey)).toString());
    expect(done!.output!.sizeBytes).toBe((await objects.read(clipKey)).length);
    // Its poster: the one its render stored beside the clip.
    expect(done!.output!.posterKey).toBe(`outputs/acct_1/${created.videoId}.jpg`);
    expect((await objects.read(done!.output!.posterKey!)).toString()).toBe('frame of bot_otto:Just me');
    expect(poster).not.toHaveBeenCalled();
    expect(notifyQueue.take()).toEqual([
      { kind: 'deliver', tenantId: 'acct_1', videoId: created.videoId, eventId: `evt_${created.videoId}_completed`, attempt: 1 },
    ]);
  });

  it('whose clip was rendered before renders stored posters gets one taken from the clip', async () => {
    const created = await submit([{ bot_uid: 'bot_otto', text: 'An older render', transitions: 'fade_in' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const clipKey = (await videos.get(created.videoId))!.clipResults['0']!.objectKey!;
    await objects.delete(clipKey.replace(/\.mp4$/, '.poster.jpg'));
    await runQueueJob(assembleJob, assembleQueue.take()[0]!, 1, 3, assembleDeps);
    const done = await videos.get(created.videoId);
    expect(done!.status).toBe('completed');
    // Half a second after the fade-in, from the clip downloaded for it.
    expect((await objects.read(done!.output!.posterKey!)).toString()).toBe('poster of part-000.mp4 at 1.10');
    // …and stored beside the clip, with its retention: the next video starting with it copies it, taking nothing.
    const beside = clipKey.replace(/\.mp4$/, '.poster.jpg');
    expect((await objects.read(beside)).toString()).toBe('poster of part-000.mp4 at 1.10');
    expect(objects.tags.get(beside)).toEqual(TEMPORARY);
    notifyQueue.take();
    poster.mockClear();
    const again = await submit([{ bot_uid: 'bot_otto', text: 'An older render', transitions: 'fade_in' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    await runQueueJob(assembleJob, assembleQueue.take()[0]!, 1, 3, assembleDeps);
    const second = await videos.get(again.videoId);
    expect((await objects.read(second!.output!.posterKey!)).toString()).toBe('poster of part-000.mp4 at 1.10');
    expect(poster).not.toHaveBeenCalled();
    notifyQueue.take();
  });
});

describe('rendering a multi-clip video', () => {
  it('renders each clip once, assembles once, completes once and queues one event, through redeliveries', async () => {
    const created = await submit([
      { bot_uid: 'bot_ava', text: 'First clip', background: 'https://cdn.test/a.mp4' },
      { bot_uid: 'bot_leo', text: 'Second clip' },
    ]);
    const messages = renderQueue.take();
    expect(messages).toHaveLength(2);

    await runQueueJob(renderJob, messages[1]!, 1, 3, clipDeps);
    expect(assembleQueue.sent).toHaveLength(0);
    expect((await videos.get(created.videoId))?.status).toBe('rendering');
    await runQueueJob(renderJob, messages[0]!, 1, 3, clipDeps);
    // The same message delivered again must neither render nor count twice.
    await runQueueJob(renderJob, messages[0]!, 2, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect(fetchBackground).toHaveBeenCalledTimes(1);
    const video = await videos.get(created.videoId);
    expect(video).toMatchObject({ renderedCount: 2, clipCount: 2 });

    const assembles = assembleQueue.take();
    expect(assembles.length).toBeGreaterThanOrEqual(1);
    for (const message of [...assembles, ...assembles]) await runQueueJob(assembleJob, message, 1, 3, assembleDeps);
    expect(concat).toHaveBeenCalledTimes(1);
    const done = await videos.get(created.videoId);
    expect(done?.status).toBe('completed');
    expect(done?.output).toMatchObject({ kind: 'video', objectKey: `outputs/acct_1/${created.videoId}.mp4`, clipDurations: [1, 1.1] });
    expect((await objects.read(done!.output!.objectKey)).toString()).toBe('bot_ava:First clip|bot_leo:Second clip');
    expect(notifyQueue.take()).toEqual([
      { kind: 'deliver', tenantId: 'acct_1', videoId: created.videoId, eventId: `evt_${created.videoId}_completed`, attempt: 1 },
    ]);
  });

  it('never renders an identical clip twice: the second video takes it from the render cache', async () => {
    const clip = { bot_uid: 'bot_maya', text: 'Cache me', bot_position: 'center' };
    for (const _ of [1, 2]) {
      await submit([clip]);
      await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    }
    expect(renderClip).toHaveBeenCalledTimes(1);
    const second = await videos.get(`vid_test${counter}`);
    expect(second?.clipResults['0']).toMatchObject({ status: 'rendered', cached: true, durationSeconds: 0.8 });
  });

  it("speaks a clip with the voice it names, on that voice's engine; another voice is another render", async () => {
    const speechFor = vi.spyOn(clipDeps, 'speechFor');
    const spanish = { bot_uid: 'bot_leo', text: 'Hola a todos', voice: 'espeak:es+m3' };
    for (const clip of [spanish, spanish, { ...spanish, voice: 'espeak:es-419+m3' }, { bot_uid: 'bot_leo', text: 'Hola a todos' }]) {
      await submit([clip]);
      await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    }
    // The second is the first from the cache; the other voice and the bot's own voice are rendered anew.
    expect(renderClip.mock.calls.map(([input]) => input.voice)).toEqual([
      { id: 'espeak:es+m3' },
      { id: 'espeak:es-419+m3' },
      { id: 'espeak:en-gb+m5', rate: 165, pitch: 30 },
    ]);
    expect(speechFor.mock.calls.map(([voice]) => voice.id)).toEqual(['espeak:es+m3', 'espeak:es-419+m3', 'espeak:en-gb+m5']);
    const results = await Promise.all([3, 2, 1, 0].map((back) => videos.get(`vid_test${counter - back}`)));
    expect(results.map((v) => v!.clipResults['0']!.cached ?? false)).toEqual([false, true, false, false]);
    expect(new Set(results.map((v) => v!.clipResults['0']!.contentHash)).size).toBe(3);
    speechFor.mockRestore();
  });

  it("speaks the built-in bots' Polly voices where the deployment uses Polly: another render than their espeak-ng one", async () => {
    const clip = { bot_uid: 'bot_otto', text: 'Which engine?' };
    for (const polly of [false, true]) {
      await submit([clip]);
      await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, { ...clipDeps, voices: { polly } });
    }
    expect(renderClip.mock.calls.map(([input]) => input.voice)).toEqual([{ id: 'espeak:en-us+m6', rate: 150, pitch: 30 }, { id: 'polly:Matthew' }]);
  });

  it('keeps a reusable clip, lists it, and a later request reuses it by clip_uid without rendering', async () => {
    await submit([{ bot_uid: 'bot_otto', text: 'Keep this one', reusable_clip: true, clip_name: 'Keeper' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const kept = await clipDeps.clips.list('acct_1', { limit: 10 });
    expect(kept.items).toHaveLength(1);
    const keptClip = kept.items[0]!;
    expect(keptClip).toMatchObject({ clipName: 'Keeper', botUid: 'bot_otto' });
    expect(keptClip.objectKey).toMatch(/^kept\//);
    expect(objects.tags.get(keptClip.objectKey)).toEqual(KEPT);

    await submit([{ clip_uid: keptClip.clipUid }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect((await videos.get(`vid_test${counter}`))?.clipResults['0']).toMatchObject({ cached: true });
  });

  it('tags renders that are not kept as temporary (the lifecycle rule expires them)', async () => {
    await submit([{ bot_uid: 'bot_ava', text: 'Temporary' }]);
    await runQueueJob(renderJob, renderQueue.take()[0]!, 1, 3, clipDeps);
    const result = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;
    expect(objects.tags.get(result.objectKey!)).toEqual(TEMPORARY);
  });
});

describe('captions', () => {
  async function renderAndAssemble(created: { videoId: string }) {
    for (const message of renderQueue.take()) await runQueueJob(renderJob, message, 1, 3, clipDeps);
    for (const message of assembleQueue.take()) await runQueueJob(assembleJob, message, 1, 3, assembleDeps);
    return (await videos.get(created.videoId))!;
  }

  it("stores each clip's cues beside its render, and writes the video's WebVTT and SRT with every clip shifted to its start", async () => {
    const created = await submit([
      { bot_uid: 'bot_ava', text: 'First clip' },
      { bot_uid: 'bot_leo', text: 'Second clip' },
    ]);
    const done = await renderAndAssemble(created);
    expect(done.status).toBe('completed');
    const first = done.clipResults['0']!.objectKey!;
    expect(JSON.parse((await objects.read(first.replace(/\.mp4$/, '.cues.json'))).toString())).toEqual({
      cues: [{ startSeconds: 0.1, endSeconds: 0.9, lines: ['First clip'] }],
      words: [], // this file's fake renderer times no words; the words file is measured in the captions suites
    });
    expect(objects.tags.get(first.replace(/\.mp4$/, '.cues.json'))).toEqual(TEMPORARY);
    expect(done.output!.captions).toEqual({
      vttKey: `outputs/acct_1/${created.videoId}.vtt`,
      srtKey: `outputs/acct_1/${created.videoId}.srt`,
      wordsKey: `outputs/acct_1/${created.videoId}.words.json`,
    });
    expect(JSON.parse((await objects.read(done.output!.captions!.wordsKey!)).toString())).toEqual([]);
    // The second clip starts where the first (1 s) ends.
    expect((await objects.read(done.output!.captions!.vttKey)).toString()).toBe(
      'WEBVTT\n\n1\n00:00:00.100 --> 00:00:00.900\nFirst clip\n\n2\n00:00:01.100 --> 00:00:02.000\nSecond clip\n\n',
    );
    expect((await objects.read(done.output!.captions!.srtKey)).toString()).toBe(
      '1\r\n00:00:00,100 --> 00:00:00,900\r\nFirst clip\r\n\r\n2\r\n00:00:01,100 --> 00:00:02,000\r\nSecond clip\r\n\r\n',
    );
  });

  it('a voice-only video gets caption files too', async () => {
    const created = await submit([{ bot_uid: 'bot_otto', text: 'Only my voice' }], false);
    const done = await renderAndAssemble(created);
    expect(done.output).toMatchObject({ kind: 'audio', captions: { vttKey: `outputs/acct_1/${created.videoId}.vtt` } });
    expect((await objects.read(done.output!.captions!.vttKey)).toString()).toContain('00:00:00.100 --> 00:00:01.200\nOnly my voice');
  });

  it('captions: "burn" reaches the render and is part of the cache key; a cached clip keeps its cues', async () => {
    const clip = { bot_uid: 'bot_maya', text: 'Burn me' };
    const plain = await renderAndAssemble(await submit([clip]));
    const burned = await renderAndAssemble(await submit([clip], true, caller, { captions: 'burn' }));
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect(videoInput(renderClip.mock.calls[1]![0]).captions).toBe('burn');
    expect(burned.clipResults['0']!.contentHash).not.toBe(plain.clipResults['0']!.contentHash);
    const again = await renderAndAssemble(await submit([clip], true, caller, { captions: 'burn' }));
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect(again.clipResults['0']!.cached).toBe(true);
    expect((await objects.read(again.output!.captions!.srtKey)).toString()).toContain('Burn me [burned]');
  });

  it('a kept clip copied from the render cache takes its cues along', async () => {
    const clip = { bot_uid: 'bot_leo', text: 'Temporary first' };
    await renderAndAssemble(await submit([clip]));
    const kept = await renderAndAssemble(await submit([{ ...clip, reusable_clip: true }]));
    expect(renderClip).toHaveBeenCalledTimes(1);
    const key = kept.clipResults['0']!.objectKey!;
    expect(key).toMatch(/^kept\//);
    expect(objects.tags.get(key.replace(/\.mp4$/, '.cues.json'))).toEqual(KEPT);
    expect((await objects.read(kept.output!.captions!.vttKey)).toString()).toContain('Temporary first');
  });

  it('a cached or kept clip rendered before captions existed (no cues beside it) is rendered again, once', async () => {
    const clip = { bot_uid: 'bot_otto', text: 'From before captions', reusable_clip: true };
    const first = await renderAndAssemble(await submit([clip]));
    const key = first.clipResults['0']!.objectKey!;
    await objects.delete(key.replace(/\.mp4$/, '.cues.json'));
    const second = await renderAndAssemble(await submit([clip]));
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect(second.clipResults['0']).toMatchObject({ objectKey: key });
    expect(second.clipResults['0']!.cached).toBeUndefined();
    expect((await objects.read(second.output!.captions!.vttKey)).toString()).toContain('From before captions');
    await renderAndAssemble(await submit([clip]));
    expect(renderClip).toHaveBeenCalledTimes(2);
  });

  it('a clip whose cues are gone leaves them out; the video still completes', async () => {
    const created = await submit([{ bot_uid: 'bot_ava', text: 'Cues lost' }]);
    for (const message of renderQueue.take()) await runQueueJob(renderJob, message, 1, 3, clipDeps);
    const rendered = (await videos.get(created.videoId))!;
    await objects.delete(rendered.clipResults['0']!.objectKey!.replace(/\.mp4$/, '.cues.json'));
    for (const message of assembleQueue.take()) await runQueueJob(assembleJob, message, 1, 3, assembleDeps);
    const done = (await videos.get(created.videoId))!;
    expect(done.status).toBe('completed');
    expect((await objects.read(done.output!.captions!.vttKey)).toString()).toBe('WEBVTT\n\n');
  });
});
