/**
 * The service as `npm run bench` drives it: the local runtime started as `npm start` starts it (the functions on a
 * video's path pre-warmed), a file server for the backgrounds and the logo, a webhook receiver; one video measured
 * from create to the signed webhook with the CPU of the whole process (the functions run in this process's
 * threads, ffmpeg in its waited-for children); the account's photo and drawn bots made through the real API.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { BUILT_IN_BOTS } from '#domain/bot';
import type { Shape } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { readWav, wavFromPcm16 } from '#media/wav';
import { createLog } from '../../local/log.ts';
import { startLocalRuntime } from '../../local/runtime.ts';
import { startFileServer } from '../support/file-server.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import type { LogLine, VideoRun } from './report.ts';
import { cpuSeconds } from './support.ts';
import { ThreadWatch } from './threads.ts';

/** One create: the clip's fields over the bench's defaults, the video's fields, and which background file. */
export interface Variant {
  shape: Shape;
  text: string;
  /** A file the server serves (`/background-…mp4`). */
  background: string;
  /** Makes the background's URL another (its content is the same): the clip is rendered, not found in the cache. */
  run: string;
  botUid?: string;
  clip?: Record<string, unknown>;
  video?: Record<string, unknown>;
}

export interface BenchService {
  lines: LogLine[];
  files: string;
  measure(variant: Variant): Promise<VideoRun>;
  /** PUTs a bot of the account and waits for its signed `bot.ready`; returns the seconds it took. */
  makeBot(uid: string, form: FormData): Promise<number>;
  stop(): Promise<void>;
}

/** What the bench's steps share: the runtime, the file server, the webhook receiver and the dev key. */
interface Running {
  runtime: Awaited<ReturnType<typeof startLocalRuntime>>;
  server: Awaited<ReturnType<typeof startFileServer>>;
  receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  auth: { Authorization: string };
}

/** Starts the runtime (as `npm start`: `prewarm`), serving `files` (path → local file) to it. */
export async function startBenchService(dataDir: string, files: Record<string, string>): Promise<BenchService> {
  const lines: LogLine[] = [];
  // libuv's pool starts with the first file read: from this thread, so its threads do not inherit a function's name.
  await readFile('/proc/loadavg');
  const server = await startFileServer(files);
  const runtime = await startProfiledRuntime(dataDir, lines);
  const receiver = await startWebhookReceiver(runtime.devTenant!.webhookSecret);
  const running: Running = { runtime, server, receiver, auth: { Authorization: `Bearer ${runtime.devTenant!.apiKey}` } };
  return {
    lines,
    files: server.base,
    measure: (variant) => measureVideo(running, variant),
    makeBot: (uid, form) => makeBot(running, uid, form),
    async stop() {
      await receiver.stop();
      await runtime.stop();
      await server.stop();
    },
  };
}

/** The local runtime whose functions' JSON log lines are collected into `lines`: they are the bench's profile. */
function startProfiledRuntime(dataDir: string, lines: LogLine[]) {
  return startLocalRuntime({
    prewarm: true,
    port: 0,
    dataDir,
    logLevel: 'warn',
    functionLogLevel: 'INFO',
    log: createLog('warn'),
    requestRate: false,
    // The functions' log lines are the profile; the metrics lines are not needed here.
    functionOutput: (line) => {
      if (!line.startsWith('{')) return;
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // not a log line
      }
    },
  });
}

/** POSTs the variant's video (one clip over the bench's defaults) and returns its id. */
async function createVideo({ runtime, server, receiver, auth }: Running, v: Variant): Promise<string> {
  const response = await fetch(`${runtime.url}/v1/bot`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      webhook: receiver.url,
      aspect_ratio: v.shape.aspectRatio,
      resolution: v.shape.resolution,
      ...v.video,
      clips: [
        {
          bot_uid: v.botUid ?? 'bot_ava',
          text: v.text,
          bot_position: 'bottom-right',
          background: `${server.base}${v.background}?run=${encodeURIComponent(v.run)}`,
          background_volume: 0.1,
          transitions: 'fade_in fade_out',
          reusable_clip: false,
          ...v.clip,
        },
      ],
    }),
  });
  if (response.status !== 202) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { video_id: string }).video_id;
}

/** One video from create to its signed webhook, with the process's CPU over that time, split by thread. */
async function measureVideo(running: Running, v: Variant): Promise<VideoRun> {
  const { runtime, receiver, auth } = running;
  const delivered = receiver.delivered().length;
  const cpu0 = cpuSeconds();
  const threads = new ThreadWatch();
  const t0 = Date.now();
  const videoId = await createVideo(running, v);
  await receiver.waitForDelivered(delivered + 1, 900_000);
  const webhookAt = Date.now();
  const cpu = cpuSeconds() - cpu0;
  const split = threads.stop();
  const done = (await (await fetch(`${runtime.url}/v1/video/${videoId}`, { headers: auth })).json()) as any;
  if (done.status !== 'completed') throw new Error(`video ${done.status}: ${JSON.stringify(done.error)}`);
  return { seconds: (webhookAt - t0) / 1000, cpu, split, t0, webhookAt, videoId, duration: done.clips[0].duration_seconds };
}

/** PUTs a bot of the account and waits for its `bot.ready`; the seconds it took. */
async function makeBot({ runtime, receiver, auth }: Running, uid: string, form: FormData): Promise<number> {
  form.set('webhook', receiver.url);
  const t0 = Date.now();
  const before = receiver.delivered().length;
  const put = await fetch(`${runtime.url}/v1/bot/${uid}`, { method: 'PUT', headers: auth, body: form });
  if (put.status !== 202) throw new Error(`PUT /v1/bot/${uid} answered ${put.status}: ${await put.text()}`);
  await receiver.waitForDelivered(before + 1, 600_000);
  const event = receiver.delivered()[before]!.event;
  if (event?.type !== 'bot.ready') throw new Error(`bot ${uid} did not become ready: ${JSON.stringify(event?.data.error)}`);
  return (Date.now() - t0) / 1000;
}

const ava = () => BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;

/** A bot from one photo (the real prepare function: faces, matting, warps), speaking Ava's espeak-ng voice. */
export function photoBotForm(photo: Buffer): FormData {
  const form = new FormData();
  form.set('name', 'Bench photo');
  form.set('voice', voiceToSpeak(ava().voice, undefined, { polly: false }).id);
  form.set('image', new Blob([photo]), 'photo');
  return form;
}

/** A bot from drawings: Ava's closed and open head frames, as an artist would send two drawings. */
export function drawnBotForm(botsDirectory: string): FormData {
  const form = new FormData();
  form.set('name', 'Bench drawing');
  form.set('voice', voiceToSpeak(ava().voice, undefined, { polly: false }).id);
  for (const [part, file] of [
    ['mouth_closed', 'head-m0-eo.png'],
    ['mouth_open', 'head-m4-eo.png'],
  ] as const)
    form.set(part, new Blob([readFileSync(join(botsDirectory, 'ava', file))], { type: 'image/png' }), file);
  return form;
}

/** A video bot from the recording at `path` (docs/video-bots.md), consent given, speaking Ava's espeak-ng voice. */
export function videoBotForm(path: string): FormData {
  const form = new FormData();
  form.set('name', 'Bench video');
  form.set('voice', voiceToSpeak(ava().voice, undefined, { polly: false }).id);
  form.set('consent', 'true');
  form.set('video', new Blob([readFileSync(path)], { type: 'video/mp4' }), 'recording.mp4');
  return form;
}

/** The full scene's fields: a large presenter, a logo, a title and two lower thirds, ducked music. */
export const fullScene = (files: string) => ({
  clip: {
    bot_size: 'large',
    overlays: [
      { type: 'text', style: 'title', text: 'What vidbot does', start: 0.6, end: 4.5 },
      { type: 'text', style: 'lower_third', text: 'Ava · Presenter', start: 5, end: 12 },
      { type: 'text', style: 'lower_third', text: 'Rendered on demand', start: 30, end: 38 },
    ],
  },
  video: { logo: { url: `${files}/logo.png`, position: 'top-right', size: 0.12 }, music: { preset: 'calm', volume: 0.3 } },
});

/** A brand's logo: a rounded mark and a word, with transparency, as a PNG a caller would send. */
export async function benchLogo(path: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160"><rect x="4" y="4" width="152" height="152" rx="36" fill="#4f46e5"/><circle cx="80" cy="80" r="38" fill="#fff"/><text x="180" y="108" font-family="sans-serif" font-size="72" font-weight="700" fill="#fff">vidbot</text></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(path);
  return path;
}

/** Debian's pocketsphinx-testdata: five LibriVox sentences with their transcripts (`.ci/run` installs it for tests). */
const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';

/**
 * The `recorded` kind's recording: the five LibriVox sentences (Jane Austen's *Sense and Sensibility* read by a
 * volunteer; public domain) one after another, and again, until at least `seconds` long, written to `path` as the
 * 16-kHz WAV they are; and its transcript, their words in the same order.
 */
export function benchRecording(path: string, seconds: number): { path: string; transcript: string } {
  const sentences = readFileSync(join(LIBRIVOX, 'transcription'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [, text, id] = /^<s> (.*) <\/s> \((.*)\)$/.exec(line)!;
      return { text: text!.trim(), pcm: readWav(join(LIBRIVOX, `${id}.wav`)) };
    });
  const rate = sentences[0]!.pcm.sampleRate;
  const parts: Int16Array[] = [];
  const words: string[] = [];
  for (let length = 0, i = 0; length < seconds * rate; i++) {
    const sentence = sentences[i % sentences.length]!;
    parts.push(Int16Array.from(sentence.pcm.samples, (v) => Math.round(v * 32768)));
    words.push(sentence.text);
    length += sentence.pcm.samples.length;
  }
  const pcm = Buffer.concat(parts.map((p) => Buffer.from(p.buffer)));
  writeFileSync(path, wavFromPcm16(pcm, rate));
  return { path, transcript: words.join(' ') };
}
