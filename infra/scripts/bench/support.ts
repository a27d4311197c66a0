import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { aspectRatioSchema, resolutionSchema } from '#domain/create-request';
import type { FrameSize, Shape } from '#domain/shape';
import { AUDIO_ENCODE_ARGS, VIDEO_ENCODE_ARGS } from '../../../functions/media/formats.ts';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { FPS } from '../../../functions/render/engine/types.ts';

/** About sixty seconds of speech for bot_ava (espeak-ng, 160 words per minute): the benchmarks' clip. */
export const BENCH_TEXT = [
  'Welcome to vidbot, the service that turns your words into a presenter video in a few moments.',
  'You send the text, choose a bot, a position on the screen and a background, and we do the rest.',
  'Every clip is rendered on demand in the cloud, with the voice, the lip movement, the blinking and the transitions you asked for.',
  'When the video is ready, your webhook hears about it, and the finished file is waiting for you to download.',
  'Clips can be kept and reused, so the same introduction can open many videos without being rendered again.',
  'Behind the scenes, a queue feeds the renderers, each clip is drawn frame by frame, and the parts are joined without re-encoding.',
  'Each bot has its own look, its own voice and its own studio card, which you can remove so the presenter stands right on your background.',
  'Backgrounds loop or trim to fit the speech, and their own sound plays softly underneath at the volume you choose.',
  'Thank you for watching this short demonstration, and have a wonderful day.',
].join(' ');

/** About 87 s of Ava's speech (the 84 s, give or take the words): the bench's text and four more sentences. */
export const ORDINARY_TEXT = [
  BENCH_TEXT,
  'A presenter can stand in any corner of the frame, at any of four sizes, or fill the whole picture.',
  'Captions can be burned into the picture or delivered as a separate file, in the language of the clip.',
  'Logos, titles and lower thirds are drawn in the same pass as the presenter, so they cost almost nothing.',
  'Music can play under the voice, and it steps back whenever the presenter speaks.',
].join(' ');
/**
 * `text`'s sentences rotated by `n`: other words, as long. Each pair of a row says what no video before it said: a
 * render function keeps what it drew for the last clip of the same bot (functions/render/engine/rigs/rig.ts), and
 * the same words again would meet every pose it kept.
 */
export const rotated = (text: string, n: number) => {
  const sentences = text.split(/(?<=\.) /);
  const k = n % sentences.length;
  return [...sentences.slice(k), ...sentences.slice(0, k)].join(' ');
};
/** The ordinary request's warm video `n`: its sentences in the opposite order, rotated by `n`. */
export const otherWords = (n: number) =>
  rotated(
    ORDINARY_TEXT.split(/(?<=\.) /)
      .reverse()
      .join(' '),
    n,
  );

/**
 * CPU seconds used so far by this process and its waited-for children (ffmpeg), from /proc/self/stat: unlike
 * wall time it does not depend on what else the machine is doing. Linux only; NaN elsewhere.
 */
export function cpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of stat(5); [0] here is field 3.
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100; // USER_HZ
  } catch {
    return Number.NaN;
  }
}

/**
 * The benchmarks' synthetic source (ffmpeg's lavfi generators): a 30 fps test pattern with moving content
 * (testsrc2) of the frame's size and a soft two-note chord. The bare encode reads it live; the clip's background
 * is the same source encoded once, so both encodes see the same picture (the clip adds the bot).
 */
export const syntheticSource = (seconds: number, frame: FrameSize): string[] => [
  '-f',
  'lavfi',
  '-i',
  `testsrc2=s=${frame.width}x${frame.height}:r=${FPS}:d=${seconds}`,
  '-f',
  'lavfi',
  '-i',
  `aevalsrc='0.1*sin(2*PI*220*t)+0.08*sin(2*PI*277.18*t)|0.1*sin(2*PI*220*t)+0.08*sin(2*PI*329.63*t)':s=48000:d=${seconds}`,
];

/** `seconds` of a generated source encoded as a caller's MP4 (H.264 + AAC), made once per path. */
async function sampleBackground(path: string, seconds: number, source: string[], video: string[], budgetSeconds: number): Promise<string> {
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const encode = ['-c:v', 'libx264', ...video, '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k'];
  // Made under another name and renamed when whole: an interrupted run leaves no half file to be taken as made.
  // No stall watchdog: x264's lookahead on a loaded machine can go quiet for longer than a render's.
  const partial = `${path}.partial.mp4`;
  await runFfmpeg(['-y', ...source, ...encode, '-t', String(seconds), '-movflags', '+faststart', partial], { budgetSeconds, stallSeconds: false });
  renameSync(partial, path);
  return path;
}

/** The clip's background: 60 s of the synthetic source as a caller would send it (H.264 + AAC MP4), made once per size. */
export const syntheticBackground = (path: string, frame: FrameSize) =>
  sampleBackground(path, 60, syntheticSource(60, frame), ['-preset', 'veryfast', '-crf', '23', '-g', '60'], 300);

/**
 * A background like a caller's (made once per size): 12 s of a moving picture with a camera's grain, encoded as
 * cameras and editors do — H.264 High profile, x264's `medium` preset (B-frames, CABAC), a 2-second GOP — with
 * stereo AAC sound. Decoding it costs what a real background costs, which the synthetic background at `veryfast`
 * does not. Shorter than any clip, so the service loops it (and the floor loops it the same way); 12 s keeps the
 * 1080p file far under the backgrounds' 200 MiB limit.
 */
export const realWorldBackground = (path: string, frame: FrameSize) =>
  sampleBackground(
    path,
    12,
    syntheticSource(12, frame),
    ['-filter:v', 'noise=alls=10:allf=t+u', '-profile:v', 'high', '-preset', 'medium', '-crf', '20', '-g', '60'],
    900,
  );

/**
 * The ordinary request's background (issue 28): 12 s of ffmpeg's `testsrc2` at 1280x720 with a 440 Hz tone,
 * encoded by x264 at its default preset and AAC, as a caller makes a test file with the ffmpeg at hand.
 */
export const ordinaryBackground = (path: string) =>
  sampleBackground(
    path,
    12,
    ['-f', 'lavfi', '-i', `testsrc2=s=1280x720:r=${FPS}:d=12`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:d=12'],
    [],
    300,
  );

/**
 * The floor of any compositing render: the same binary decoding the same background (looped to `seconds`, its
 * sound included) and encoding it at the clips' settings, the same length and frame size. A render can only add
 * to this: the bot, its voice, the layers. With a video bot's `recording`, the floor also decodes that recording
 * (at its own size, looped to `seconds`, its frames discarded in the same process), as issue 29 defines the video
 * bot's floor: "the same binary decoding the recording and the background and encoding the result". Returns its wall
 * and CPU seconds.
 */
export function floorEncode(
  seconds: number,
  background: string,
  output: string,
  frame: FrameSize,
  recording?: string,
): Promise<{ seconds: number; cpu: number }> {
  return timedEncode(floorInput(background, frame, recording), seconds, output, recording ? recordingDecode(seconds) : []);
}

/**
 * The floor's inputs and its picture's filter (`-map`s only with a recording, whose streams must not be picked).
 * @internal Exported for its tests.
 */
export function floorInput(background: string, frame: FrameSize, recording?: string): string[] {
  // The recording's container is ffmpeg's to identify (a caller's MP4, MOV or WebM); the background is the bench's MP4.
  const looped = (file: string, format: string[]) => ['-protocol_whitelist', 'file', ...format, '-stream_loop', '-1', '-i', file];
  return [
    ...looped(background, ['-f', 'mov']),
    ...(recording ? [...looped(recording, []), '-map', '0:v:0', '-map', '0:a:0'] : []),
    '-filter:v',
    `scale=${frame.width}:${frame.height}:force_original_aspect_ratio=increase,crop=${frame.width}:${frame.height},setsar=1`,
  ];
}

/**
 * A second output of the floor's process: the recording's picture decoded for `seconds` and discarded.
 * @internal Exported for its tests.
 */
export const recordingDecode = (seconds: number): string[] => ['-map', '1:v:0', '-t', String(seconds), '-f', 'null', '-'];

/**
 * The baseline: a bare libx264 encode of the synthetic source, `seconds` long and `frame` sized, with the clips'
 * encoder settings (same preset, CRF, frame rate, audio) and the same binary. Returns its wall and CPU seconds.
 */
export function bareEncode(seconds: number, output: string, frame: FrameSize): Promise<{ seconds: number; cpu: number }> {
  return timedEncode(syntheticSource(seconds, frame), seconds, output);
}

/** Encodes `inputArgs` at the clips' settings (video, frame rate, audio), `seconds` long, and `moreOutputs` in the same process: its wall and CPU seconds. */
async function timedEncode(
  inputArgs: string[],
  seconds: number,
  output: string,
  moreOutputs: string[] = [],
): Promise<{ seconds: number; cpu: number }> {
  const started = performance.now();
  const { stderr } = await runFfmpeg(
    [
      '-benchmark',
      '-y',
      ...inputArgs,
      ...VIDEO_ENCODE_ARGS,
      '-r',
      String(FPS),
      ...AUDIO_ENCODE_ARGS,
      '-t',
      String(seconds),
      '-movflags',
      '+faststart',
      output,
      ...moreOutputs,
    ],
    { budgetSeconds: 900, logLevel: 'info' },
  );
  return { seconds: (performance.now() - started) / 1000, cpu: ffmpegCpuSeconds(stderr) };
}

/**
 * The CPU seconds ffmpeg reports for itself with `-benchmark` (`bench: utime=… stime=…`, its getrusage: every thread
 * of that one process). Counting the process's children instead would also count whatever else of this process's
 * work (a render's leftovers, a child reaped late) fell inside the encode's window.
 */
function ffmpegCpuSeconds(stderr: string): number {
  const match = /bench: utime=([\d.]+)s stime=([\d.]+)s/.exec(stderr);
  if (!match) throw new Error('ffmpeg reported no -benchmark line');
  return Number(match[1]) + Number(match[2]);
}

/** The machine's load averages (1, 5, 15 min), to print beside wall-clock figures. */
export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** `16:9@720p,9:16@1080p`: the shapes a benchmark measures (docs/performance.md's figures: the default list). */
export function parseShapes(list: string): Shape[] {
  return list.split(',').map((item) => {
    const [aspect = '', resolution = ''] = item.trim().split('@');
    const a = aspectRatioSchema.safeParse(aspect);
    const r = resolutionSchema.safeParse(resolution);
    if (!a.success || !r.success) throw new Error(`"${item}" is not a shape: write aspect@resolution, e.g. 9:16@1080p`);
    return { aspectRatio: a.data, resolution: r.data };
  });
}

/** The value of `--name value` in argv, if given. */
export const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
