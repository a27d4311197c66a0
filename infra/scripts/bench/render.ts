/**
 * `npm run bench`: the service's render time against **the floor** of any compositing render — the same ffmpeg
 * binary decoding the same background (looped to the clip's length, its sound included) and encoding it with the
 * clips' settings, the same length and frame size — through the local runtime (the real API, queues, render
 * function, assembly and notifier), from create to the signed webhook.
 *
 * Every video is paired with a floor of its own length and shape, run right after it, and the pairs alternate
 * (service, floor, service, floor, …); a row's figure is the median of its pairs' ratios. CPU seconds sit beside
 * wall seconds: on a loaded machine the wall ratio swings with the load, the CPU ratio far less. The service's CPU
 * is this process's threads (the functions run in worker threads) and its waited-for children (ffmpeg) from create
 * to the webhook, plus the process's CPU while the floor runs (what the video left running); the floor's is what
 * its one ffmpeg reports for itself (`-benchmark`). The service's CPU is also split by thread (threads.ts): the
 * functions' own threads and ffmpeg, what the video costs where each function has its own machine, against the
 * local runtime's main thread and Node's shared threads.
 *
 * Rows, in order, in one runtime started as `npm start` starts it (the functions on a video's path pre-warmed):
 * - **the ordinary request** (issue 28): an 87-s clip of Ava, bottom-right, fade in and out, background_volume
 *   0.1, not reusable, over a 12-s 720p `testsrc2` + 440 Hz background (x264 default preset, AAC) that the
 *   service loops: **first** (the first video after the runtime starts) and then **warm**, with other words.
 * - every shape (`--shapes`, default all six) × every presenter kind (`--kinds`, default
 *   built-in,photo,drawn,scene,recorded,video,video-matte): the 62-s clip over a 12-s background like a caller's (bench/support.ts
 *   realWorldBackground), after one short warm-up clip of that shape and kind. `photo` is a bot the real prepare
 *   function makes from `--photo` (default test/fixtures/prepare/portrait.jpg); `drawn` one made from two of
 *   Ava's drawings; `scene` is Ava `large` with a logo, a title, two lower thirds and ducked music; `recorded` is
 *   Ava speaking a recording (`audio_url`) with its transcript: LibriVox sentences looped to `--recording-seconds`
 *   (default 60; bench/service.ts benchRecording, from Debian's pocketsphinx-testdata); `video` is a
 *   video bot the real prepare function makes from `--recording` (a file of one person speaking, 10 s to 5 min, at
 *   most 4.4 MB: it is sent as a form part; default test/fixtures/footage/person.mp4, a real person's recording);
 *   `video-matte` is the same bot with `remove_bot_background`, its matte laid over the shape's background.
 * `--pairs N` (default 3) pairs per row; `--quick` is the ordinary request and 16:9 720p built-in, one pair each.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeShape, frameSizeOf, type Shape } from '#domain/shape';
import { type Pair, printPair, printProfile, printTable, type Row, TARGETS } from './report.ts';
import {
  type BenchService,
  benchLogo,
  benchRecording,
  drawnBotForm,
  fullScene,
  photoBotForm,
  startBenchService,
  type Variant,
  videoBotForm,
} from './service.ts';
import {
  argument,
  BENCH_TEXT,
  cpuSeconds,
  floorEncode,
  ORDINARY_TEXT,
  ordinaryBackground,
  otherWords,
  parseShapes,
  realWorldBackground,
  rotated,
} from './support.ts';
import { addSplits, ThreadWatch } from './threads.ts';

const ALL_SHAPES = '16:9@720p,16:9@1080p,9:16@720p,9:16@1080p,1:1@720p,1:1@1080p';
/** The `video` kind's recording unless `--recording` names another: a real person (test/fixtures/footage/README.md). */
const DEFAULT_RECORDING = 'test/fixtures/footage/person.mp4';
/** The `video` kind's bot, made from `--recording`. */
const VIDEO_BOT = 'bench-video';
const KINDS = ['built-in', 'photo', 'drawn', 'scene', 'recorded', 'video', 'video-matte'] as const;
type Kind = (typeof KINDS)[number];

const ORDINARY_SHAPE: Shape = { aspectRatio: '16:9', resolution: '720p' };

interface Bench {
  service: BenchService;
  /** Local path of each file the service's file server serves. */
  files: Record<string, string>;
  work: string;
  pairs: number;
  rows: Row[];
  /** The `video` kind's bot's recording (`--recording`): its floor decodes it too. */
  recording?: string;
  /** The `recorded` kind's recording's transcript (served as /recording.wav). */
  transcript?: string;
}

/** The video and then the floor of its length, shape and background; printed as measured. */
async function pair(bench: Bench, row: Row, variant: Variant): Promise<Pair> {
  const measuredVideo = await bench.service.measure(variant);
  const before = cpuSeconds();
  const threads = new ThreadWatch();
  const floor = await floorEncode(
    measuredVideo.duration,
    bench.files[variant.background]!,
    join(bench.work, 'floor.mp4'),
    frameSizeOf(variant.shape),
    variant.botUid === VIDEO_BOT ? bench.recording : undefined,
  );
  // The floor counts only its own ffmpeg; the process's other CPU meanwhile is the service's (a video's leftovers).
  const after = Math.max(0, cpuSeconds() - before - floor.cpu);
  const afterSplit = threads.stop();
  const split = measuredVideo.split && addSplits(measuredVideo.split, afterSplit, floor.cpu);
  const video = { ...measuredVideo, cpu: measuredVideo.cpu + after, after, split };
  const measured = { video, floor, load: Number(loadavgOne()) };
  row.pairs.push(measured);
  printPair(row, measured);
  return measured;
}

const loadavgOne = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? 'NaN';

const newRow = (shape: Shape, kind: string, target: number): Row => ({ shape: describeShape(shape), kind, pairs: [], target, startedAt: new Date() });

/** The ordinary request: the first video after the runtime starts, then warm with other words. */
async function ordinaryRows(bench: Bench, pairs: number): Promise<void> {
  const variant = { shape: ORDINARY_SHAPE, background: '/ordinary.mp4' };
  const first = newRow(ORDINARY_SHAPE, 'ordinary, first', TARGETS.first);
  bench.rows.push(first);
  await pair(bench, first, { ...variant, text: ORDINARY_TEXT, run: 'first' });
  const warm = newRow(ORDINARY_SHAPE, 'ordinary, warm', TARGETS.warm);
  bench.rows.push(warm);
  for (let i = 0; i < pairs; i++) await pair(bench, warm, { ...variant, text: otherWords(i), run: `warm-${i}` });
  printProfile(bench.service.lines, warm.pairs[warm.pairs.length - 1]!.video);
}

/** What a kind's clip adds to the bench's clip. */
function kindFields(kind: Kind, bench: Bench): Partial<Variant> {
  if (kind === 'photo') return { botUid: 'bench-photo' };
  if (kind === 'drawn') return { botUid: 'bench-drawn' };
  if (kind === 'video') return { botUid: VIDEO_BOT };
  // The same bot cut out of its recording's backdrop by the matte made at preparation, over the shape's background.
  if (kind === 'video-matte') return { botUid: VIDEO_BOT, clip: { remove_bot_background: true } };
  if (kind === 'scene') return fullScene(bench.service.files);
  if (kind === 'recorded') return recordedClip(bench);
  return {};
}

/** Ava speaking the LibriVox recording (audio_url, fetched like a background) with its transcript, aligned to it. */
const recordedClip = (bench: Bench): Partial<Variant> => ({ clip: { audio_url: `${bench.service.files}/recording.wav`, text: bench.transcript } });

/** One shape × one kind: a short warm-up clip, then the pairs. */
async function shapeRow(bench: Bench, shape: Shape, kind: Kind): Promise<void> {
  const frame = frameSizeOf(shape);
  const background = `/background-${frame.width}x${frame.height}.mp4`;
  const fields = { shape, background, ...kindFields(kind, bench) };
  await bench.service.measure({ ...fields, text: 'Warming up this shape.', run: `warm-up-${describeShape(shape)}-${kind}` });
  const row = newRow(shape, kind, kind === 'built-in' || kind === 'recorded' ? TARGETS.builtIn : TARGETS.other);
  bench.rows.push(row);
  for (let i = 0; i < bench.pairs; i++) {
    const run = `${describeShape(shape)}-${kind}-${i}`;
    // A recording says the same words in every pair (and in the warm-up): a short clip of another size first, so that
    // its pairs draw with a rig of their own, not with the one the same clip left.
    if (kind === 'recorded')
      await bench.service.measure({ shape, background, text: 'Another size between pairs.', clip: { bot_size: 'small' }, run: `${run}-between` });
    await pair(bench, row, { ...fields, text: rotated(BENCH_TEXT, i), run });
  }
  printProfile(bench.service.lines, row.pairs[row.pairs.length - 1]!.video);
}

function options() {
  const quick = process.argv.includes('--quick');
  const recording = argument('recording') ?? DEFAULT_RECORDING;
  const kinds = (argument('kinds') ?? (quick ? 'built-in' : KINDS.join(','))).split(',') as Kind[];
  for (const kind of kinds) if (!KINDS.includes(kind)) throw new Error(`--kinds: some of ${KINDS.join(', ')}`);
  const pairs = Number(argument('pairs') ?? (quick ? 1 : 3));
  if (!Number.isInteger(pairs) || pairs < 1) throw new Error('--pairs: a whole number, at least 1');
  return {
    shapes: parseShapes(argument('shapes') ?? (quick ? '16:9@720p' : ALL_SHAPES)),
    kinds,
    pairs,
    ordinary: !process.argv.includes('--no-ordinary'),
    photo: argument('photo') ?? 'test/fixtures/prepare/portrait.jpg',
    recordingSeconds: Number(argument('recording-seconds') ?? 60),
    recording,
  };
}

async function main() {
  const opts = options();
  const root = resolve(import.meta.dirname, '../../..');
  const samples = join(root, '.local', 'samples');
  const work = mkdtempSync(join(tmpdir(), 'vidbot-bench-'));
  const files: Record<string, string> = {
    '/ordinary.mp4': await ordinaryBackground(join(samples, 'background-ordinary-testsrc2-12s-1280x720.mp4')),
    '/logo.png': await benchLogo(join(work, 'logo.png')),
  };
  for (const shape of opts.shapes) {
    const { width, height } = frameSizeOf(shape);
    files[`/background-${width}x${height}.mp4`] = await realWorldBackground(join(samples, `background-camera-12s-${width}x${height}.mp4`), {
      width,
      height,
    });
  }
  const recording = opts.kinds.includes('recorded') ? benchRecording(join(work, 'recording.wav'), opts.recordingSeconds) : undefined;
  if (recording) files['/recording.wav'] = recording.path;
  const service = await startBenchService(join(work, 'data'), files);
  const bench: Bench = { service, files, work, pairs: opts.pairs, rows: [], transcript: recording?.transcript, recording: opts.recording };
  try {
    // The first video after the runtime starts is the ordinary request's, before anything else warms the functions.
    if (opts.ordinary) await ordinaryRows(bench, opts.pairs);
    if (opts.kinds.includes('photo'))
      console.log(`photo bot: PUT -> bot.ready ${(await service.makeBot('bench-photo', photoBotForm(readFileSync(opts.photo)))).toFixed(2)} s`);
    if (opts.kinds.includes('drawn'))
      console.log(
        `drawn bot: PUT -> bot.ready ${(await service.makeBot('bench-drawn', drawnBotForm(join(root, 'functions', 'render', 'bots')))).toFixed(2)} s`,
      );
    if (opts.kinds.includes('video') || opts.kinds.includes('video-matte'))
      console.log(`video bot: PUT -> bot.ready ${(await service.makeBot(VIDEO_BOT, videoBotForm(opts.recording))).toFixed(2)} s`);
    for (const shape of opts.shapes) for (const kind of opts.kinds) await shapeRow(bench, shape, kind);
  } finally {
    await service.stop();
    rmSync(work, { recursive: true, force: true });
    printTable(bench.rows);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
