/**
 * A video bot's look from a recording of a person (Video Rewrite, Bregler, Covell and Slaney 1997; see
 * docs/video-bots.md): the recording decoded once at most 720 px on its short side and 30 fps, its face followed
 * on every frame, the base loop found (where a frame looks like one a few seconds earlier, so a clip of any length
 * plays it over and over without a visible jump), and the mouth atlas cut. The render draws each frame of the loop
 * with its lower face replaced by the atlas's sample of the mouth the speech needs.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Point } from '#domain/face-space';
import { limits } from '#domain/limits';
import type { BotManifest, FootageLoop, FootageManifest } from '#domain/look';
import { cutFootage, decodeRecording, inspectRecording, preparedSize, type Recording } from '#media/footage-media';
import { MediaRejectedError } from '#media/media';
import { LookError, type PreparedLook } from '../look.ts';
import { chooseListenLoop, chooseLoop } from './footage-loop.ts';
import { matteLoop } from './footage-matte.ts';
import { isFrontal, listeningStretches, type ReadRecording, readRecording, smoothTrack, unseenStretches } from './footage-track.ts';
import { buildAtlas } from './mouth-atlas.ts';
import { measureMouth, mouthRange } from './mouth-measures.ts';

/** The footage's frame rate: the engine's. */
const FPS = 30;
/** The footage's short side at most, px. */
const SHORT_SIDE = 720;
/** A face narrower than this (jaw to jaw, px of the recording) is refused: too little detail for a mouth. */
const MIN_FACE_PX = 120;
/** How long the face may be gone, seconds. */
const MAX_FACE_GAP_SECONDS = 2;

const FILES = {
  footage: 'footage.mp4',
  loop: 'loop.mp4',
  listen: 'listen.mp4',
  loopMatte: 'loop-matte.mp4',
  listenMatte: 'listen-matte.mp4',
  loopCutout: 'loop-cutout.mp4',
  listenCutout: 'listen-cutout.mp4',
  track: 'track.json',
  atlas: 'mouths.png',
  preview: 'preview.png',
} as const;

async function inspect(path: string, bytes: number): Promise<Recording> {
  if (bytes > limits.maxRecordingBytes)
    throw new LookError('video_too_large', `the recording is larger than ${limits.maxRecordingBytes / 1024 / 1024} MB`);
  let recording: Recording;
  try {
    recording = await inspectRecording(path);
  } catch (error) {
    if (error instanceof MediaRejectedError) throw new LookError('video_invalid', `the recording ${error.reason}`);
    throw error;
  }
  const seconds = recording.durationSeconds;
  if (seconds < limits.minRecordingSeconds)
    throw new LookError(
      'video_too_short',
      `the recording lasts ${seconds.toFixed(1)} s; send at least ${limits.minRecordingSeconds} s (30 s to 2 min is best)`,
    );
  if (seconds > limits.maxRecordingSeconds)
    throw new LookError('video_too_long', `the recording lasts ${Math.round(seconds)} s; send at most ${limits.maxRecordingSeconds / 60} minutes`);
  return recording;
}

/** The refusals that need the whole track: no face, several people, a face too small, turned away, or gone too long. */
function checkFace(read: ReadRecording, recording: Recording) {
  const found = read.landmarks.filter((l): l is Point[] => !!l);
  if (!found.length) throw new LookError('no_face_found', 'no face was found in the recording; film one person facing the camera');
  const several = read.detections.filter((n) => n >= 2).length;
  if (several > read.detections.length / 3) throw new LookError('several_faces', 'more than one person is in the recording; film one person alone');
  const widths = found.map((l) => Math.hypot(l[16]!.x - l[0]!.x, l[16]!.y - l[0]!.y)).sort((a, b) => a - b);
  const faceWidth = widths[Math.floor(widths.length / 2)]! * (recording.width / read.size.width);
  if (faceWidth < MIN_FACE_PX)
    throw new LookError('face_too_small', `the face is ${Math.round(faceWidth)} px wide; film closer (at least ${MIN_FACE_PX} px)`);
  if (found.filter(isFrontal).length < found.length / 2)
    throw new LookError('face_turned_away', 'the face is turned away from the camera in most of the recording; look into the camera');
  let gap = 0;
  for (const frame of read.landmarks) {
    gap = frame ? 0 : gap + 1;
    if (gap > MAX_FACE_GAP_SECONDS * FPS)
      throw new LookError('face_lost', `the face leaves the picture for more than ${MAX_FACE_GAP_SECONDS} s; stay in the frame`);
  }
}

/** The layout's view of the footage: its frame is the canvas and the card, the face's box the head. */
function canvasOf(size: { width: number; height: number }, track: readonly Point[][]): Omit<BotManifest, 'footage' | 'look'> {
  const first = track.find((l) => l.length)!;
  const xs = first.map((p) => p.x);
  const ys = first.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const pad = (x1 - x0) * 0.25;
  return {
    width: size.width,
    height: size.height,
    panel: { file: '', x: 0, y: 0, width: size.width, height: size.height, radius: 0 },
    back: '',
    body: '',
    head: { x: Math.max(0, x0 - pad), y: Math.max(0, y0 - pad * 2), width: x1 - x0 + 2 * pad, height: y1 - y0 + 3 * pad, frames: {} },
    mouthLevels: 5,
    mouth: { x: (first[48]!.x + first[54]!.x) / 2, y: (first[51]!.y + first[57]!.y) / 2 },
    anchor: { x: size.width / 2, y: size.height },
    preview: FILES.preview,
    headMotion: false,
  };
}

/**
 * Builds a video bot's look from the recording at `path` (`bytes` long), working in `workDir`: refused without a
 * closed mouth, its loops matted (the person cut out, for `remove_bot_background`).
 */
export async function buildFootageLook(path: string, bytes: number, workDir: string): Promise<PreparedLook> {
  return footageLookOf(path, bytes, workDir, { closedLips: true, cutout: true });
}

/**
 * The look of a recording; `closedLips` refuses one whose lips are never seen closed (before the matte is paid for),
 * `cutout` mattes its loops. The tests draw a filmed photo of a real person whose lips never close
 * (docs/video-bots.md, "Test material"), and matte it only where the matte is what they test.
 * @internal Exported for its tests.
 */
export async function footageLookOf(
  path: string,
  bytes: number,
  workDir: string,
  options: { closedLips?: boolean; cutout?: boolean } = {},
): Promise<PreparedLook> {
  const recording = await inspect(path, bytes);
  const size = preparedSize(recording, SHORT_SIDE);
  const footagePath = join(workDir, FILES.footage);
  const read = await readRecording(decodeRecording(recording, size, FPS, limits.maxRecordingSeconds, footagePath), size);
  checkFace(read, recording);
  const track = smoothTrack(read.landmarks);
  const measures = track.map(measureMouth);
  const listening = listeningStretches(measures, FPS);
  const loop = chooseLoop(track, read.thumbs, listening, FPS);
  const atlas = await buildAtlas(read.pool.kept.filter(Boolean), mouthRange(measures), read.eyePx);
  if (options.closedLips && !atlas.samples.some((s) => s.frame === 'm0'))
    throw new LookError('mouth_never_closed', 'the lips are never seen closed while facing the camera; include a few seconds of listening');
  const listenLoop = chooseListenLoop(track, read.thumbs, listening, FPS);
  const loopPath = join(workDir, FILES.loop);
  await cutFootage(footagePath, FPS, loop, loopPath);
  const listenPath = join(workDir, FILES.listen);
  if (listenLoop) await cutFootage(footagePath, FPS, listenLoop, listenPath);
  const reference = read.reference!.map((p) => ({ x: Number(p.x.toFixed(2)), y: Number(p.y.toFixed(2)) }));
  const loops: { loop: FootageLoop; listen?: FootageLoop } = {
    loop: { file: FILES.loop, ...loop },
    ...(listenLoop && { listen: { file: FILES.listen, ...listenLoop } }),
  };
  if (options.cutout) {
    const footage = { ...size, fps: FPS, reference };
    const matted = async (loop: FootageLoop, path: string, matte: string, cutout: string) => {
      await matteLoop(loop, path, { mattePath: join(workDir, matte), cutoutPath: join(workDir, cutout) }, footage, track);
      Object.assign(loop, { matte, cutout });
    };
    await matted(loops.loop, loopPath, FILES.loopMatte, FILES.loopCutout);
    if (loops.listen) await matted(loops.listen, listenPath, FILES.listenMatte, FILES.listenCutout);
  }
  const footage: FootageManifest = {
    width: size.width,
    height: size.height,
    fps: FPS,
    file: FILES.footage,
    frames: track.length,
    ...loops,
    track: FILES.track,
    reference,
    eyePx: read.eyePx,
    atlas: FILES.atlas,
    samples: atlas.samples,
    listening,
    unseen: unseenStretches(read.landmarks),
  };
  const frames = [...new Set(atlas.samples.map((s) => s.frame))];
  const shapes = (['round', 'wide', 'fv'] as const).filter((shape) =>
    (shape === 'round' ? ['r1', 'r2'] : shape === 'wide' ? ['w1', 'w2'] : ['fv']).some((f) => frames.includes(f)),
  );
  const manifest: BotManifest = { look: 'footage', ...canvasOf(size, track), mouthShapes: shapes, footage };
  const trackJson = JSON.stringify(track.map((frame) => frame.flatMap((p) => [Number(p.x.toFixed(1)), Number(p.y.toFixed(1))])));
  const files = new Map<string, Buffer>([
    ['manifest.json', Buffer.from(JSON.stringify(manifest))],
    [FILES.footage, await readFile(footagePath)],
    [FILES.loop, await readFile(loopPath)],
    ...(listenLoop ? ([[FILES.listen, await readFile(listenPath)]] as const) : []),
    ...(await Promise.all(
      [loops.loop.matte, loops.loop.cutout, loops.listen?.matte, loops.listen?.cutout]
        .filter((f) => f !== undefined)
        .map(async (f) => [f, await readFile(join(workDir, f))] as const),
    )),
    [FILES.track, Buffer.from(trackJson)],
    [FILES.atlas, atlas.png],
    [FILES.preview, read.preview ?? atlas.png],
  ]);
  return { manifest, files };
}
