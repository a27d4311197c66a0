/**
 * A video bot's recording (see docs/video-bots.md): identified with the pinned demuxers, decoded once into frames
 * for the preparation (streamed, never held whole) while the same pass writes the look's own footage file; and that
 * footage read back, frame by frame at the bot's size, by the render.
 */
import { limits } from '#domain/limits';
import { checkDecodeAgainstHeader, declaredOf } from './decode-check.ts';
import { VIDEO_ENCODE_ARGS } from './formats.ts';
import { budgetFor, type FrameReader, MediaRejectedError, pinnedInput, readFrames, runFfmpeg, SAFE_INPUT } from './media.ts';
import { identifyInput } from './probe.ts';

/** A matte's H.264 quality: finer than the footage's 23, so its edge does not shimmer with the encoder's blocks. */
const MATTE_CRF = 16;

/** The containers a recording may come in: MP4 / MOV and WebM / Matroska (phones and MediaRecorder write these). */
const RECORDING_DEMUXERS = ['mov', 'matroska'] as const;

export interface Recording {
  path: string;
  demuxer: string;
  /** The picture as shown (a phone's rotation applied). */
  width: number;
  height: number;
  durationSeconds: number;
}

/** A rotation the container asks for (phones film sideways and say so); the decoder applies it. */
const rotationOf = (report: string): number => Number(/^\s+rotate\s+:\s+(-?\d+)\s*$/m.exec(report)?.[1] ?? 0);

/**
 * Identifies a recording: one of RECORDING_DEMUXERS with a video stream, its size and duration. Refuses anything
 * else with a MediaRejectedError in our words.
 */
export async function inspectRecording(path: string): Promise<Recording> {
  const found = await identifyInput(path, RECORDING_DEMUXERS.join(','));
  const video = found?.probed.streams.find((s) => s.codec_type === 'video');
  if (!found || !video?.width || !video.height) throw new MediaRejectedError('is not a video we can read (MP4, MOV or WebM)');
  // Before anything decodes it: a picture far larger than a camera's would take the decode's time and memory.
  const [long, short] = [Math.max(video.width, video.height), Math.min(video.width, video.height)];
  if (long > limits.maxRecordingSides.long || short > limits.maxRecordingSides.short)
    throw new MediaRejectedError(
      `is ${video.width}x${video.height}; a recording may be at most ${limits.maxRecordingSides.long}x${limits.maxRecordingSides.short} (4K), either way round`,
    );
  const duration = found.probed.format.duration;
  if (duration === undefined || !Number.isFinite(duration)) throw new MediaRejectedError('has no duration');
  // One within the limit decodes as long and as large as its header says (a longer one is refused by its caller).
  if (duration <= limits.maxRecordingSeconds)
    await checkDecodeAgainstHeader(path, found.demuxer, declaredOf(found.probed), { stream: 'v', maxSeconds: limits.maxRecordingSeconds });
  const sideways = Math.abs(rotationOf(found.report)) % 180 === 90;
  return {
    path,
    demuxer: found.demuxer,
    width: sideways ? video.height : video.width,
    height: sideways ? video.width : video.height,
    durationSeconds: duration,
  };
}

/** The size a recording is prepared at: its own, or smaller so that its short side is at most `shortSide` (even sides). */
export function preparedSize(recording: Pick<Recording, 'width' | 'height'>, shortSide: number): { width: number; height: number } {
  const scale = Math.min(1, shortSide / Math.min(recording.width, recording.height));
  const even = (n: number) => Math.max(2, 2 * Math.round((n * scale) / 2));
  return { width: even(recording.width), height: even(recording.height) };
}

/**
 * One decode of the recording at `size` and `fps`, at most `maxSeconds`: its frames as raw RGB (3 bytes a pixel)
 * to read in order, while the same pass writes them, silent, as H.264 to `footagePath` (the look's footage).
 */
export function decodeRecording(
  recording: Recording,
  size: { width: number; height: number },
  fps: number,
  maxSeconds: number,
  footagePath: string,
): FrameReader {
  const graph = `[0:v]fps=${fps},scale=${size.width}:${size.height}:flags=area,setsar=1,split=2[analysis][footage]`;
  const args = [
    '-y',
    ...pinnedInput(recording.demuxer),
    '-t',
    String(maxSeconds),
    '-i',
    recording.path,
    '-filter_complex',
    graph,
    '-map',
    '[footage]',
    '-an',
    ...VIDEO_ENCODE_ARGS,
    '-g',
    String(fps),
    footagePath,
    '-map',
    '[analysis]',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    'pipe:1',
  ];
  return readFrames(args, size.width * size.height * 3, { budgetSeconds: limits.footagePrepareBudgetSeconds });
}

/**
 * The look's footage (our own H.264 file) as RGBA frames of `size`, in order; with `loop`, over and over (the file
 * is a loop cut where its last frame meets its first); with `grey`, one byte a pixel (a matte).
 */
export function readFootage(
  path: string,
  size: { width: number; height: number },
  options: { loop: boolean; seconds: number; grey?: boolean },
): FrameReader {
  const pixels = options.grey ? 'gray' : 'rgba';
  const args = [
    ...SAFE_INPUT,
    '-format_whitelist',
    'mov',
    '-f',
    'mov',
    ...(options.loop ? ['-stream_loop', '-1'] : []),
    '-i',
    path,
    '-an',
    '-vf',
    `scale=${size.width}:${size.height}:flags=bicubic,format=${pixels}`,
    '-f',
    'rawvideo',
    '-pix_fmt',
    pixels,
    'pipe:1',
  ];
  return readFrames(args, size.width * size.height * (options.grey ? 1 : 4), { budgetSeconds: budgetFor(options.seconds) });
}

/**
 * Writes frames `from`..`to` (exclusive) of the look's footage to `path` (a loop of the base footage), by re-encoding.
 * With `blend` frames, the loop's last `blend` frames are mixed, more and more, into the `blend` frames before `from`
 * (a crossfade toward the frames that lead into `from`), so the wrap from its last frame to `from` is as small a step
 * as the footage's own.
 */
export async function cutFootage(footagePath: string, fps: number, loop: { from: number; to: number; blend: number }, path: string): Promise<void> {
  const { from, to, blend } = loop;
  const cut = (a: number, b: number) => `trim=start_frame=${a}:end_frame=${b},setpts=PTS-STARTPTS`;
  const graph =
    blend > 0
      ? `[0:v]split=3[a][b][c];[a]${cut(from, to - blend)}[head];[b]${cut(to - blend, to)}[tail];[c]${cut(from - blend, from)}[lead];` +
        `[tail][lead]blend=all_expr='A+(B-A)*(N+1)/${blend + 1}'[mixed];[head][mixed]concat=n=2:v=1:a=0`
      : `[0:v]${cut(from, to)}`;
  await runFfmpeg(
    [
      '-y',
      ...SAFE_INPUT,
      '-format_whitelist',
      'mov',
      '-f',
      'mov',
      '-i',
      footagePath,
      '-filter_complex',
      graph,
      '-an',
      ...VIDEO_ENCODE_ARGS,
      '-g',
      String(fps),
      path,
    ],
    { budgetSeconds: budgetFor((to - from) / fps) },
  );
}

/**
 * Encodes `count` grey frames of `size` (one byte a pixel, from `frame(i)`) to `path`: a loop's matte, H.264 at a
 * higher quality than the footage (its edge is what shows), one keyframe a second as the footage.
 */
export function writeMatte(path: string, size: { width: number; height: number }, fps: number, frames: WrittenFrames): Promise<void> {
  return writeFrames(path, size, fps, frames, { pixels: 'gray', crf: MATTE_CRF });
}

/**
 * Encodes `count` RGBA frames of `size` (four bytes a pixel, from `frame(i)`; the alpha is dropped) to `path`: a
 * loop's frames as the person is cut out by (footage-matte.ts cutoutLoop), the loop's own frames encoded a second
 * time, so at the matte's finer quality, which keeps that second generation within a level or two of the first.
 */
export function writeCutout(path: string, size: { width: number; height: number }, fps: number, frames: WrittenFrames): Promise<void> {
  return writeFrames(path, size, fps, frames, { pixels: 'rgba', crf: MATTE_CRF });
}

interface WrittenFrames {
  count: number;
  frame: (i: number) => Buffer | Promise<Buffer>;
}

async function writeFrames(
  path: string,
  size: { width: number; height: number },
  fps: number,
  frames: WrittenFrames,
  as: { pixels: 'gray' | 'rgba'; crf: number },
): Promise<void> {
  const encode = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(as.crf), '-pix_fmt', 'yuv420p'];
  await runFfmpeg(
    [
      '-y',
      ...['-f', 'rawvideo', '-pix_fmt', as.pixels, '-s', `${size.width}x${size.height}`, '-r', String(fps), '-i', 'pipe:0'],
      '-an',
      ...encode,
      '-g',
      String(fps),
      path,
    ],
    { budgetSeconds: budgetFor(frames.count / fps), frames },
  );
}
