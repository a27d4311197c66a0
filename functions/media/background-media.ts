/** Backgrounds: what a caller may send, identified and bounded before a frame is rendered (see media.ts). */
import { open } from 'node:fs/promises';
import { imageSize } from 'image-size';
import { limits } from '#domain/limits';
import type { PictureBudget } from '#domain/picture-budget';
import { checkDecodeAgainstHeader, type DecodeCheck, declaredOf } from './decode-check.ts';
import { decoderPixelsFor, MediaBudgetError, MediaRejectedError, MediaToolError, pinnedInput, runFfmpeg, SAFE_INPUT } from './media.ts';
import { identifyInput, type ProbeResult } from './probe.ts';

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

/**
 * The formats a background may be in (docs/security.md). Anything ffmpeg identifies as another is refused.
 * @internal Exported for its tests.
 */
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
/** A background's first seconds are decoded against its header before the render (it is looped or cut to the clip). */
const BACKGROUND_CHECK_SECONDS = 5;
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
  // No frame larger than the one its header declared: a file that grows its pictures later fails its render.
  return [...pinnedInput(media.format.demuxer, decoderPixelsFor(media.width, media.height)), ...(media.format.still ? [] : ['-stream_loop', '-1'])];
}

const px = (w: number, h: number) => `${w}x${h} pixels`;

/** Refuses a picture over the backgrounds' limits (limits.maxBackgroundSide, maxBackgroundPixels), in our words. */
export function checkPictureSize(width: number, height: number): void {
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

/** What inspecting a background's bytes decided, whichever file holds them: the same bytes get the same verdict. */
export type BackgroundVerdict = Omit<BackgroundMedia, 'path'>;

/** Verdicts already reached, under a key of the bytes they were reached on (the caller keys them by content). */
export interface BackgroundVerdicts {
  get(key: string): BackgroundVerdict | undefined;
  set(key: string, verdict: BackgroundVerdict): void;
}

/**
 * Decides whether a downloaded background may be rendered, and how: rejects (MediaRejectedError) anything not in
 * BACKGROUND_FORMATS, without a readable picture, or over the size and frame-rate limits, and remuxes the
 * formats ffmpeg cannot loop. `workDir` receives the remuxed copy. Its frame counts against the clip's `budget`.
 * With `known`, a verdict found under its key is taken without running ffmpeg, and a new one is kept there.
 */
export async function inspectBackground(
  path: string,
  workDir: string,
  budget?: PictureBudget,
  known?: { key: string; verdicts: BackgroundVerdicts },
): Promise<BackgroundMedia> {
  let verdict = known?.verdicts.get(known.key);
  if (verdict) budget?.claim(verdict.width, verdict.height);
  else {
    verdict = await judgeBackground(path, budget);
    known?.verdicts.set(known.key, verdict);
  }
  const media: BackgroundMedia = { path, ...verdict };
  return verdict.format.remux ? remuxToMatroska(media, workDir) : media;
}

/** The inspection itself: the file identified, bounded and its streams checked by ffmpeg. */
async function judgeBackground(path: string, budget?: PictureBudget): Promise<BackgroundVerdict> {
  const declared = await declaredImageSize(path);
  if (declared) checkPictureSize(declared.width, declared.height);

  const identified = await identifyInput(path, FORMAT_WHITELIST);
  const probed = identified?.probed;
  const demuxer = identified?.demuxer;
  const format = BACKGROUND_FORMATS.find((f) => f.demuxer === demuxer);
  if (!probed || !format) throw new MediaRejectedError(`is not a video or picture in an accepted format (${ACCEPTED_FORMATS_TEXT})`);

  const video = probed.streams.filter((s) => s.codec_type === 'video');
  if (!video.length) throw new MediaRejectedError(`(${format.label}) has no video picture`);
  const width = Math.max(...video.map((s) => s.width ?? 0));
  const height = Math.max(...video.map((s) => s.height ?? 0));
  if (!width || !height)
    throw new MediaRejectedError(`(${format.label}) has no picture size that can be read: it may be damaged, or larger than we accept`);
  checkPictureSize(width, height);
  // One frame of it is held at a time: its frame counts against the clip's pictures.
  budget?.claim(width, height);
  const fps = Math.max(...video.map((s) => s.fps ?? 0));
  if (!format.still && fps > limits.maxBackgroundFps)
    throw new MediaRejectedError(`has ${fps} frames per second; at most ${limits.maxBackgroundFps} are accepted`);

  const claimsSound = probed.streams.some((s) => s.codec_type === 'audio');
  // A moving picture's first seconds are decoded against its header; one run that also maps the sound the report
  // claims proves both streams there. Any failure of it leaves the verdict to the checks one by one.
  if (!format.still && (await decodesWithClaimedStreams(path, format, probed, claimsSound))) return { format, width, height, hasAudio: claimsSound };
  const hasAudio = await checkStreams(path, format, claimsSound);
  if (!format.still) await checkDecodeAgainstHeader(path, format.demuxer, declaredOf(probed), decodeCheckOf(false));
  return { format, width, height, hasAudio };
}

/** The background's decode check: its first seconds, with its sound when `withSound` (the render loops or cuts it). */
const decodeCheckOf = (withSound: boolean): DecodeCheck => ({ stream: 'v', withSound, maxSeconds: Infinity, checkSeconds: BACKGROUND_CHECK_SECONDS });

/**
 * Whether the picture, and the sound when the report claims one, map and decode as the header says, in one run. Its
 * budget is the picture's: a run with the sound that goes over it is left to the checks one by one too (the picture
 * alone may be within it), where a picture alone over it is the verdict.
 */
async function decodesWithClaimedStreams(path: string, format: BackgroundFormat, probed: ProbeResult, claimsSound: boolean): Promise<boolean> {
  try {
    await checkDecodeAgainstHeader(path, format.demuxer, declaredOf(probed), decodeCheckOf(claimsSound));
    return true;
  } catch (error) {
    if (error instanceof MediaRejectedError || (claimsSound && error instanceof MediaBudgetError)) return false;
    throw error;
  }
}

/**
 * Whether the file has a picture (else it is refused) and a sound. The report's stream lines can be forged (a
 * metadata key may hold a line break and a "Stream" line of its own), so this is asked of ffmpeg's stream mapping,
 * not read. Side by side; both settle before either result is used, so no check outlives the inspection.
 */
async function checkStreams(path: string, format: BackgroundFormat, claimsSound: boolean): Promise<boolean> {
  const [videoCheck, audioCheck] = await Promise.allSettled([hasStream(path, format, 'v'), claimsSound && hasStream(path, format, 'a')]);
  if (videoCheck.status === 'rejected') throw videoCheck.reason;
  if (audioCheck.status === 'rejected') throw audioCheck.reason;
  if (!videoCheck.value) throw new MediaRejectedError(`(${format.label}) has no video picture`);
  return audioCheck.value;
}

/** Whether the file really has a stream of `kind`: mapping it works (`-t 0`: nothing is decoded). */
async function hasStream(path: string, format: BackgroundFormat, kind: 'v' | 'a'): Promise<boolean> {
  const { exitCode } = await runFfmpeg([...pinnedInput(format.demuxer), '-i', path, '-map', `0:${kind}:0`, '-t', '0', '-f', 'null', '-'], {
    budgetSeconds: 20,
    anyExit: true,
    stallSeconds: false,
  });
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
