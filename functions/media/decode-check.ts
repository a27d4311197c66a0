/**
 * Headers against decoding: a stranger's file says how long it lasts and how large its pictures are, and the
 * service sizes its work on what it says (a recording's length limit, a picture's memory, a budget's seconds). A
 * file may lie — claim 10 s and decode to an hour, declare 640x360 and carry 8K frames later on — so what the
 * headers claim is checked here against a decode bounded by the claim itself: at most the claimed length and a
 * tolerance, every frame's decoder refusing pictures much larger than the claimed size (`-max_pixels`, with room
 * for the decoder's alignment) and the frames cut to that size (`crop`, which fails on a smaller one).
 */

import { budgetUntil, decoderPixelsFor, MediaRejectedError, MediaToolError, runFfmpeg, SAFE_INPUT } from './media.ts';
import type { ProbeResult } from './probe.ts';

/** What a file's headers claim, as the probe read them. */
export interface DeclaredMedia {
  /** Its length, seconds (the container's duration), when it says one. */
  seconds?: number;
  /** Its first picture's size, for a video. */
  width?: number;
  height?: number;
}

/** Decoding found more than the headers claimed. The reason is in our words. */
export class DecodeMismatchError extends MediaRejectedError {
  constructor(
    readonly found: 'longer' | 'frame_size',
    reason: string,
    /** How far the check decoded before it stopped: for `longer`, just past what the file may last. */
    readonly decodedSeconds?: number,
  ) {
    super(reason);
    this.name = 'DecodeMismatchError';
  }
}

/** What the probe read: the container's duration and its first picture's size. */
export function declaredOf(probed: ProbeResult): DeclaredMedia {
  const video = probed.streams.find((s) => s.codec_type === 'video');
  return {
    ...(probed.format.duration !== undefined && Number.isFinite(probed.format.duration) && { seconds: probed.format.duration }),
    ...(video?.width && video.height && { width: video.width, height: video.height }),
  };
}

/** A length may differ from its header by this much (encoder delay, a last frame's length): a second, or 5 %. */
const toleranceOf = (seconds: number) => Math.max(1, 0.05 * seconds);

const lastOutTime = (progress: string): number => {
  const times = [...progress.matchAll(/^out_time_us=(\d+)$/gm)];
  return times.length ? Number(times.at(-1)![1]) / 1e6 : 0;
};

/** The budget for decoding `limit` seconds to check them, ended before `deadline`. */
export const decodeCheckBudget = (limit: number, deadline?: number, now = Date.now()) => budgetUntil(limit / 2, deadline, now);

export interface DecodeCheck {
  /** The first picture ('v') or sound ('a') is decoded. */
  stream: 'v' | 'a';
  /** The first sound is decoded too, beside the picture: the run fails when the file has none. @default false */
  withSound?: boolean;
  /** The most the caller takes: decoding past it fails, whatever the file claims. */
  maxSeconds: number;
  /**
   * Decode no further than this: a file used for its first seconds only (a background the render loops or cuts)
   * is checked over those; its length is then not judged. @default maxSeconds
   */
  checkSeconds?: number;
  /** The run ends before this (ms since the epoch): the caller's function's own time. @default not cut */
  deadline?: number;
}

/** How far to decode a file: `allowed`, what it may last (its claim and a tolerance, at most `maxSeconds`); `limit`, no further than `checkSeconds`. */
export function decodeBounds(declared: DeclaredMedia, maxSeconds: number, checkSeconds = maxSeconds): { allowed: number; limit: number } {
  const claimed = declared.seconds;
  const allowed = claimed === undefined ? maxSeconds : Math.min(maxSeconds, claimed + toleranceOf(claimed));
  return { allowed, limit: Math.min(allowed, checkSeconds) };
}

/** The refusal of a file that decoded to `decoded` seconds within `decodeBounds`' bounds, if that is longer than it may last. */
export function lengthMismatch(
  decoded: number,
  declared: DeclaredMedia,
  maxSeconds: number,
  checkSeconds = maxSeconds,
): DecodeMismatchError | undefined {
  const { allowed, limit } = decodeBounds(declared, maxSeconds, checkSeconds);
  if (decoded <= limit || limit !== allowed) return undefined;
  const claimed = declared.seconds;
  return claimed !== undefined && claimed + toleranceOf(claimed) <= maxSeconds
    ? new DecodeMismatchError('longer', `lasts longer than the ${claimed.toFixed(1)} s its header declares`, decoded)
    : new DecodeMismatchError('longer', `lasts more than ${maxSeconds} s`, decoded);
}

/** Half a second past the limit: enough to see that a file goes on. */
export const DECODE_PAST_LIMIT_SECONDS = 0.5;

/**
 * Decodes the first picture or sound of the file at `path` with its demuxer alone, no further than its claimed
 * length and a tolerance (`maxSeconds` when it claims none, or more), and throws DecodeMismatchError when it lasts
 * longer than it claims or than `maxSeconds`, or when a picture is not of its claimed size. Returns the seconds
 * it decoded. A file that fails to decode otherwise is a MediaRejectedError.
 */
export async function checkDecodeAgainstHeader(
  path: string,
  demuxer: string,
  declared: DeclaredMedia,
  { stream, withSound = false, maxSeconds, checkSeconds = maxSeconds, deadline }: DecodeCheck,
): Promise<number> {
  const { limit } = decodeBounds(declared, maxSeconds, checkSeconds);
  const picture = stream === 'v' && declared.width && declared.height ? { width: declared.width, height: declared.height } : undefined;
  const args = [
    ...SAFE_INPUT,
    '-format_whitelist',
    demuxer,
    '-f',
    demuxer,
    // About the claimed size alone: a larger frame fails its decoder; autorotation would swap the sides it is checked at.
    ...(picture ? ['-max_pixels', String(decoderPixelsFor(picture.width, picture.height)), '-noautorotate'] : []),
    '-i',
    path,
    '-map',
    `0:${stream}:0`,
    ...(withSound && stream === 'v' ? ['-map', '0:a:0'] : []),
    '-t',
    (limit + DECODE_PAST_LIMIT_SECONDS).toFixed(3),
    ...(picture ? ['-vf', `crop=${picture.width}:${picture.height}:0:0`] : []),
    '-xerror',
    '-progress',
    'pipe:1',
    '-f',
    'null',
    '-',
  ];
  let progress: string;
  try {
    progress = (await runFfmpeg(args, { budgetSeconds: decodeCheckBudget(limit, deadline), captureStdout: true })).stdout.toString();
  } catch (error) {
    if (!(error instanceof MediaToolError) || error.signal) throw error;
    if (picture)
      throw new DecodeMismatchError(
        'frame_size',
        `decodes to pictures of another size than the ${picture.width}x${picture.height} it declares, or is damaged`,
      );
    throw new MediaRejectedError('could not be decoded: it is damaged');
  }
  const decoded = lastOutTime(progress);
  const mismatch = lengthMismatch(decoded, declared, maxSeconds, checkSeconds);
  if (mismatch) throw mismatch;
  return decoded;
}
