/**
 * `npm run bench`: the time from create to the signed webhook for a ≥ 60-second single-clip video, through
 * the local runtime (the real API, queues, render function, assembly and notifier), against **the floor** of any
 * compositing render: the same ffmpeg binary decoding the same background (looped to the clip's length, its sound
 * included) and encoding it with the clips' settings, the same length and frame size. The background is like a
 * caller's (bench-support.ts realWorldBackground: H.264 High profile, x264 `medium`, grain, stereo AAC). A bare
 * encode of a generated pattern (no decode) is reported beside it, as before.
 *
 * Each shape (16:9 and 9:16, 720p and 1080p by default; `-- --shapes 9:16@1080p` picks others) gets a fresh
 * runtime and these videos, in order:
 * - **first**: the clip, as the first video after the runtime starts (every function cold; locally a cold start
 *   compiles TypeScript, on Lambda the functions are bundles). Target ≤ 1.2× the floor.
 * - **warm**: the same clip again (its background under another URL, so it is rendered, not found in the cache).
 *   Target ≤ 1.10× the floor.
 * - **burned captions**: the same with `captions: "burn"` (target: +10 % at most over warm).
 * - **full scene**: `bot_size: "large"`, a logo, a title and two lower thirds, and ducked music (the `calm` preset),
 *   after a short warm-up scene. Target ≤ 1.25× the floor.
 * The floor and the bare encode run before and after the service and the means are the baselines (a shared
 * machine's load drifts). CPU seconds (this process and its children) are printed beside every wall figure.
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
import sharp from 'sharp';
import { BUILT_IN_BOTS } from '#domain/bot';
import { speechScriptOf } from '#domain/lexicon';
import { describeShape, frameSizeOf, type Shape } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { VIDEO_ENCODE_ARGS } from '../../functions/media/formats.ts';
import { clipTiming } from '../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../functions/render/speech/index.ts';
import { createLog } from '../local/log.ts';
import { startLocalRuntime } from '../local/runtime.ts';
import {
  type Baseline,
  type LogLine,
  type PhotoRun,
  printProfile,
  printShape,
  ratio,
  type ShapeRun,
  TARGETS,
  type VideoRun,
} from './bench-report.ts';
import { argument, BENCH_TEXT, bareEncode, cpuSeconds, floorEncode, loadAverage, parseShapes, realWorldBackground } from './bench-support.ts';
import { startFileServer } from './support/file-server.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';

/** The shapes measured by default: landscape and vertical, 720p and 1080p. */
const DEFAULT_SHAPES = '16:9@720p,16:9@1080p,9:16@720p,9:16@1080p';

/** The clip's length, from the same speech engine and timing rule the render uses. */
async function clipLength(work: string): Promise<number> {
  const bot = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;
  const speech = await new EspeakSpeechEngine().synthesize(speechScriptOf(BENCH_TEXT), voiceToSpeak(bot.voice, undefined, { polly: false }), work);
  return Number(clipTiming(speech.durationSeconds, { entry: 'fade_in', exit: 'fade_out' }).totalSeconds.toFixed(3));
}

/** What a create may add to the bench's clip: fields of the clip, fields of the video. */
interface Variant {
  text?: string;
  captions?: 'none' | 'burn';
  botUid?: string;
  /** Makes the background's URL another (its content is the same): the clip is rendered, not found in the cache. */
  run?: string;
  clip?: Record<string, unknown>;
  video?: Record<string, unknown>;
}

/** The local runtime of one shape's run, with what the bench sends and reads through it. */
interface BenchService {
  lines: LogLine[];
  receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  auth: { Authorization: string };
  url: string;
  files: string;
  create(variant?: Variant): Promise<string>;
  video(id: string): Promise<any>;
  stop(): Promise<void>;
}

const mean = (a: { seconds: number; cpu: number }, b: { seconds: number; cpu: number }): Baseline => ({
  seconds: (a.seconds + b.seconds) / 2,
  cpu: (a.cpu + b.cpu) / 2,
  before: a.seconds,
  after: b.seconds,
});

/** One shape: floor and bare encode, the service (first, warm, burned, full scene), floor and bare again. */
async function benchShape(shape: Shape, root: string, work: string, length: number, photo?: Buffer): Promise<ShapeRun> {
  const frame = frameSizeOf(shape);
  const loadStart = loadAverage();
  const background = await realWorldBackground(join(root, '.local', 'samples', `background-camera-60s-${frame.width}x${frame.height}.mp4`), frame);
  const logo = await benchLogo(join(work, 'logo.png'));
  // The baselines run before and after the service (the mean is the figure): a shared machine's load drifts.
  const floorBefore = await floorEncode(length, background, join(work, 'floor.mp4'), frame);
  const bareBefore = await bareEncode(length, join(work, 'bare.mp4'), frame);
  const service = await startBenchService(shape, work, background, logo);
  let first: VideoRun;
  let warm: VideoRun;
  let burned: VideoRun;
  let scene: VideoRun;
  let photoRun: PhotoRun | undefined;
  try {
    first = await measure(service, { run: 'first' });
    warm = await measure(service, { run: 'warm' });
    burned = await measure(service, { run: 'burned', captions: 'burn' });
    // A short scene first: the music bed, the fonts and the logo's first use are a user's first scene, not this row.
    await measure(service, { ...fullScene(service.files), text: 'Warming up the scene.' });
    scene = await measure(service, fullScene(service.files));
    if (photo) photoRun = await measurePhotoBot(service, photo, warm.videoId);
  } finally {
    await service.stop();
  }
  const loadAfterService = loadAverage();
  for (const run of [first, warm, burned, scene])
    if (Math.abs(run.duration - length) > 0.05) throw new Error(`a clip lasts ${run.duration} s, not the ${length} s the baselines encoded`);
  const floor = mean(floorBefore, await floorEncode(length, background, join(work, 'floor.mp4'), frame));
  const bare = mean(bareBefore, await bareEncode(length, join(work, 'bare.mp4'), frame));
  const loads = `${loadStart} / ${loadAfterService} / ${loadAverage()}`;
  const run: ShapeRun = { shape, frame, floor, bare, first, warm, burned, scene, loads, ...(photoRun ? { photo: photoRun } : {}) };
  printShape(run, length);
  printProfile(service.lines, warm);
  return run;
}

/** The full scene: a large presenter, a logo, a title and two lower thirds, ducked music. */
const fullScene = (files: string): Variant => ({
  run: 'scene',
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
async function benchLogo(path: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160"><rect x="4" y="4" width="152" height="152" rx="36" fill="#4f46e5"/><circle cx="80" cy="80" r="38" fill="#fff"/><text x="180" y="108" font-family="sans-serif" font-size="72" font-weight="700" fill="#fff">vidbot</text></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(path);
  return path;
}

/** The local runtime (its functions' log lines kept), a file server for the background and logo, a webhook receiver. */
async function startBenchService(shape: Shape, work: string, background: string, logo: string): Promise<BenchService> {
  const frame = frameSizeOf(shape);
  const lines: LogLine[] = [];
  const files = await startFileServer({ '/background.mp4': background, '/logo.png': logo });
  // As `npm start` runs it: the functions on the video path started before the first video.
  const runtime = await startLocalRuntime({
    prewarm: true,
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
  const create = async (variant: Variant = {}) => {
    const response = await fetch(`${runtime.url}/v1/bot`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        webhook: receiver.url,
        aspect_ratio: shape.aspectRatio,
        resolution: shape.resolution,
        captions: variant.captions ?? 'none',
        ...variant.video,
        clips: [
          {
            bot_uid: variant.botUid ?? 'bot_ava',
            text: variant.text ?? BENCH_TEXT,
            bot_position: 'bottom-right',
            background: `${files.base}/background.mp4${variant.run ? `?run=${variant.run}` : ''}`,
            background_volume: 0.2,
            transitions: 'fade_in fade_out',
            ...variant.clip,
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
    files: files.base,
    create,
    video,
    async stop() {
      await receiver.stop();
      await runtime.stop();
      await files.stop();
    },
  };
}

/** One video: create to the signed webhook, and the CPU of the whole service meanwhile. */
async function measure({ create, video, receiver }: BenchService, variant: Variant): Promise<VideoRun> {
  const delivered = receiver.delivered().length;
  const cpu0 = cpuSeconds();
  const t0 = Date.now();
  const videoId = await create(variant);
  await receiver.waitForDelivered(delivered + 1, 600_000);
  const webhookAt = Date.now();
  const cpu = cpuSeconds() - cpu0;
  const done = await video(videoId);
  if (done.status !== 'completed') throw new Error(`video ${done.status}: ${JSON.stringify(done.error)}`);
  return { seconds: (webhookAt - t0) / 1000, cpu, t0, webhookAt, videoId, duration: done.clips[0].duration_seconds };
}

/**
 * A bot from the photo, prepared by the real prepare function; then a warm-up clip (its sprites at this
 * size, as Ava's were warmed up), then the measured one.
 */
async function measurePhotoBot(service: BenchService, photo: Buffer, builtInVideoId: string): Promise<PhotoRun> {
  const { receiver, auth, lines } = service;
  const form = new FormData();
  form.set('name', 'Bench photo');
  form.set('voice', voiceToSpeak(BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!.voice, undefined, { polly: false }).id);
  form.set('webhook', receiver.url);
  form.set('image', new Blob([photo]), 'photo');
  const prepareT0 = Date.now();
  const before = receiver.delivered().length;
  const put = await fetch(`${service.url}/v1/bot/bench-photo`, { method: 'PUT', headers: auth, body: form });
  if (put.status !== 202) throw new Error(`PUT /v1/bot/bench-photo answered ${put.status}: ${await put.text()}`);
  await receiver.waitForDelivered(before + 1, 300_000);
  const prepared = receiver.delivered()[before]!.event;
  if (prepared?.type !== 'bot.ready') throw new Error(`the photo bot did not become ready: ${JSON.stringify(prepared?.data.error)}`);
  const prepareSeconds = (Date.now() - prepareT0) / 1000;
  await measure(service, { text: 'Warming up the photo bot.', botUid: 'bench-photo' });
  const run = await measure(service, { botUid: 'bench-photo', run: 'photo' });
  const drawOf = (id: string) => Number(lines.find((l) => l.video_id === id && l.message === 'clip rendered')?.draw_ms ?? NaN) / 1000;
  return {
    seconds: run.seconds,
    cpu: run.cpu,
    duration: run.duration,
    prepareSeconds,
    drawSeconds: drawOf(run.videoId),
    builtInDrawSeconds: drawOf(builtInVideoId),
  };
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
    '| Shape | Floor (before / after) | First video | Warm | Full scene | CPU: warm / scene / floor | Bare encode | Load (start / after service / end) |\n|---|---|---|---|---|---|---|---|',
  );
  for (const r of runs)
    console.log(
      `| ${describeShape(r.shape)} | ${r.floor.seconds.toFixed(2)} s (${r.floor.before.toFixed(2)} / ${r.floor.after.toFixed(2)}) | ` +
        `${r.first.seconds.toFixed(2)} s, **${ratio(r.first, r.floor)}** | ${r.warm.seconds.toFixed(2)} s, **${ratio(r.warm, r.floor)}** | ` +
        `${r.scene.seconds.toFixed(2)} s, **${ratio(r.scene, r.floor)}** | ${r.warm.cpu.toFixed(1)} / ${r.scene.cpu.toFixed(1)} / ${r.floor.cpu.toFixed(1)} s | ` +
        `${r.bare.seconds.toFixed(2)} s | ${r.loads} |`,
    );
  console.log(`(targets against the floor: first <= ${TARGETS.first}, warm <= ${TARGETS.warm}, full scene <= ${TARGETS.scene})`);
  const photos = runs.filter((r) => r.photo);
  if (photos.length) {
    console.log(
      '\n| Shape | Built-in (Ava): create → webhook, clip | Photo bot: create → webhook, clip | Photo / built-in per second of video: wall, CPU | Drawing the bot: photo / built-in |\n|---|---|---|---|---|',
    );
    for (const r of photos) {
      const p = r.photo!;
      console.log(
        `| ${describeShape(r.shape)} | ${r.warm.seconds.toFixed(2)} s, ${r.warm.duration.toFixed(1)} s | ${p.seconds.toFixed(2)} s, ${p.duration.toFixed(1)} s | ` +
          `**${(p.seconds / p.duration / (r.warm.seconds / r.warm.duration)).toFixed(2)}**, ${(p.cpu / p.duration / (r.warm.cpu / r.warm.duration)).toFixed(2)} | ${p.drawSeconds.toFixed(2)} s / ${p.builtInDrawSeconds.toFixed(2)} s |`,
      );
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
