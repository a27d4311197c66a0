/**
 * The one module that runs the media binary (runFfmpeg and its watchdog). Every ffmpeg command line in the service is
 * built or run in functions/media (here, probe.ts, background-media.ts, concat.ts, poster.ts), so every run on a
 * stranger's bytes is pinned and bounded the same way:
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
import { limits } from '#domain/limits';
import { ffmpegPath } from './binaries.ts';

let runsStarted = 0;
/**
 * How many ffmpeg processes this execution environment has started: a render logs the difference across it (an
 * environment renders one clip at a time), since each start forks the whole Node process.
 */
export const mediaRunsStarted = () => runsStarted;

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
export const SAFE_INPUT = ['-protocol_whitelist', 'file,pipe'];

/**
 * A WAV output written with nothing but its format and its samples: none of the input's tags (a caller's title of
 * kilobytes would otherwise be copied into a LIST chunk) and no encoder's name; wav.ts wavSeconds reads its length.
 */
export const PLAIN_WAV_OUTPUT = ['-map_metadata', '-1', '-fflags', '+bitexact', '-f', 'wav'];

/**
 * A caller's file already identified (see probe.ts identifyInput), read only with its own demuxer, and its pictures
 * bounded (by `maxPixels`, the size it declared, when known): the input options before its `-i`.
 */
export const pinnedInput = (demuxer: string, maxPixels: number = limits.maxBackgroundPixels): string[] => [
  ...SAFE_INPUT,
  '-format_whitelist',
  demuxer,
  '-f',
  demuxer,
  '-max_pixels',
  String(Math.min(maxPixels, limits.maxBackgroundPixels)),
];

/**
 * What a decoder may allocate for pictures of `width` x `height` (`-max_pixels`): decoders allocate their frames
 * with sides rounded up for alignment (a 160x120 H.264 picture takes a 192x120 buffer), so a side gets up to
 * 128 pixels more; a picture much larger than the one declared is refused.
 */
export const decoderPixelsFor = (width: number, height: number) => (Math.ceil(width / 64) + 2) * 64 * (Math.ceil(height / 64) + 2) * 64;

/** A run's time budget for `mediaSeconds` of output. */
export const budgetFor = (mediaSeconds: number) =>
  Math.round(limits.renderBudgetBaseSeconds + limits.renderBudgetPerSecond * Math.max(0, mediaSeconds));

/**
 * budgetFor, cut so that the run ends before `deadline` (ms since the epoch; none: not cut): a run inside a
 * function is stopped by our watchdog, with its own error, before the function's time runs out.
 */
export const budgetUntil = (mediaSeconds: number, deadline?: number, now = Date.now()) =>
  deadline === undefined ? budgetFor(mediaSeconds) : Math.max(1, Math.min(budgetFor(mediaSeconds), Math.floor((deadline - now) / 1000)));

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
  frames?: { count: number; frame: (i: number) => Buffer | Promise<Buffer> };
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

export const tail = (text: string, lines = 15) => text.trim().split('\n').slice(-lines).join('\n');

/** A -progress block's marks (key=value lines): the output advanced when out_time_us or total_size changed. */
const progressMarks = (chunk: Buffer) =>
  chunk
    .toString()
    .match(/^(out_time_us|total_size)=\d+$/gm)
    ?.join() ?? '';

/**
 * A run's budget and stall timers, which call `kill` with why. After the event loop was blocked (a long synchronous
 * computation beside the run), timers run before the run's pending progress and exit are read: each decides only
 * after them (setImmediate), so a run that finished or advanced meanwhile is not killed.
 */
function watchdog(budgetSeconds: number, stallSeconds: number | undefined, kill: (error: MediaBudgetError) => void) {
  const budgetTimer = setTimeout(() => setImmediate(() => kill(new MediaBudgetError('budget', budgetSeconds))), budgetSeconds * 1000);
  let lastAdvance = Date.now();
  const stalled = () => stallSeconds !== undefined && Date.now() - lastAdvance > stallSeconds * 1000;
  const stallTimer = setInterval(() => {
    if (stalled()) setImmediate(() => stalled() && kill(new MediaBudgetError('stall', stallSeconds!)));
  }, 1000);
  return {
    advanced: () => {
      lastAdvance = Date.now();
    },
    stop: () => {
      clearTimeout(budgetTimer);
      clearInterval(stallTimer);
    },
  };
}

/**
 * Runs ffmpeg with `args` (argument array, never a shell) under a watchdog. The base flags, the log level and,
 * for runs with an output, `-progress pipe:1` are added here.
 */
export function runFfmpeg(args: string[], options: RunOptions): Promise<RunResult> {
  const stallSeconds = options.captureStdout || options.stallSeconds === false ? undefined : (options.stallSeconds ?? limits.mediaStallSeconds);
  const progressArgs = stallSeconds === undefined ? [] : ['-progress', 'pipe:1'];
  const fullArgs = [...BASE_ARGS, '-loglevel', options.logLevel ?? 'error', ...progressArgs, ...args];
  return new Promise((resolve, reject) => {
    runsStarted++;
    const child = spawn(ffmpegPath(), fullArgs, { stdio: ['pipe', 'pipe', 'pipe'] });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const out: Buffer[] = [];
    let stderr = '';
    let settled = false;
    let killedFor: MediaBudgetError | undefined;
    let failedFrame: Error | undefined;
    let lastProgress = '';
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      timers.stop();
      fn();
    };
    const kill = (error: MediaBudgetError) => {
      if (killedFor || settled) return;
      killedFor = error;
      child.kill('SIGKILL');
    };
    const timers = watchdog(options.budgetSeconds, stallSeconds, kill);

    child.stdout.on('data', (chunk: Buffer) => {
      if (options.captureStdout) return void out.push(chunk);
      const marks = progressMarks(chunk);
      if (marks && marks !== lastProgress) {
        lastProgress = marks;
        timers.advanced();
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
        if (failedFrame) return reject(failedFrame);
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
      const drawn = frame(i);
      i++;
      // Frames accepted by ffmpeg are progress too (the encoder may lag behind a long lookahead).
      timers.advanced();
      if (options.onProgress && i % 30 === 0) options.onProgress(i / count);
      // A frame drawn from another stream (a video bot's footage) arrives later; a failure there stops this run.
      if (Buffer.isBuffer(drawn)) child.stdin.write(drawn, pump);
      else
        drawn.then(
          (buffer) => child.stdin.write(buffer, pump),
          (error: Error) => {
            failedFrame = error;
            child.kill('SIGKILL');
          },
        );
    };
    pump();
  });
}

/** Raw frames read from an ffmpeg run's stdout, one at a time (readFrames). */
export interface FrameReader {
  /** The next frame (`frameBytes` long), or undefined once the run ended. The buffer is the reader's to reuse after the next call. */
  next(): Promise<Buffer | undefined>;
  /** Stops the run (reading no further). */
  close(): void;
}

/** The first `length` bytes of `chunks` (which hold at least that many), taken out of them. */
function takeBytes(chunks: Buffer[], length: number): Buffer {
  const taken = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const chunk = chunks[0]!;
    const n = Math.min(chunk.length, length - filled);
    chunk.copy(taken, filled, 0, n);
    filled += n;
    if (n === chunk.length) chunks.shift();
    else chunks[0] = chunk.subarray(n);
  }
  return taken;
}

/**
 * Runs ffmpeg with `args` (its output a raw stream on `pipe:1`) and hands its frames out one by one, with
 * back-pressure: ffmpeg is paused while a few frames wait unread, so a long recording is never held in memory.
 * Under the same budget as runFfmpeg; a failed run rejects the next read with a MediaToolError.
 */
export function readFrames(args: string[], frameBytes: number, options: { budgetSeconds: number }): FrameReader {
  runsStarted++;
  const child = spawn(ffmpegPath(), [...BASE_ARGS, '-loglevel', 'error', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const chunks: Buffer[] = [];
  let buffered = 0;
  let ended = false;
  let failure: Error | undefined;
  /** This reader stopped the run (its budget, or close): a SIGKILL from anyone else (the OOM killer) is a failure. */
  let stoppedHere = false;
  const stop = () => {
    stoppedHere = true;
    child.kill('SIGKILL');
  };
  let waiting: (() => void) | undefined;
  const wake = () => {
    const resume = waiting;
    waiting = undefined;
    resume?.();
  };
  // Decided after the loop's pending I/O is read (as runFfmpeg's watchdog): a run that ended while a long synchronous
  // computation held the thread is not over its budget.
  const timer = setTimeout(
    () =>
      setImmediate(() => {
        if (ended || child.exitCode !== null) return;
        failure = new MediaBudgetError('budget', options.budgetSeconds);
        stop();
      }),
    options.budgetSeconds * 1000,
  );
  child.stdout.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    buffered += chunk.length;
    if (buffered > 4 * frameBytes) child.stdout.pause();
    wake();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  child.on('error', (error) => {
    failure ??= error;
    wake();
  });
  child.on('close', (code, signal) => {
    clearTimeout(timer);
    if (code !== 0 && !stoppedHere) failure ??= new MediaToolError(`ffmpeg exited with ${signal ?? `code ${code}`}`, code, tail(stderr), signal);
    ended = true;
    wake();
  });
  const take = (): Buffer => {
    const frame = takeBytes(chunks, frameBytes);
    buffered -= frameBytes;
    if (buffered <= 4 * frameBytes) child.stdout.resume();
    return frame;
  };
  return {
    async next() {
      while (buffered < frameBytes) {
        if (failure) throw failure;
        if (ended) return undefined;
        await new Promise<void>((resolve) => {
          waiting = resolve;
        });
      }
      return take();
    },
    close() {
      clearTimeout(timer);
      // A run blocked writing to a paused pipe would not see a gentle signal: the pipe goes, and the run with it.
      child.stdout.destroy();
      if (!ended) stop();
    },
  };
}
