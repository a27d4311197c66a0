/**
 * The render pipeline's collaborators for its integration tests: the stores on dynalite (started once per file), a
 * folder standing in for the bucket, recording queues, and stand-ins for the media engine, the poster, the join and
 * the background download (each tested on its own with real ffmpeg). The clock is the calling file's, so that its
 * tests can move it.
 */

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoLexiconStore } from '#commons/aws/dynamo-lexicons';
import { DynamoAccountStore, DynamoBotCatalog, DynamoClipLibrary } from '#commons/aws/dynamo-stores';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { runQueueJob } from '#commons/jobs';
import { BUILT_IN_BOTS } from '#domain/bot';
import { parseCreateVideo } from '#domain/create-request';
import type { AssembleMessage, DeliverMessage, FetchMediaMessage, RenderClipMessage } from '#domain/messages';
import type { MusicSpec } from '#domain/music';
import { createVideo } from '#domain/videos';
import { type AssembleDeps, assembleJob } from '#functions/assemble/assemble-job.ts';
import { type FetchJobDeps, fetchJob } from '#functions/fetcher/fetch-job.ts';
import type { BackgroundMedia } from '#functions/media/background-media.ts';
import type { ConcatInput } from '#functions/media/concat.ts';
import type { MediaDownload } from '#functions/media/fetch-media.ts';
import type { ImageMedia } from '#functions/media/image-media.ts';
import type { MixMusicInput } from '#functions/media/music.ts';
import type { ImageSubject } from '#functions/media/remote-media.ts';
import { type ClipJobDeps, renderJob } from '#functions/render/clip-job.ts';
import type { RenderClipInput, RenderClipOutput, VideoClipInput } from '#functions/render/engine/types.ts';
import { lookDirectories } from '#functions/render/look-cache.ts';
import { fetchRecording } from '#functions/render/recording.ts';
import { assemblyLeaseSeconds } from '#infra/wiring.ts';
import { startDynamo } from './dynamo.ts';
import { FolderObjectStore, RecordingQueue } from './fakes.ts';

let now: () => Date;
export let dynamo: Awaited<ReturnType<typeof startDynamo>>;
export let videos: DynamoVideoRepository;
let accounts: DynamoAccountStore;
export let objects: FolderObjectStore;
export const renderQueue = new RecordingQueue<RenderClipMessage>();
export const assembleQueue = new RecordingQueue<AssembleMessage>();
export const notifyQueue = new RecordingQueue<DeliverMessage>();
export let counter = 0;

/** The engine's input of a video clip, to read its picture (a voice clip's input has none). */
export function videoInput(input: RenderClipInput): VideoClipInput {
  if (input.mode !== 'video') throw new Error('expected the input of a video clip, got a voice clip');
  return input;
}

/** A stand-in for the media engine (tested on its own with real ffmpeg): writes a file named after its input. */
export const renderClip = vi.fn(async (input: RenderClipInput): Promise<RenderClipOutput> => {
  const path = join(input.workDir, 'clip.mp4');
  const durationSeconds = input.text.length / 10;
  // One cue of the clip's text, over its middle, as the engine would time it; marked when burned.
  const cueOf = (text: string) => [{ startSeconds: 0.1, endSeconds: durationSeconds - 0.1, lines: [text] }];
  if (input.mode === 'voice') {
    // A voice has no bot to draw: the file names what it says.
    await writeFile(path, `voice:${input.text}`);
    return { path, contentType: 'audio/mpeg', durationSeconds, cues: cueOf(input.text), words: [] };
  }
  await writeFile(path, `${input.bot.uid}:${input.text}`);
  const cues = cueOf(`${input.text}${input.captions === 'burn' ? ' [burned]' : ''}`);
  // The engine's poster: a frame of the same pass.
  const posterPath = join(input.workDir, 'poster.jpg');
  await writeFile(posterPath, `frame of ${input.bot.uid}:${input.text}`);
  return { path, contentType: 'video/mp4', durationSeconds, cues, words: [], posterPath };
});
/** Stands for media.ts extractPoster on the fake clips: the poster names the file and the moment it was taken at. */
export const poster = vi.fn(async (videoPath: string, atSeconds: number, posterPath: string) => {
  await writeFile(posterPath, `poster of ${videoPath.split('/').pop()} at ${atSeconds.toFixed(2)}`);
  return posterPath;
});
export const concat = vi.fn(async (input: ConcatInput) => {
  const { readFile } = await import('node:fs/promises');
  const parts = await Promise.all(input.parts.map((p) => readFile(p, 'utf8')));
  const path = join(input.workDir, 'joined');
  await writeFile(path, parts.join('|'));
  return { path, contentType: 'video/mp4', durationSeconds: 9, sizeBytes: 1 };
});
/** Stands for the music bed (functions/assemble/music.ts musicBed): a file naming the music. */
export const musicBed = vi.fn(async (music: MusicSpec, workDir: string, seconds: number, _fetchedKey: string, _deadline?: number) => {
  const path = join(workDir, 'music.wav');
  await writeFile(path, `bed of ${music.preset ?? music.url} for ${seconds.toFixed(1)} s`);
  return path;
});
/** Stands for the mix (functions/media/music.ts mixMusic): the joined file, then what was laid under it. */
export const mixMusic = vi.fn(async (input: MixMusicInput) => {
  const { readFile } = await import('node:fs/promises');
  const path = join(input.workDir, 'mixed');
  const speech = input.speech.map((s) => `${s.startSeconds}-${s.endSeconds}`).join(',');
  await writeFile(path, `${await readFile(input.input, 'utf8')} + ${await readFile(input.music, 'utf8')} at ${input.volume} ducked at ${speech}`);
  return { path, sizeBytes: 1 };
});
export const fetchBackground = vi.fn(async (_url: string, path: string, _workDir: string): Promise<BackgroundMedia> => {
  await writeFile(path, 'bg');
  return { path, format: { demuxer: 'mov', label: 'MP4 / MOV' }, width: 1280, height: 720, hasAudio: false };
});

/** Stands for render/image.ts fetchImage (tested on its own with real files and a local server). */
export const fetchImage = vi.fn(async (_url: string, path: string, _subject: ImageSubject): Promise<ImageMedia> => {
  await writeFile(path, 'image');
  return { path, format: { demuxer: 'png_pipe', label: 'PNG' }, width: 400, height: 200 };
});

/** Stands for the fetch stage's download (functions/media/fetch-media.ts, tested on its own): the file names its URL. */
export const download = vi.fn(async (url: string, path: string, _what: MediaDownload) => {
  await writeFile(path, `fetched ${url}`);
  return 1;
});
/** The URL whose answer the fetch stage stored under `key` (the stand-in download writes its name). */
export const urlFetchedAt = async (key: string) => (await objects.getText(key))?.replace(/^fetched /, '');
/** A queue whose messages are worked on as they are sent: the fetch stage hands back to the render or assembly. */
const runAtOnce = <M>(work: (message: M) => Promise<void>) => ({
  send: work,
  sendBatch: async (messages: M[]) => {
    for (const message of messages) await work(message);
  },
});

export let clipDeps: ClipJobDeps;
export let assembleDeps: AssembleDeps;
let fetchDeps: FetchJobDeps;
/** The fetch stage: its real job, on the stand-in download; what it queues runs at once (with the files' deps). */
const fetchQueue = runAtOnce((message: FetchMediaMessage) => runQueueJob(fetchJob, message, 1, 3, fetchDeps));
export const caller = { tenantId: 'acct_1', keyId: 'key_1' };

export async function submit(clips: unknown[], createVideoFlag = true, who = caller, fields: Record<string, unknown> = {}) {
  const command = parseCreateVideo({ webhook: 'https://hooks.test/done', create_video: createVideoFlag, clips, ...fields });
  return createVideo(command, who, {
    bots: clipDeps.bots,
    accountBots: clipDeps.accountBots,
    accounts,
    videos,
    clips: clipDeps.clips,
    renderQueue,
    now: () => now(),
    newVideoId: () => `vid_test${++counter}`,
    voices: { polly: false },
  });
}

/** Starts dynalite and the stores for the calling file, on its clock; clears the stand-ins and the queues before each test. */
export function useRenderPipeline(clock: () => Date) {
  now = clock;
  beforeAll(async () => {
    dynamo = await startDynamo();
    videos = new DynamoVideoRepository(dynamo.client, 'videos', () => now());
    // These tests leave many of one account's videos queued: its limit of videos in progress is raised as the keys CLI would.
    accounts = new DynamoAccountStore(dynamo.client, 'accounts');
    await accounts.put({ tenantId: caller.tenantId, name: 'pipeline tests', createdAt: now().toISOString() });
    await accounts.setMaxVideosInProgress(caller.tenantId, 1000);
    objects = await FolderObjectStore.create(() => now());
    const bots = new DynamoBotCatalog(dynamo.client, 'bots');
    for (const bot of BUILT_IN_BOTS) await bots.put(bot);
    const accountBots = new DynamoAccountBotStore(dynamo.client, 'accountBots');
    clipDeps = {
      videos,
      bots,
      accountBots,
      lookDirectory: lookDirectories(objects, await mkdtemp(join(tmpdir(), 'looks-'))),
      clips: new DynamoClipLibrary(dynamo.client, 'clips'),
      lexicons: new DynamoLexiconStore(dynamo.client, 'lexicons'),
      objects,
      assembleQueue,
      notifyQueue,
      fetchQueue,
      renderClip,
      speechFor: () => ({ name: 'none', synthesize: async () => ({ wavPath: '', sampleRate: 0, durationSeconds: 0, words: [] }) }),
      fetchBackground,
      fetchImage,
      fetchRecording: (recording, path) => fetchRecording(recording, path, objects),
      voices: { polly: false },
      now: () => now(),
    };
    assembleDeps = { videos, objects, notifyQueue, fetchQueue, concat, poster, musicBed, mixMusic, assemblyLeaseSeconds };
    fetchDeps = {
      videos,
      objects,
      renderQueue: runAtOnce((message: RenderClipMessage) => runQueueJob(renderJob, message, 1, 3, clipDeps)),
      assembleQueue: runAtOnce((message: AssembleMessage) => runQueueJob(assembleJob, message, 1, 3, assembleDeps)),
      notifyQueue,
      download,
      mode: 'local',
    };
  });
  afterAll(() => dynamo.stop());
  beforeEach(() => {
    renderClip.mockClear();
    concat.mockClear();
    poster.mockClear();
    fetchBackground.mockClear();
    fetchImage.mockClear();
    download.mockClear();
    musicBed.mockClear();
    mixMusic.mockClear();
    for (const q of [renderQueue, assembleQueue, notifyQueue]) q.take();
  });
}

/** A promise and the function that settles it: holds a stubbed step until the test lets it go on. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

export async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

/** Submits a two-clip video and renders it: the video is ready to assemble (by concat). Returns its id and assemble message. */
export async function renderedVideo(text: string) {
  const created = await submit([
    { bot_uid: 'bot_ava', text },
    { bot_uid: 'bot_leo', text: `${text}, again` },
  ]);
  for (const message of renderQueue.take()) await runQueueJob(renderJob, message, 1, 3, clipDeps);
  const [message] = assembleQueue.take();
  expect(message).toBeDefined();
  return { videoId: created.videoId, message: message! };
}
