/**
 * `npm run bench`: the time from create to the signed webhook for a ≥ 60-second single-clip video, through
 * the local runtime (the real API, queues, render function, assembly and notifier), against a bare libx264
 * encode of a synthetic source of the same length (ffmpeg's testsrc2 pattern and a chord, the same preset,
 * CRF, size, frame rate, audio settings and binary), run in the same process while the service is not running.
 * Each shape is measured on its own, against a bare encode of its own frame size (16:9 and 9:16, 720p and
 * 1080p by default; `-- --shapes 9:16@1080p` picks others). The bare encode runs before and after the service
 * and the mean is the baseline (a shared machine's load drifts). Prints that ratio (target: at most 1.25 for
 * 16:9 720p, 1.3 for the other shapes) and where the video's time went, from the functions' logs.
 *
 * The clip's background is the same synthetic source, encoded once as an MP4 a caller would send, so the two
 * encodes see the same picture; the clip adds the bot, its voice, a fade in and a fade out. A short video goes
 * through the service first, so that every function is warm (locally a cold start compiles TypeScript; on
 * Lambda the functions are bundles).
 *
 * `-- --photo <image>` also makes a bot of the account from that photo (PUT /v1/bot/{uid}, the real prepare
 * function) and renders the same text with it, after a warm-up clip of its own: "rendering with a photo bot costs
 * no more than with a built-in one". The photo bot speaks Ava's espeak-ng voice at the catalog's rate, so its clip
 * is not exactly as long as Ava's: the comparison is per second of video (and its CPU), and the engine's time
 * drawing the bot.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BUILT_IN_BOTS } from '#domain/bot';
import { speechScriptOf } from '#domain/lexicon';
import { DEFAULT_SHAPE, describeShape, type FrameSize, frameSizeOf, type Shape, sameShape } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { VIDEO_ENCODE_ARGS } from '../../functions/media/formats.ts';
import { clipTiming } from '../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../functions/render/speech/index.ts';
import { createLog } from '../local/log.ts';
import { startLocalRuntime } from '../local/runtime.ts';
import { argument, BENCH_TEXT, bareEncode, cpuSeconds, loadAverage, parseShapes, syntheticBackground } from './bench-support.ts';
import { startFileServer } from './support/file-server.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';

/** The shapes measured by default: landscape and vertical, 720p and 1080p. */
const DEFAULT_SHAPES = '16:9@720p,16:9@1080p,9:16@720p,9:16@1080p';

interface LogLine {
  message?: string;
  timestamp?: string;
  video_id?: string;
  [field: string]: unknown;
}

/** The clip's length, from the same speech engine and timing rule the render uses. */
async function clipLength(work: string): Promise<number> {
  const bot = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;
  const speech = await new EspeakSpeechEngine().synthesize(speechScriptOf(BENCH_TEXT), voiceToSpeak(bot.voice, undefined, { polly: false }), work);
  return Number(clipTiming(speech.durationSeconds, { entry: 'fade_in', exit: 'fade_out' }).totalSeconds.toFixed(3));
}

interface ShapeRun {
  shape: Shape;
  frame: FrameSize;
  seconds: number;
  bare: { seconds: number; cpu: number; before: number; after: number };
  cpu: number;
  duration: number;
  loads: string;
  photo?: PhotoRun;
}

/** The same text spoken by a bot made from a photo, through the same runtime. */
interface PhotoRun {
  seconds: number;
  cpu: number;
  duration: number;
  prepareSeconds: number;
  drawSeconds: number;
  builtInDrawSeconds: number;
}

/** The targets of docs/performance.md: the 720p landscape video as before, every other shape within 1.3. */
const targetFor = (shape: Shape) => (sameShape(shape, DEFAULT_SHAPE) ? 1.25 : 1.3);

/** The local runtime of one shape's run, with what the bench sends and reads through it. */
interface BenchService {
  lines: LogLine[];
  receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  auth: { Authorization: string };
  url: string;
  create(text: string, captions?: 'none' | 'burn', botUid?: string): Promise<string>;
  video(id: string): Promise<any>;
  stop(): Promise<void>;
}

/** The measured video, with what the profile needs. */
interface VideoRun {
  seconds: number;
  cpu: number;
  t0: number;
  webhookAt: number;
  videoId: string;
  duration: number;
}

/** One shape: bare encode, the service (warm-up, then the measured video), bare encode again. */
async function benchShape(shape: Shape, root: string, work: string, length: number, photo?: Buffer): Promise<ShapeRun> {
  const frame = frameSizeOf(shape);
  const loadStart = loadAverage();
  const background = await syntheticBackground(join(root, '.local', 'samples', `background-testsrc2-60s-${frame.width}x${frame.height}.mp4`), frame);
  // The baseline runs before and after the service (the mean is the figure): a shared machine's load drifts.
  const bareBefore = await bareEncode(length, join(work, 'bare.mp4'), frame);
  const service = await startBenchService(shape, work, background);
  let result: VideoRun;
  let burned: { seconds: number; cpu: number };
  let photoRun: PhotoRun | undefined;
  try {
    result = await measureVideo(service);
    burned = await measureBurnedCaptions(service);
    if (photo) photoRun = await measurePhotoBot(service, photo, result.videoId);
  } finally {
    await service.stop();
  }
  const loadAfterService = loadAverage();

  if (Math.abs(result.duration - length) > 0.05) throw new Error(`the clip lasts ${result.duration} s, not the ${length} s the baseline encoded`);
  const bareAfter = await bareEncode(length, join(work, 'bare.mp4'), frame);
  const bare = {
    seconds: (bareBefore.seconds + bareAfter.seconds) / 2,
    cpu: (bareBefore.cpu + bareAfter.cpu) / 2,
    before: bareBefore.seconds,
    after: bareAfter.seconds,
  };
  const loads = `${loadStart} / ${loadAfterService} / ${loadAverage()}`;
  printShape({ shape, frame, length, result, bare, burned, photoRun, loads });
  printProfile(service.lines, result);
  return { shape, frame, seconds: result.seconds, bare, cpu: result.cpu, duration: result.duration, loads, ...(photoRun ? { photo: photoRun } : {}) };
}

/** The local runtime (its functions' log lines kept), a file server for the background, a webhook receiver. */
async function startBenchService(shape: Shape, work: string, background: string): Promise<BenchService> {
  const frame = frameSizeOf(shape);
  const lines: LogLine[] = [];
  const files = await startFileServer({ '/background.mp4': background });
  const runtime = await startLocalRuntime({
    port: 0,
    dataDir: join(work, `data-${frame.width}x${frame.height}`),
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
  const receiver = await startWebhookReceiver(runtime.devTenant!.webhookSecret);
  const auth = { Authorization: `Bearer ${runtime.devTenant!.apiKey}` };
  const create = async (text: string, captions: 'none' | 'burn' = 'none', botUid = 'bot_ava') => {
    const response = await fetch(`${runtime.url}/v1/bot`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        webhook: receiver.url,
        aspect_ratio: shape.aspectRatio,
        resolution: shape.resolution,
        captions,
        clips: [
          {
            bot_uid: botUid,
            text,
            bot_position: 'bottom-right',
            background: `${files.base}/background.mp4`,
            background_volume: 0.2,
            transitions: 'fade_in fade_out',
          },
        ],
      }),
    });
    if (response.status !== 202) throw new Error(`create answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { video_id: string }).video_id;
  };
  const video = async (id: string) => (await (await fetch(`${runtime.url}/v1/video/${id}`, { headers: auth })).json()) as any;
  return {
    lines,
    receiver,
    auth,
    url: runtime.url,
    create,
    video,
    async stop() {
      await receiver.stop();
      await runtime.stop();
      await files.stop();
    },
  };
}

/** A warm-up video, then the measured one: create to the signed webhook, and the CPU of the whole service. */
async function measureVideo({ create, video, receiver }: BenchService): Promise<VideoRun> {
  // Warm-up: every function's first invocation, the speech engine's compilation, the sprites at this size.
  await create('Warming up the service.');
  await receiver.waitForDelivered(1, 300_000);

  const cpu0 = cpuSeconds();
  const t0 = Date.now();
  const videoId = await create(BENCH_TEXT);
  await receiver.waitForDelivered(2, 600_000);
  const webhookAt = Date.now();
  const cpu = cpuSeconds() - cpu0;
  const done = await video(videoId);
  if (done.status !== 'completed') throw new Error(`video ${done.status}: ${JSON.stringify(done.error)}`);
  return { seconds: (webhookAt - t0) / 1000, cpu, t0, webhookAt, videoId, duration: done.clips[0].duration_seconds };
}

/** The same video with its captions burned in (captions: "burn" is part of the cache key: rendered anew). */
async function measureBurnedCaptions({ create, video, receiver }: BenchService): Promise<{ seconds: number; cpu: number }> {
  const burnCpu = cpuSeconds();
  const burnT0 = Date.now();
  const burnedId = await create(BENCH_TEXT, 'burn');
  await receiver.waitForDelivered(3, 600_000);
  const burned = { seconds: (Date.now() - burnT0) / 1000, cpu: cpuSeconds() - burnCpu };
  if ((await video(burnedId)).status !== 'completed') throw new Error('the video with burned captions did not complete');
  return burned;
}

/**
 * A bot from the photo, prepared by the real prepare function; then a warm-up clip (its sprites at this
 * size, as Ava's were warmed up), then the measured one.
 */
async function measurePhotoBot(service: BenchService, photo: Buffer, builtInVideoId: string): Promise<PhotoRun> {
  const { create, video, receiver, auth, lines } = service;
  const form = new FormData();
  form.set('name', 'Bench photo');
  form.set('voice', voiceToSpeak(BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!.voice, undefined, { polly: false }).id);
  form.set('webhook', receiver.url);
  form.set('image', new Blob([photo]), 'photo');
  const prepareT0 = Date.now();
  const put = await fetch(`${service.url}/v1/bot/bench-photo`, { method: 'PUT', headers: auth, body: form });
  if (put.status !== 202) throw new Error(`PUT /v1/bot/bench-photo answered ${put.status}: ${await put.text()}`);
  await receiver.waitForDelivered(4, 300_000);
  const prepared = receiver.delivered()[3]!.event;
  if (prepared?.type !== 'bot.ready') throw new Error(`the photo bot did not become ready: ${JSON.stringify(prepared?.data.error)}`);
  const prepareSeconds = (Date.now() - prepareT0) / 1000;
  await create('Warming up the photo bot.', 'none', 'bench-photo');
  await receiver.waitForDelivered(5, 300_000);
  const photoCpu = cpuSeconds();
  const photoT0 = Date.now();
  const photoId = await create(BENCH_TEXT, 'none', 'bench-photo');
  await receiver.waitForDelivered(6, 600_000);
  const seconds = (Date.now() - photoT0) / 1000;
  const cpu = cpuSeconds() - photoCpu;
  const done = await video(photoId);
  if (done.status !== 'completed') throw new Error(`photo bot video ${done.status}: ${JSON.stringify(done.error)}`);
  const drawOf = (id: string) => Number(lines.find((l) => l.video_id === id && l.message === 'clip rendered')?.draw_ms ?? NaN) / 1000;
  return {
    seconds,
    cpu,
    duration: done.clips[0].duration_seconds,
    prepareSeconds,
    drawSeconds: drawOf(photoId),
    builtInDrawSeconds: drawOf(builtInVideoId),
  };
}

/** One shape's figures, as rows of label and value. */
function printShape(run: {
  shape: Shape;
  frame: FrameSize;
  length: number;
  result: VideoRun;
  bare: ShapeRun['bare'];
  burned: { seconds: number; cpu: number };
  photoRun?: PhotoRun;
  loads: string;
}): void {
  const { shape, frame, length, result, bare, burned, photoRun, loads } = run;
  const ratio = result.seconds / bare.seconds;
  const row = (label: string, value: string) => console.log(`${label.padEnd(72)}${value}`);
  console.log(`\n${describeShape(shape)}`);
  row(`clip length (${frame.width}x${frame.height}, 30 fps, fade in and out)`, `${result.duration.toFixed(1)} s`);
  row('create -> signed webhook received', `${result.seconds.toFixed(2)} s`);
  row(
    'bare libx264 encode of a synthetic source, same length and size',
    `${bare.seconds.toFixed(2)} s (before ${bare.before.toFixed(2)} s, after ${bare.after.toFixed(2)} s)`,
  );
  row(`RATIO create -> webhook / bare encode (target <= ${targetFor(shape)})`, ratio.toFixed(2));
  row(
    'CPU: whole service for the video / bare encode',
    `${result.cpu.toFixed(1)} s / ${bare.cpu.toFixed(1)} s (ratio ${(result.cpu / bare.cpu).toFixed(2)})`,
  );
  row(
    'the same video with captions: "burn", create -> webhook (target: +10 % at most)',
    `${burned.seconds.toFixed(2)} s (${(((burned.seconds - result.seconds) / result.seconds) * 100).toFixed(1)} %; CPU ${burned.cpu.toFixed(1)} s, ${(((burned.cpu - result.cpu) / result.cpu) * 100).toFixed(1)} %)`,
  );
  if (photoRun) {
    const p = photoRun;
    const perSecond = p.seconds / p.duration / (result.seconds / result.duration);
    row('photo bot: PUT -> signed bot.ready (prepare function, warm runtime)', `${p.prepareSeconds.toFixed(2)} s`);
    row(
      `photo bot: the same text (${p.duration.toFixed(1)} s clip), create -> signed webhook`,
      `${p.seconds.toFixed(2)} s (ratio to the bare encode, scaled to its length: ${(p.seconds / (bare.seconds * (p.duration / length))).toFixed(2)})`,
    );
    row('PHOTO / BUILT-IN per second of video: wall time (target <= 1)', perSecond.toFixed(2));
    row(
      'photo / built-in per second of video: CPU of the whole service',
      `${(p.cpu / p.duration / (result.cpu / result.duration)).toFixed(2)} (${p.cpu.toFixed(1)} s / ${result.cpu.toFixed(1)} s)`,
    );
    row('drawing the bot inside the ffmpeg pass: photo / built-in', `${p.drawSeconds.toFixed(2)} s / ${p.builtInDrawSeconds.toFixed(2)} s`);
  }
  row('load average (1/5/15 min) at the start / after the service / at the end', loads);
}
async function main() {
  // `npm run bench -- --shapes 9:16@1080p` measures only that shape; docs/performance.md's figures use the default list.
  const shapes = parseShapes(argument('shapes') ?? DEFAULT_SHAPES);
  const photoPath = argument('photo');
  const photo = photoPath ? readFileSync(photoPath) : undefined;
  const root = resolve(import.meta.dirname, '../..');
  const work = mkdtempSync(join(tmpdir(), 'vidbot-bench-'));
  const runs: ShapeRun[] = [];
  try {
    const length = await clipLength(work);
    for (const shape of shapes) runs.push(await benchShape(shape, root, work, length, photo));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`\nencoder: ${VIDEO_ENCODE_ARGS.join(' ')}`);
  console.log(
    '| Shape | Frame | Create → webhook | Bare encode (before / after) | Ratio | Target | CPU: service / bare | Load (start / after service / end) |\n|---|---|---|---|---|---|---|---|',
  );
  for (const r of runs)
    console.log(
      `| ${r.shape.aspectRatio} ${r.shape.resolution} | ${r.frame.width}x${r.frame.height} | ${r.seconds.toFixed(2)} s | ${r.bare.seconds.toFixed(2)} s (${r.bare.before.toFixed(2)} / ${r.bare.after.toFixed(2)}) | ` +
        `**${(r.seconds / r.bare.seconds).toFixed(2)}** | ${targetFor(r.shape)} | ${r.cpu.toFixed(1)} s / ${r.bare.cpu.toFixed(1)} s (${(r.cpu / r.bare.cpu).toFixed(2)}) | ${r.loads} |`,
    );
  const photos = runs.filter((r) => r.photo);
  if (photos.length) {
    console.log(
      '\n| Shape | Built-in (Ava): create → webhook, clip | Photo bot: create → webhook, clip | Photo / built-in per second of video: wall, CPU | Drawing the bot: photo / built-in |\n|---|---|---|---|---|',
    );
    for (const r of photos) {
      const p = r.photo!;
      console.log(
        `| ${r.shape.aspectRatio} ${r.shape.resolution} | ${r.seconds.toFixed(2)} s, ${r.duration.toFixed(1)} s | ${p.seconds.toFixed(2)} s, ${p.duration.toFixed(1)} s | ` +
          `**${(p.seconds / p.duration / (r.seconds / r.duration)).toFixed(2)}**, ${(p.cpu / p.duration / (r.cpu / r.duration)).toFixed(2)} | ${p.drawSeconds.toFixed(2)} s / ${p.builtInDrawSeconds.toFixed(2)} s |`,
      );
    }
  }
}

/** Where the video's time went, from the 'clip rendered' and 'video completed' log lines of its functions. */
function printProfile(lines: LogLine[], run: { seconds: number; t0: number; webhookAt: number; videoId: string }) {
  const of = (message: string) => lines.find((l) => l.video_id === run.videoId && l.message === message);
  const rendered = of('clip rendered');
  const completed = of('video completed');
  if (!rendered || !completed) return console.log('\n(no profile: the functions logged no "clip rendered" / "video completed" line)');
  const n = (field: string) => Number(rendered[field] ?? 0) / 1000;
  const renderedAt = Date.parse(rendered.timestamp!);
  const renderStart = renderedAt - Number(rendered.render_ms);
  const completedAt = Date.parse(completed.timestamp!);
  const engine = n('speech_ms') + n('setup_ms') + n('encode_ms');
  const rows: [string, number][] = [
    ['create request, render queue hop, cache lookups', (renderStart - run.t0) / 1000],
    // The background downloads while the speech is synthesised: what is left of it after the speech is waited
    // for in the setup row, so the two rows add up to the wall time.
    ['speech synthesis (espeak-ng), the background fetched meanwhile', n('speech_ms')],
    ['rest of the background fetch and inspection, sprites, lip sync, poses, command', n('setup_ms')],
    ['ffmpeg: background decode, overlay, encode (one pass)', n('encode_ms')],
    ['upload of the clip', n('upload_ms')],
    ['other render job work', Math.max(0, n('render_ms') - engine - n('upload_ms'))],
    ['clip recorded, assemble queue hop, assembly', (completedAt - renderedAt) / 1000],
    ['notify queue hop, signed webhook delivered', (run.webhookAt - completedAt) / 1000],
  ];
  console.log(`\nWhere the time went (video ${run.videoId}):`);
  console.log(`| Stage | Seconds | Share |\n|---|---|---|`);
  for (const [label, seconds] of rows) console.log(`| ${label} | ${seconds.toFixed(2)} | ${((seconds / run.seconds) * 100).toFixed(1)} % |`);
  console.log(`| **create → webhook** | **${run.seconds.toFixed(2)}** | 100 % |`);
  console.log(
    `(inside the ffmpeg pass: drawing the bot's frames in Node took ${n('draw_ms').toFixed(2)} s; first frame handed to ffmpeg ${n('first_frame_ms').toFixed(2)} s after the render started; the assembly itself ${(Number(completed.assemble_ms ?? 0) / 1000).toFixed(2)} s)`,
  );
  console.log(`(the background's download and inspection took ${n('background_ms').toFixed(2)} s, alongside the speech)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
