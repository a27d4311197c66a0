import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoAccountStore, DynamoBotCatalog, DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { parsePutBot } from '#domain/account-bot-request';
import { deleteAccountBot, putAccountBot } from '#domain/account-bots';
import { BUILT_IN_BOTS } from '#domain/bot';
import { KEPT, lookPrefix, TEMPORARY } from '#domain/bucket-layout';
import { parseCreateVideo } from '#domain/create-request';
import { Conflict, JobFailure } from '#domain/errors';
import type { AssembleMessage, DeliverBotMessage, DeliverMessage, PrepareBotMessage, RenderClipMessage } from '#domain/messages';
import { REUSABLE_RENDER_MAX_AGE_MS } from '#domain/render-cache';
import { failVideo } from '#domain/video-outcomes';
import { createVideo } from '#domain/videos';
import { type AssembleDeps, handleAssembleMessage } from '#functions/assemble/assemble-job.ts';
import type { BackgroundMedia } from '#functions/media/background-media.ts';
import type { ConcatInput } from '#functions/media/concat.ts';
import { MediaToolError } from '#functions/media/media.ts';
import { handlePrepareMessage } from '#functions/prepare/prepare-job.ts';
import { type ClipJobDeps, handleRenderMessage } from '#functions/render/clip-job.ts';
import type { RenderClipInput, RenderClipOutput } from '#functions/render/engine/types.ts';
import { SpeechTooLongError } from '#functions/render/engine/types.ts';
import { lookDirectories } from '#functions/render/look-cache.ts';
import { sweep } from '#functions/sweeper/sweep.ts';
import { assemblyLeaseSeconds } from '#infra/wiring.ts';
import { startDynamo } from '../../support/dynamo.ts';
import { FolderObjectStore, noBatches, RecordingQueue } from '../../support/fakes.ts';
import { builtInLookAsPrepared } from '../../support/looks.ts';

let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let videos: DynamoVideoRepository;
let accounts: DynamoAccountStore;
let objects: FolderObjectStore;
const renderQueue = new RecordingQueue<RenderClipMessage>();
const assembleQueue = new RecordingQueue<AssembleMessage>();
const notifyQueue = new RecordingQueue<DeliverMessage>();
let clock = new Date('2026-11-22T10:00:00Z');
let counter = 0;

/** A stand-in for the media engine (tested on its own with real ffmpeg): writes a file named after its input. */
const renderClip = vi.fn(async (input: RenderClipInput): Promise<RenderClipOutput> => {
  const path = join(input.workDir, 'clip.mp4');
  await writeFile(path, `${input.bot.uid}:${input.text}`);
  const durationSeconds = input.text.length / 10;
  // One cue of the clip's text, over its middle, as the engine would time it; marked when burned.
  const cues = [{ startSeconds: 0.1, endSeconds: durationSeconds - 0.1, lines: [`${input.text}${input.captions === 'burn' ? ' [burned]' : ''}`] }];
  if (input.mode === 'voice') return { path, contentType: 'audio/mpeg', durationSeconds, cues };
  // The engine's poster: a frame of the same pass.
  const posterPath = join(input.workDir, 'poster.jpg');
  await writeFile(posterPath, `frame of ${input.bot.uid}:${input.text}`);
  return { path, contentType: 'video/mp4', durationSeconds, cues, posterPath };
});
/** Stands for media.ts extractPoster on the fake clips: the poster names the file and the moment it was taken at. */
const poster = vi.fn(async (videoPath: string, atSeconds: number, posterPath: string) => {
  await writeFile(posterPath, `poster of ${videoPath.split('/').pop()} at ${atSeconds.toFixed(2)}`);
  return posterPath;
});
const concat = vi.fn(async (input: ConcatInput) => {
  const { readFile } = await import('node:fs/promises');
  const parts = await Promise.all(input.parts.map((p) => readFile(p, 'utf8')));
  const path = join(input.workDir, 'joined');
  await writeFile(path, parts.join('|'));
  return { path, contentType: 'video/mp4', durationSeconds: 9, sizeBytes: 1 };
});
const fetchBackground = vi.fn(async (_url: string, path: string, _workDir: string): Promise<BackgroundMedia> => {
  await writeFile(path, 'bg');
  return { path, format: { demuxer: 'mov', label: 'MP4 / MOV' }, width: 1280, height: 720, hasAudio: false };
});

let clipDeps: ClipJobDeps;
let assembleDeps: AssembleDeps;
const caller = { tenantId: 'acct_1', keyId: 'key_1' };

async function submit(clips: unknown[], createVideoFlag = true, who = caller, fields: Record<string, unknown> = {}) {
  const command = parseCreateVideo({ webhook: 'https://hooks.test/done', create_video: createVideoFlag, clips, ...fields });
  return createVideo(command, who, {
    bots: clipDeps.bots,
    accountBots: clipDeps.accountBots,
    accounts,
    videos,
    clips: clipDeps.clips,
    renderQueue,
    now: () => clock,
    newVideoId: () => `vid_test${++counter}`,
    voices: { polly: false },
  });
}

beforeAll(async () => {
  dynamo = await startDynamo();
  videos = new DynamoVideoRepository(dynamo.client, 'videos', () => clock);
  // These tests leave many of one account's videos queued: its limit of videos in progress is raised as the keys CLI would.
  accounts = new DynamoAccountStore(dynamo.client, 'accounts');
  await accounts.put({ tenantId: caller.tenantId, name: 'pipeline tests', createdAt: clock.toISOString() });
  await accounts.setMaxVideosInProgress(caller.tenantId, 1000);
  objects = await FolderObjectStore.create(() => clock);
  const bots = new DynamoBotCatalog(dynamo.client, 'bots');
  for (const bot of BUILT_IN_BOTS) await bots.put(bot);
  const accountBots = new DynamoAccountBotStore(dynamo.client, 'accountBots');
  clipDeps = {
    videos,
    bots,
    accountBots,
    lookDirectory: lookDirectories(objects, await mkdtemp(join(tmpdir(), 'looks-'))),
    clips: new DynamoClipLibrary(dynamo.client, 'clips'),
    objects,
    assembleQueue,
    notifyQueue,
    renderClip,
    speechFor: () => ({ name: 'none', synthesize: async () => ({ wavPath: '', sampleRate: 0, durationSeconds: 0, words: [] }) }),
    fetchBackground,
    voices: { polly: false },
    now: () => clock,
  };
  assembleDeps = { videos, objects, notifyQueue, concat, poster, assemblyLeaseSeconds };
});
afterAll(() => dynamo.stop());
beforeEach(() => {
  renderClip.mockClear();
  concat.mockClear();
  poster.mockClear();
  fetchBackground.mockClear();
  for (const q of [renderQueue, assembleQueue, notifyQueue]) q.take();
});

/** A promise and the function that settles it: holds a stubbed step until the test lets it go on. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

/** Submits a two-clip video and renders it: the video is ready to assemble (by concat). Returns its id and assemble message. */
async function renderedVideo(text: string) {
  const created = await submit([
    { bot_uid: 'bot_ava', text },
    { bot_uid: 'bot_leo', text: `${text}, again` },
  ]);
  for (const message of renderQueue.take()) await handleRenderMessage(message, 1, 3, clipDeps);
  const [message] = assembleQueue.take();
  expect(message).toBeDefined();
  return { videoId: created.videoId, message: message! };
}

describe('a one-clip video', () => {
  it('is its clip: assembled by a copy within the bucket, no download, no join', async () => {
    const created = await submit([{ bot_uid: 'bot_otto', text: 'Just me' }]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const [message] = assembleQueue.take();
    const downloads = vi.spyOn(objects, 'getToFile');
    await handleAssembleMessage(message!, 1, 3, assembleDeps);
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
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const clipKey = (await videos.get(created.videoId))!.clipResults['0']!.objectKey!;
    await objects.delete(clipKey.replace(/\.mp4$/, '.poster.jpg'));
    await handleAssembleMessage(assembleQueue.take()[0]!, 1, 3, assembleDeps);
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
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    await handleAssembleMessage(assembleQueue.take()[0]!, 1, 3, assembleDeps);
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

    await handleRenderMessage(messages[1]!, 1, 3, clipDeps);
    expect(assembleQueue.sent).toHaveLength(0);
    expect((await videos.get(created.videoId))?.status).toBe('rendering');
    await handleRenderMessage(messages[0]!, 1, 3, clipDeps);
    // The same message delivered again must neither render nor count twice.
    await handleRenderMessage(messages[0]!, 2, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect(fetchBackground).toHaveBeenCalledTimes(1);
    const video = await videos.get(created.videoId);
    expect(video).toMatchObject({ renderedCount: 2, clipCount: 2 });

    const assembles = assembleQueue.take();
    expect(assembles.length).toBeGreaterThanOrEqual(1);
    for (const message of [...assembles, ...assembles]) await handleAssembleMessage(message, 1, 3, assembleDeps);
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
      await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
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
      await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    }
    // The second is the first from the cache; the other voice and the bot's own voice are rendered anew.
    expect(renderClip.mock.calls.map(([input]) => input.voice)).toEqual([
      { id: 'espeak:es+m3' },
      { id: 'espeak:es-419+m3' },
      { id: 'espeak:en-gb+m3', rate: 165, pitch: 40 },
    ]);
    expect(speechFor.mock.calls.map(([voice]) => voice.id)).toEqual(['espeak:es+m3', 'espeak:es-419+m3', 'espeak:en-gb+m3']);
    const results = await Promise.all([3, 2, 1, 0].map((back) => videos.get(`vid_test${counter - back}`)));
    expect(results.map((v) => v!.clipResults['0']!.cached ?? false)).toEqual([false, true, false, false]);
    expect(new Set(results.map((v) => v!.clipResults['0']!.contentHash)).size).toBe(3);
    speechFor.mockRestore();
  });

  it("speaks the built-in bots' Polly voices where the deployment uses Polly: another render than their espeak-ng one", async () => {
    const clip = { bot_uid: 'bot_otto', text: 'Which engine?' };
    for (const polly of [false, true]) {
      await submit([clip]);
      await handleRenderMessage(renderQueue.take()[0]!, 1, 3, { ...clipDeps, voices: { polly } });
    }
    expect(renderClip.mock.calls.map(([input]) => input.voice)).toEqual([{ id: 'espeak:en-us+m3', rate: 150, pitch: 30 }, { id: 'polly:Matthew' }]);
  });

  it('keeps a reusable clip, lists it, and a later request reuses it by clip_uid without rendering', async () => {
    await submit([{ bot_uid: 'bot_otto', text: 'Keep this one', reusable_clip: true, clip_name: 'Keeper' }]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const kept = await clipDeps.clips.list('acct_1', { limit: 10 });
    expect(kept.items).toHaveLength(1);
    const keptClip = kept.items[0]!;
    expect(keptClip).toMatchObject({ clipName: 'Keeper', botUid: 'bot_otto' });
    expect(keptClip.objectKey).toMatch(/^kept\//);
    expect(objects.tags.get(keptClip.objectKey)).toEqual(KEPT);

    await submit([{ clip_uid: keptClip.clipUid }]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect((await videos.get(`vid_test${counter}`))?.clipResults['0']).toMatchObject({ cached: true });
  });

  it('tags renders that are not kept as temporary (the lifecycle rule expires them)', async () => {
    await submit([{ bot_uid: 'bot_ava', text: 'Temporary' }]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const result = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;
    expect(objects.tags.get(result.objectKey!)).toEqual(TEMPORARY);
  });
});

describe('captions', () => {
  async function renderAndAssemble(created: { videoId: string }) {
    for (const message of renderQueue.take()) await handleRenderMessage(message, 1, 3, clipDeps);
    for (const message of assembleQueue.take()) await handleAssembleMessage(message, 1, 3, assembleDeps);
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
    });
    expect(objects.tags.get(first.replace(/\.mp4$/, '.cues.json'))).toEqual(TEMPORARY);
    expect(done.output!.captions).toEqual({ vttKey: `outputs/acct_1/${created.videoId}.vtt`, srtKey: `outputs/acct_1/${created.videoId}.srt` });
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
    expect(renderClip.mock.calls[1]![0].captions).toBe('burn');
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
    for (const message of renderQueue.take()) await handleRenderMessage(message, 1, 3, clipDeps);
    const rendered = (await videos.get(created.videoId))!;
    await objects.delete(rendered.clipResults['0']!.objectKey!.replace(/\.mp4$/, '.cues.json'));
    for (const message of assembleQueue.take()) await handleAssembleMessage(message, 1, 3, assembleDeps);
    const done = (await videos.get(created.videoId))!;
    expect(done.status).toBe('completed');
    expect((await objects.read(done.output!.captions!.vttKey)).toString()).toBe('WEBVTT\n\n');
  });
});

describe('a bot of the account replaced while its videos wait', () => {
  const prepareQueue = new RecordingQueue<PrepareBotMessage>();
  const botEvents = new RecordingQueue<DeliverBotMessage>();
  let versions = 0;
  /** PUT /v1/bot/pinned from a photo with `voice`, prepared (unless `prepare` is false) into the built-in `look`. */
  async function putBot(voice: string, look: string, prepare = true) {
    const command = parsePutBot(
      'pinned',
      { name: 'Pinned', voice },
      { image: { bytes: builtInLookAsPrepared('ava').files.get('preview.png')!, contentType: 'image/png' } },
      { polly: false },
    );
    const deps = {
      accountBots: clipDeps.accountBots as DynamoAccountBotStore,
      objects,
      prepareQueue,
      now: () => clock,
      newVersion: () => `v_pin${++versions}`,
    };
    const bot = await putAccountBot(command, caller, deps);
    const message = prepareQueue.take()[0]!;
    const prepareNow = () =>
      handlePrepareMessage(message, 1, 3, {
        accountBots: deps.accountBots,
        objects,
        notifyQueue: botEvents,
        now: () => clock,
        readObject: async (key) => (objects.has(key) ? objects.read(key) : undefined),
        buildPhotoLook: async () => builtInLookAsPrepared(look),
        buildDrawnLook: async () => builtInLookAsPrepared(look),
        fetchImage: async () => Buffer.alloc(0),
      });
    if (prepare) await prepareNow();
    return { version: bot.version, prepareNow };
  }
  /** What the engine was handed for the last clip it rendered: the look's prefix, its body sprite's bytes, the voice. */
  const lastRender = () => {
    const input = renderClip.mock.calls.at(-1)![0];
    return { look: input.bot.look, body: readFileSync(join(input.lookDirectory!, 'body.png')), voice: input.voice.id };
  };

  it('renders each clip with the look and voice its video was accepted with: while the new look prepares, and after it retired the old one', async () => {
    const first = await putBot('espeak:en-gb+m3', 'leo');
    const [during, after] = [
      await submit([{ bot_uid: 'pinned', text: 'Rendered while replaced' }]),
      await submit([{ bot_uid: 'pinned', text: 'Rendered after' }]),
    ];
    const [duringMessage, afterMessage] = renderQueue.take();
    const second = await putBot('espeak:es+f3', 'maya', false);
    // While the replacement prepares, new videos of the bot are refused; the accepted one renders with its look.
    await expect(submit([{ bot_uid: 'pinned', text: 'Too soon' }])).rejects.toBeInstanceOf(Conflict);
    await handleRenderMessage(duringMessage!, 1, 3, clipDeps);
    expect((await videos.get(during.videoId))!.clipResults['0']).toMatchObject({ status: 'rendered' });
    const leo = builtInLookAsPrepared('leo').files.get('body.png')!;
    expect(lastRender()).toEqual({ look: lookPrefix(caller.tenantId, 'pinned', first.version), body: leo, voice: 'espeak:en-gb+m3' });
    // The replacement settles: the first look moves to retired-looks/, where the other accepted video finds it.
    await second.prepareNow();
    expect(objects.has(`${lookPrefix(caller.tenantId, 'pinned', first.version)}/body.png`)).toBe(false);
    // Rendered by another container (nothing of the look in its /tmp): it reads the look from retired-looks/.
    const read = vi.spyOn(objects, 'getToFile');
    await handleRenderMessage(afterMessage!, 1, 3, { ...clipDeps, lookDirectory: lookDirectories(objects, await mkdtemp(join(tmpdir(), 'looks-'))) });
    expect(read.mock.calls.map(([key]) => key)).toContain(`retired-${lookPrefix(caller.tenantId, 'pinned', first.version)}/body.png`);
    read.mockRestore();
    expect((await videos.get(after.videoId))!.clipResults['0']).toMatchObject({ status: 'rendered' });
    expect(lastRender()).toEqual({ look: lookPrefix(caller.tenantId, 'pinned', first.version), body: leo, voice: 'espeak:en-gb+m3' });
    // A video accepted now renders with the new look and voice.
    await submit([{ bot_uid: 'pinned', text: 'Rendered new' }]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(lastRender()).toEqual({
      look: lookPrefix(caller.tenantId, 'pinned', second.version),
      body: builtInLookAsPrepared('maya').files.get('body.png')!,
      voice: 'espeak:es+f3',
    });
    // Deleted: its looks go, retired ones too, and a video still waiting fails as bot_not_found.
    const waiting = await submit([{ bot_uid: 'pinned', text: 'Never rendered' }]);
    await deleteAccountBot(caller.tenantId, 'pinned', { accountBots: clipDeps.accountBots as DynamoAccountBotStore, objects });
    expect(objects.has(`retired-${lookPrefix(caller.tenantId, 'pinned', first.version)}/body.png`)).toBe(false);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(await videos.get(waiting.videoId)).toMatchObject({ status: 'failed', error: { code: 'bot_not_found' } });
  });

  it('a video of a bot deleted and made again under the same uid fails as bot_not_found: it never draws the deleted look', async () => {
    const deleted = await putBot('espeak:en-gb+m3', 'leo');
    // Its look is in this container's /tmp from an earlier render.
    await submit([{ bot_uid: 'pinned', text: 'Warm the look' }]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(lastRender().look).toBe(lookPrefix(caller.tenantId, 'pinned', deleted.version));
    const waiting = await submit([{ bot_uid: 'pinned', text: 'Waiting for the deleted bot' }]);
    await deleteAccountBot(caller.tenantId, 'pinned', { accountBots: clipDeps.accountBots as DynamoAccountBotStore, objects });
    await putBot('espeak:es+f3', 'maya');
    renderClip.mockClear();
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).not.toHaveBeenCalled();
    expect(await videos.get(waiting.videoId)).toMatchObject({ status: 'failed', error: { code: 'bot_not_found' } });
  });
});

describe('failures', () => {
  it('a text that takes too long to say fails its clip as text_too_long, at once', async () => {
    renderClip.mockRejectedValueOnce(new SpeechTooLongError(231, 180));
    const created = await submit([{ bot_uid: 'bot_ava', text: '9999999 '.repeat(10) }]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const video = await videos.get(created.videoId);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'text_too_long', clipIndex: 0 } });
    expect(video?.error?.message).toMatch(/^clip 0: its text takes 231 s to say; a clip may speak for at most 180 s/);
  });

  it("a caller's background that ffmpeg stops decoding part-way is background_invalid, not a service fault", async () => {
    renderClip.mockRejectedValueOnce(new MediaToolError('ffmpeg exited with code 1', 1, 'Invalid data found when processing input'));
    const created = await submit([{ bot_uid: 'bot_ava', text: 'Broken later', background: 'https://cdn.test/x.mp4' }]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const video = await videos.get(created.videoId);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'background_invalid', clipIndex: 0 } });
    expect(video?.error?.message).not.toMatch(/Invalid data|ffmpeg/);
  });

  it('a bad background fails the video at once with a reason naming the clip, and queues the failure event', async () => {
    fetchBackground.mockRejectedValueOnce(new JobFailure('background_unavailable', 'the background URL answered HTTP 404'));
    const created = await submit([
      { bot_uid: 'bot_ava', text: 'Fine' },
      { bot_uid: 'bot_ava', text: 'Broken', background: 'https://cdn.test/x.mp4' },
    ]);
    const [first, second] = renderQueue.take();
    await handleRenderMessage(second!, 1, 3, clipDeps);
    const video = await videos.get(created.videoId);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'background_unavailable', clipIndex: 1 } });
    expect(video?.error?.message).toMatch(/^clip 1: .*404/);
    expect(notifyQueue.take()).toEqual([
      { kind: 'deliver', tenantId: 'acct_1', videoId: created.videoId, eventId: `evt_${created.videoId}_failed`, attempt: 1 },
    ]);
    // The other clip's message finds the video ended and does nothing.
    await handleRenderMessage(first!, 1, 3, clipDeps);
    // The first clip stood down; the broken one rendered nothing (its speech may have started while the download failed).
    expect(renderClip.mock.calls.length).toBeLessThanOrEqual(1);
    expect((await videos.get(created.videoId))!.clipResults['1']?.status).not.toBe('rendered');
  });

  it('a transient error is retried; on the last attempt the video fails and the message goes on to the DLQ', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    renderClip.mockRejectedValueOnce(reset).mockRejectedValueOnce(reset).mockRejectedValueOnce(reset);
    const created = await submit([{ bot_uid: 'bot_leo', text: 'Flaky' }]);
    const message = renderQueue.take()[0]!;
    await expect(handleRenderMessage(message, 1, 3, clipDeps)).rejects.toThrow('socket hang up');
    expect((await videos.get(created.videoId))?.status).toBe('rendering');
    await expect(handleRenderMessage(message, 2, 3, clipDeps)).rejects.toThrow();
    await expect(handleRenderMessage(message, 3, 3, clipDeps)).rejects.toThrow();
    expect(await videos.get(created.videoId)).toMatchObject({ status: 'failed', error: { code: 'render_failed', clipIndex: 0 } });
    expect(notifyQueue.take()).toHaveLength(1);
  });

  it('a transient error that clears is retried and the video completes', async () => {
    renderClip.mockRejectedValueOnce(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    const created = await submit([{ bot_uid: 'bot_leo', text: 'Second time lucky' }]);
    const message = renderQueue.take()[0]!;
    await expect(handleRenderMessage(message, 1, 3, clipDeps)).rejects.toThrow();
    await handleRenderMessage(message, 2, 3, clipDeps);
    await handleAssembleMessage(assembleQueue.take()[0]!, 1, 3, assembleDeps);
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
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    await handleAssembleMessage(assembleQueue.take()[0]!, 1, 3, assembleDeps);
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
    const first = handleAssembleMessage(message, 1, 3, assembleDeps);
    await until(() => concat.mock.calls.length === 1, 'the first assembly to reach concat');
    // The duplicate arrives while the first is joining: it returns without error (its message is deleted).
    await handleAssembleMessage(message, 1, 3, assembleDeps);
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

    await handleAssembleMessage(message, 1, 3, assembleDeps);
    clock = new Date(clock.getTime() + (assemblyLeaseSeconds - 1) * 1000);
    await handleAssembleMessage(message, 1, 3, assembleDeps);
    expect(concat).not.toHaveBeenCalled();
    expect((await videos.get(videoId))?.status).toBe('assembling');

    // Its own message comes back after the visibility timeout, which is longer than the lease.
    clock = new Date(clock.getTime() + 2_000);
    await handleAssembleMessage(message, 2, 3, assembleDeps);
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
    await handleAssembleMessage(message, 1, 3, assembleDeps);
    const video = await videos.get(videoId);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'deadline_exceeded' } });
    expect(objects.has(`outputs/acct_1/${videoId}.mp4`)).toBe(false);
    expect(notifyQueue.take().map((m) => m.eventId)).toEqual([`evt_${videoId}_failed`]);
  });
});

describe('the render cache and the expiry of temporary renders', () => {
  it('reuses a temporary render while it is young, and renders again one close to its expiry', async () => {
    const clip = { bot_uid: 'bot_leo', text: 'Getting old in the bucket' };
    await submit([clip]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const { objectKey } = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;
    expect(objectKey).toMatch(/^renders\//);

    objects.backdate(objectKey!, new Date(clock.getTime() - REUSABLE_RENDER_MAX_AGE_MS + 3600_000));
    await submit([clip]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']).toMatchObject({ cached: true, objectKey });

    // Six and a half days old: it could expire (7 days) before this video is assembled.
    objects.backdate(objectKey!, new Date(clock.getTime() - REUSABLE_RENDER_MAX_AGE_MS - 12 * 3600_000));
    await submit([clip]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
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
      await writeFile(path, `${input.bot.uid}:${input.text}`);
      return { path, contentType: 'video/mp4', durationSeconds: 2.6, cues: [] };
    });
    const slow = handleRenderMessage(temporaryMessage, 1, 3, clipDeps);
    await until(() => renderClip.mock.calls.length === 1, 'the temporary render to start');
    await handleRenderMessage(keptMessage, 1, 3, clipDeps);
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
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const renderKey = (await videos.get(`vid_test${counter}`))!.clipResults['0']!.objectKey!;

    await submit([{ ...clip, reusable_clip: true, clip_name: 'Promoted' }]);
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
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
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']).toMatchObject({ cached: true, objectKey: keptClip.objectKey });
  });

  it('a rendered clip gone by the time of assembly fails the video at once with render_expired', async () => {
    const { videoId, message } = await renderedVideo('Gone before assembly');
    await objects.delete((await videos.get(videoId))!.clipResults['0']!.objectKey!);
    await handleAssembleMessage(message, 1, 3, assembleDeps);
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
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const mine = (await videos.get(`vid_test${counter}`))!.clipResults['0']!;

    await submit([clip], true, { tenantId: 'acct_2', keyId: 'key_2' });
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
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
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const landscape = (await videos.get(`vid_test${counter}`))!;
    expect(renderClip.mock.calls.at(-1)![0].frame).toEqual({ width: 1280, height: 720 });

    await submit([clip], true, caller, { aspect_ratio: '9:16', resolution: '1080p' });
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const vertical = (await videos.get(`vid_test${counter}`))!;
    expect(vertical.shape).toEqual({ aspectRatio: '9:16', resolution: '1080p' });
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect(renderClip.mock.calls.at(-1)![0].frame).toEqual({ width: 1080, height: 1920 });
    expect(vertical.clipResults['0']!.cached).toBeUndefined();
    expect(vertical.clipResults['0']!.contentHash).not.toBe(landscape.clipResults['0']!.contentHash);

    // The same shape again is a cache hit.
    await submit([clip], true, caller, { aspect_ratio: '9:16', resolution: '1080p' });
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(2);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']).toMatchObject({
      cached: true,
      contentHash: vertical.clipResults['0']!.contentHash,
    });
  });

  it('is kept with a kept clip, which joins a video of its own shape and is refused by another', async () => {
    await submit([{ bot_uid: 'bot_leo', text: 'Kept square', reusable_clip: true }], true, caller, { aspect_ratio: '1:1' });
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    const kept = (await clipDeps.clips.list('acct_1', { limit: 100 })).items.find((c) => c.spec.text === 'Kept square')!;
    expect(kept.shape).toEqual({ aspectRatio: '1:1', resolution: '720p' });

    await expect(submit([{ clip_uid: kept.clipUid }])).rejects.toMatchObject({
      problems: [{ path: 'clips[0].clip_uid', message: expect.stringContaining('is 1:1 720p (720x720) and this video is 16:9 720p (1280x720)') }],
    });
    expect(renderQueue.take()).toEqual([]);

    await submit([{ clip_uid: kept.clipUid }], true, caller, { aspect_ratio: '1:1' });
    await handleRenderMessage(renderQueue.take()[0]!, 1, 3, clipDeps);
    expect(renderClip).toHaveBeenCalledTimes(1);
    expect((await videos.get(`vid_test${counter}`))!.clipResults['0']).toMatchObject({ cached: true, objectKey: kept.objectKey });
  });
});
