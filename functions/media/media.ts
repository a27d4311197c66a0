/**
 * The one module that runs the media binary. Every ffmpeg command line in the service is built or run here,
 * so every run on a stranger's bytes is pinned and bounded the same way:
 *
 * - One binary, ffmpeg 4.1, probes and renders. Its input report (what `ffmpeg -i` prints) is the probe, so
 *   the probe and the render read a file with the same demuxers and cannot disagree. (The only ffprobe builds
 *   on npm are other versions, 2019 and 2023, and both crash on every MPEG-TS file here.)
 * - The probe may only pick a demuxer from BACKGROUND_FORMATS (`-format_whitelist`), and every later run names
 *   that demuxer (`-f`): an HLS playlist or a concat list never opens, whatever else the bytes also look like.
 * - Protocols are limited to file and pipe (`-protocol_whitelist`): nothing a file names is fetched.
 * - Still images' declared sizes are read from their headers before any decoding; every decoder refuses frames
 *   over limits.maxBackgroundPixels (`-max_pixels`) and no single allocation may exceed MAX_ALLOC_BYTES.
 * - Every run has a time budget and a stall watchdog (no progress for limits.mediaStallSeconds); a run over
 *   either is SIGKILLed and rejects with MediaBudgetError, a permanent failure.
 * - Errors carry ffmpeg's stderr for the logs only; their messages never do.
 */
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { imageSize } from 'image-size';
import { limits } from '#domain/limits';
import { ffmpegPath } from './binaries.ts';
import { POSTER_ENCODE_ARGS } from './formats.ts';

/** ffmpeg exited non-zero (or by a signal we did not send). The message is ours; stderr is for the logs. */
export class MediaToolError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    /** The last lines of ffmpeg's stderr: for logs, never for callers. */
    readonly stderrTail: string,
    /** SIGKILL from outside (the OOM killer) makes the failure transient. */
    readonly signal?: NodeJS.Signals | null,
  ) {
    super(message);
    this.name = 'MediaToolError';
  }
}

/** The watchdog killed a run: over its time budget, or no progress for too long. Retrying cannot help. */
export class MediaBudgetError extends Error {
  constructor(
    readonly reason: 'budget' | 'stall',
    readonly limitSeconds: number,
  ) {
    super(reason === 'budget' ? `media run exceeded its ${limitSeconds} s budget` : `media run made no progress for ${limitSeconds} s`);
    this.name = 'MediaBudgetError';
  }
}

/** A caller's file we will not render, with the reason in words a caller can act on. */
export class MediaRejectedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'MediaRejectedError';
  }
}

/** Largest single allocation ffmpeg may make (`-max_alloc`): a 8192x4320 RGBA frame is 142 MB. */
const MAX_ALLOC_BYTES = 256 * 1024 * 1024;
/** Flags every run gets: no banner, no console interaction, only errors on stderr, and the allocation bound. */
const BASE_ARGS = ['-hide_banner', '-nostats', '-max_alloc', String(MAX_ALLOC_BYTES)];
/** Input options every input gets: local files and pipes only. */
const SAFE_INPUT = ['-protocol_whitelist', 'file,pipe'];

/** A run's time budget for `mediaSeconds` of output. */
export const budgetFor = (mediaSeconds: number) =>
  Math.round(limits.renderBudgetBaseSeconds + limits.renderBudgetPerSecond * Math.max(0, mediaSeconds));

export interface RunOptions {
  /** Wall-clock budget in seconds; the run is killed past it. */
  budgetSeconds: number;
  /**
   * Kill the run when its output stops advancing for this long (`-progress` reports). Only for runs that
   * produce output; a run without (the probe) has its budget alone.
   * @default limits.mediaStallSeconds
   */
  stallSeconds?: number | false;
  /**
   * Raw frames to write to ffmpeg's stdin (input `pipe:0`), with back-pressure. `frame(i)` may return the same
   * buffer every time: it is asked for frame i+1 only once frame i has been handed to the pipe.
   */
  frames?: { count: number; frame: (i: number) => Buffer };
  /** Called with 0..1 as frames are written. */
  onProgress?: (fraction: number) => void;
  /** Keep stdout (a run whose output is `-`); such a run gets no `-progress` and so no stall watchdog. */
  captureStdout?: boolean;
  /** ffmpeg's log level; the probe needs `info` for its input report. @default 'error' */
  logLevel?: 'error' | 'info';
  /** Resolve on any exit code (the probe: `ffmpeg -i` without an output exits 1 after its report). */
  anyExit?: boolean;
  /** Told the process id once ffmpeg started (tests check that a killed run is gone). */
  onSpawn?: (pid: number) => void;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number | null;
}

const tail = (text: string, lines = 15) => text.trim().split('\n').slice(-lines).join('\n');

/**
 * Runs ffmpeg with `args` (argument array, never a shell) under a watchdog. The base flags, the log level and,
 * for runs with an output, `-progress pipe:1` are added here.
 */
export function runFfmpeg(args: string[], options: RunOptions): Promise<RunResult> {
  const stallSeconds = options.captureStdout || options.stallSeconds === false ? undefined : (options.stallSeconds ?? limits.mediaStallSeconds);
  const progressArgs = stallSeconds === undefined ? [] : ['-progress', 'pipe:1'];
  const fullArgs = [...BASE_ARGS, '-loglevel', options.logLevel ?? 'error', ...progressArgs, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), fullArgs, { stdio: ['pipe', 'pipe', 'pipe'] });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const out: Buffer[] = [];
    let stderr = '';
    let settled = false;
    let killedFor: MediaBudgetError | undefined;
    let lastProgress = '';
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(budgetTimer);
      clearInterval(stallTimer);
      fn();
    };
    const kill = (error: MediaBudgetError) => {
      if (killedFor || settled) return;
      killedFor = error;
      child.kill('SIGKILL');
    };
    const budgetTimer = setTimeout(() => kill(new MediaBudgetError('budget', options.budgetSeconds)), options.budgetSeconds * 1000);
    let lastAdvance = Date.now();
    const stallTimer = setInterval(() => {
      if (stallSeconds !== undefined && Date.now() - lastAdvance > stallSeconds * 1000) kill(new MediaBudgetError('stall', stallSeconds));
    }, 1000);

    child.stdout.on('data', (chunk: Buffer) => {
      if (options.captureStdout) return void out.push(chunk);
      // -progress blocks: key=value lines; the output advanced when out_time_us or total_size changed.
      const text = chunk.toString();
      const marks = text.match(/^(out_time_us|total_size)=\d+$/gm)?.join() ?? '';
      if (marks && marks !== lastProgress) {
        lastProgress = marks;
        lastAdvance = Date.now();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
    });
    child.on('error', (error) => finish(() => reject(error)));
    child.on('close', (code, signal) => {
      finish(() => {
        if (killedFor) return reject(killedFor);
        if (code === 0 || (options.anyExit && signal === null)) return resolve({ stdout: Buffer.concat(out), stderr, exitCode: code });
        reject(new MediaToolError(`ffmpeg exited with ${signal ?? `code ${code}`}`, code, tail(stderr), signal));
      });
    });
    child.stdin.on('error', () => undefined); // ffmpeg stopping early surfaces through its exit code
    if (!options.frames) return void child.stdin.end();

    const { count, frame } = options.frames;
    let i = 0;
    // One frame in flight: the next is drawn once this one is in the pipe, so no copy is needed.
    const pump = (error?: Error | null) => {
      if (error || settled) return; // ffmpeg stopped reading: its exit code tells why
      if (i >= count) return void child.stdin.end();
      const buffer = frame(i);
      i++;
      // Frames accepted by ffmpeg are progress too (the encoder may lag behind a long lookahead).
      lastAdvance = Date.now();
      if (options.onProgress && i % 30 === 0) options.onProgress(i / count);
      child.stdin.write(buffer, pump);
    };
    pump();
  });
}

// ---------------------------------------------------------------------------------------------------------
// Probing

interface ProbedStream {
  index: number;
  codec_type: 'video' | 'audio' | 'subtitle' | 'data' | 'attachment';
  codec_name: string;
  width?: number;
  height?: number;
  /** Frames per second as declared (fps, else tbr), if any. */
  fps?: number;
}

export interface ProbeResult {
  /** The demuxer that read the file, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  format: { format_name: string; duration?: number };
  streams: ProbedStream[];
}

const STREAM_LINE = /^\s*Stream #0:(\d+)(?:\[0x[0-9a-f]+\])?(?:\([^)]*\))?: (Video|Audio|Subtitle|Data|Attachment): ([A-Za-z0-9_-]+)(.*)$/;

const rate = (value: string, suffix: string) => Number(value) * (suffix === 'k' ? 1000 : 1);

/**
 * Reads ffmpeg's input report. Containers' metadata is printed in the same report and is the file author's
 * text, so lines are read defensively: a forged "Stream" line can add a stream (every declared picture size is
 * checked, the largest wins) but cannot hide one; only the first "Input #0" line names the demuxer.
 */
export function parseInputReport(report: string): ProbeResult | undefined {
  const lines = report.split('\n');
  const input = lines.map((l) => /^Input #0, (.+), from '/.exec(l)).find(Boolean);
  if (!input) return undefined;
  const duration = /^ {2}Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/m.exec(report);
  const streams: ProbedStream[] = [];
  for (const line of lines) {
    const m = STREAM_LINE.exec(line);
    if (!m) continue;
    const stream: ProbedStream = { index: Number(m[1]), codec_type: m[2]!.toLowerCase() as ProbedStream['codec_type'], codec_name: m[3]! };
    const rest = m[4]!;
    const size = /, (\d{1,6})x(\d{1,6})(?=[ ,]|$)/.exec(rest);
    if (size) {
      stream.width = Number(size[1]);
      stream.height = Number(size[2]);
    }
    const fps = /, ([\d.]+)(k?) fps/.exec(rest) ?? /, ([\d.]+)(k?) tbr/.exec(rest);
    if (fps) stream.fps = rate(fps[1]!, fps[2]!);
    streams.push(stream);
  }
  return {
    format: {
      format_name: input[1]!,
      ...(duration ? { duration: Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) } : {}),
    },
    streams,
  };
}

/** Probes one of our own files (a rendered clip, a joined video) with its demuxer named. */
export async function probe(path: string, demuxer?: 'mov' | 'mp3'): Promise<ProbeResult> {
  const { stderr } = await runFfmpeg([...SAFE_INPUT, ...(demuxer ? ['-format_whitelist', demuxer, '-f', demuxer] : []), '-i', path], {
    budgetSeconds: 20,
    logLevel: 'info',
    anyExit: true,
    stallSeconds: false,
  });
  const result = parseInputReport(stderr);
  if (!result) throw new MediaToolError('ffmpeg could not read a file it wrote', null, tail(stderr));
  return result;
}

export async function probeDuration(path: string, demuxer?: 'mov' | 'mp3'): Promise<number> {
  const duration = (await probe(path, demuxer)).format.duration;
  if (duration === undefined || !Number.isFinite(duration)) throw new MediaToolError('a file we wrote has no duration', null, '');
  return duration;
}

// ---------------------------------------------------------------------------------------------------------
// Backgrounds: what a caller may send, identified and bounded before a frame is rendered

export interface BackgroundFormat {
  /** The ffmpeg demuxer, named with -f on every run. */
  demuxer: string;
  label: string;
  /** A single picture: shown for the whole clip (looped by a filter, not by re-reading the file). */
  still?: boolean;
  /**
   * ffmpeg 4.1 cannot seek these to loop them (MPEG-TS stops after one pass, MPEG-PS plays short): they are
   * first remuxed into Matroska by stream copy, which costs no decoding.
   */
  remux?: boolean;
}

/** The formats a background may be in (docs/security.md). Anything ffmpeg identifies as another is refused. */
export const BACKGROUND_FORMATS: readonly BackgroundFormat[] = [
  { demuxer: 'mov', label: 'MP4 / MOV' },
  { demuxer: 'matroska', label: 'WebM / Matroska' },
  { demuxer: 'avi', label: 'AVI' },
  { demuxer: 'mpegts', label: 'MPEG-TS', remux: true },
  { demuxer: 'mpeg', label: 'MPEG-PS', remux: true },
  { demuxer: 'gif', label: 'GIF' },
  { demuxer: 'png_pipe', label: 'PNG', still: true },
  { demuxer: 'jpeg_pipe', label: 'JPEG', still: true },
  { demuxer: 'webp_pipe', label: 'WebP', still: true },
];
const FORMAT_WHITELIST = BACKGROUND_FORMATS.map((f) => f.demuxer).join(',');
const ACCEPTED_FORMATS_TEXT = BACKGROUND_FORMATS.map((f) => f.label).join(', ');

/** A background that passed inspection: how to read it, and what it holds. */
export interface BackgroundMedia {
  path: string;
  format: BackgroundFormat;
  width: number;
  height: number;
  hasAudio: boolean;
}

/** The pinned input options of a background for the render (before its `-i`). */
export function backgroundInputArgs(media: BackgroundMedia): string[] {
  return [
    ...SAFE_INPUT,
    '-format_whitelist',
    media.format.demuxer,
    '-f',
    media.format.demuxer,
    '-max_pixels',
    String(limits.maxBackgroundPixels),
    ...(media.format.still ? [] : ['-stream_loop', '-1']),
  ];
}

const px = (w: number, h: number) => `${w}x${h} pixels`;

function checkPictureSize(width: number, height: number): void {
  const { maxBackgroundSide: side, maxBackgroundPixels: pixels } = limits;
  if (width > side || height > side) throw new MediaRejectedError(`is ${px(width, height)}; at most ${side} pixels on either side are accepted`);
  if (width * height > pixels) throw new MediaRejectedError(`is ${px(width, height)}; at most ${pixels.toLocaleString('en')} pixels are accepted`);
}

/** The size a still image declares in its header, read without decoding it (PNG, JPEG, GIF, WebP). */
async function declaredImageSize(path: string): Promise<{ width: number; height: number } | undefined> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(256 * 1024);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const size = imageSize(head.subarray(0, bytesRead));
    if (!['png', 'jpg', 'gif', 'webp'].includes(size.type ?? '')) return undefined;
    return { width: size.width, height: size.height };
  } catch {
    return undefined; // not one of those images: ffmpeg's probe decides
  } finally {
    await file.close();
  }
}

/**
 * Decides whether a downloaded background may be rendered, and how: rejects (MediaRejectedError) anything not in
 * BACKGROUND_FORMATS, without a readable picture, or over the size and frame-rate limits, and remuxes the
 * formats ffmpeg cannot loop. `workDir` receives the remuxed copy.
 */
export async function inspectBackground(path: string, workDir: string): Promise<BackgroundMedia> {
  const declared = await declaredImageSize(path);
  if (declared) checkPictureSize(declared.width, declared.height);

  const { stderr } = await runFfmpeg(
    [
      ...SAFE_INPUT,
      '-format_whitelist',
      FORMAT_WHITELIST,
      '-max_pixels',
      String(limits.maxBackgroundPixels),
      '-probesize',
      '5000000',
      '-analyzeduration',
      '5000000',
      '-i',
      path,
    ],
    { budgetSeconds: 20, logLevel: 'info', anyExit: true, stallSeconds: false },
  );
  const probed = parseInputReport(stderr);
  const demuxer = probed?.format.format_name.split(',')[0];
  const format = BACKGROUND_FORMATS.find((f) => f.demuxer === demuxer);
  if (!probed || !format) throw new MediaRejectedError(`is not a video or picture in an accepted format (${ACCEPTED_FORMATS_TEXT})`);

  const video = probed.streams.filter((s) => s.codec_type === 'video');
  if (!video.length) throw new MediaRejectedError(`(${format.label}) has no video picture`);
  const width = Math.max(...video.map((s) => s.width ?? 0));
  const height = Math.max(...video.map((s) => s.height ?? 0));
  if (!width || !height)
    throw new MediaRejectedError(`(${format.label}) has no picture size that can be read: it may be damaged, or larger than we accept`);
  checkPictureSize(width, height);
  const fps = Math.max(...video.map((s) => s.fps ?? 0));
  if (!format.still && fps > limits.maxBackgroundFps)
    throw new MediaRejectedError(`has ${fps} frames per second; at most ${limits.maxBackgroundFps} are accepted`);

  // The report's stream lines can be forged (a metadata key may hold a line break and a "Stream" line of its
  // own), so whether the file has a picture and a sound is asked of ffmpeg's stream mapping, not read.
  // Side by side; both settle before either result is used, so no check outlives the inspection.
  const [videoCheck, audioCheck] = await Promise.allSettled([
    hasStream(path, format, 'v'),
    probed.streams.some((s) => s.codec_type === 'audio') && hasStream(path, format, 'a'),
  ]);
  if (videoCheck.status === 'rejected') throw videoCheck.reason;
  if (audioCheck.status === 'rejected') throw audioCheck.reason;
  const hasVideo = videoCheck.value;
  const hasAudio = audioCheck.value;
  if (!hasVideo) throw new MediaRejectedError(`(${format.label}) has no video picture`);
  const media: BackgroundMedia = { path, format, width, height, hasAudio };
  return format.remux ? remuxToMatroska(media, workDir) : media;
}

/** Whether the file really has a stream of `kind`: mapping it works (`-t 0`: nothing is decoded). */
async function hasStream(path: string, format: BackgroundFormat, kind: 'v' | 'a'): Promise<boolean> {
  const { exitCode } = await runFfmpeg(
    [
      ...SAFE_INPUT,
      '-format_whitelist',
      format.demuxer,
      '-f',
      format.demuxer,
      '-max_pixels',
      String(limits.maxBackgroundPixels),
      '-i',
      path,
      '-map',
      `0:${kind}:0`,
      '-t',
      '0',
      '-f',
      'null',
      '-',
    ],
    { budgetSeconds: 20, anyExit: true, stallSeconds: false },
  );
  return exitCode === 0;
}

const MATROSKA = BACKGROUND_FORMATS.find((f) => f.demuxer === 'matroska')!;

async function remuxToMatroska(media: BackgroundMedia, workDir: string): Promise<BackgroundMedia> {
  const path = `${workDir}/background-remuxed.mkv`;
  try {
    await runFfmpeg(
      [
        ...SAFE_INPUT,
        '-format_whitelist',
        media.format.demuxer,
        '-fflags',
        '+genpts',
        '-f',
        media.format.demuxer,
        '-i',
        media.path,
        '-map',
        '0:v:0',
        '-map',
        '0:a:0?',
        '-c',
        'copy',
        '-f',
        'matroska',
        '-y',
        path,
      ],
      { budgetSeconds: 60 },
    );
  } catch (error) {
    if (error instanceof MediaToolError) throw new MediaRejectedError(`(${media.format.label}) could not be read to the end: it may be damaged`);
    throw error;
  }
  return { ...media, path, format: MATROSKA };
}

// ---------------------------------------------------------------------------------------------------------
// Our own files

/** Joins clips we rendered (concat demuxer, stream copy); the parts may only be MP4 or MP3, and local. */
export function concatArgs(list: string, output: string, voice: boolean): string[] {
  return [
    '-y',
    '-protocol_whitelist',
    'file',
    '-format_whitelist',
    `concat,${voice ? 'mp3' : 'mov'}`,
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-map',
    '0',
    '-c',
    'copy',
    ...(voice ? [] : ['-movflags', '+faststart']),
    output,
  ];
}

/**
 * A JPEG poster of one of our own MP4s (a joined video or a rendered clip): the frame at `atSeconds`, at the
 * video's own size. Returns the poster's path.
 */
export async function extractPoster(videoPath: string, atSeconds: number, posterPath: string): Promise<string> {
  await runFfmpeg(
    [
      '-y',
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      'mov',
      '-f',
      'mov',
      '-ss',
      atSeconds.toFixed(3),
      '-i',
      videoPath,
      ...POSTER_ENCODE_ARGS,
      posterPath,
    ],
    { budgetSeconds: 30 },
  );
  return posterPath;
}
