/**
 * A recording read once, frame by frame: its face followed (./track.ts), the candidates of the mouth atlas cut on
 * the way, a thumbnail of every frame kept for finding loop points; then the track smoothed over time so that a
 * still face does not jitter, and the stretches where the person listens found.
 */
import sharp from 'sharp';
import { eyeDistance, type Point, referenceFace, toReference } from '#domain/face-space';
import type { FrameReader } from '#media/media';
import { CandidatePool, cutLowerFace } from './mouth-atlas.ts';
import { CLOSED_OPENING, type MouthMeasure, measureMouth } from './mouth-measures.ts';
import { FaceTracker } from './track.ts';

/** The reference face's eye distance at most, px: the atlas's detail (a 720p head-and-shoulders shot has about 90). */
const MAX_EYE_PX = 110;
/** Thumbnails for the loop points: the frame this many px wide, grey. */
const THUMB_WIDTH = 40;

export interface ReadRecording {
  size: { width: number; height: number };
  /** Raw landmarks of each frame (undefined where no face was found). */
  landmarks: (Point[] | undefined)[];
  /** Faces the detector counted, on the frames it ran on. */
  detections: number[];
  thumbs: Uint8Array[];
  thumbHeight: number;
  pool: CandidatePool;
  reference?: Point[];
  eyePx: number;
  /** A frame with the face, as PNG: the bot's preview. */
  preview?: Buffer;
}

const grey = (rgb: Buffer, width: number, height: number, thumbHeight: number): Uint8Array => {
  const out = new Uint8Array(THUMB_WIDTH * thumbHeight);
  for (let j = 0; j < thumbHeight; j++)
    for (let i = 0; i < THUMB_WIDTH; i++) {
      const x = Math.floor(((i + 0.5) * width) / THUMB_WIDTH);
      const y = Math.floor(((j + 0.5) * height) / thumbHeight);
      const p = (y * width + x) * 3;
      out[j * THUMB_WIDTH + i] = (rgb[p]! * 77 + rgb[p + 1]! * 150 + rgb[p + 2]! * 29) >> 8;
    }
  return out;
};

/** Reads every frame of `reader` (RGB of `size`): the landmarks, the thumbnails, the atlas's candidates, a preview. */
export async function readRecording(reader: FrameReader, size: { width: number; height: number }): Promise<ReadRecording> {
  const tracker = new FaceTracker(size.width, size.height);
  const thumbHeight = Math.max(1, Math.round((THUMB_WIDTH * size.height) / size.width));
  const read: ReadRecording = { size, landmarks: [], detections: [], thumbs: [], thumbHeight, pool: new CandidatePool(), eyePx: 0 };
  let previous: Point[] | undefined;
  for (let index = 0; ; index++) {
    const rgb = await reader.next();
    if (!rgb) break;
    const tracked = await tracker.next(rgb);
    read.landmarks.push(tracked.landmarks);
    if (tracked.faces !== undefined) read.detections.push(tracked.faces);
    read.thumbs.push(grey(rgb, size.width, size.height, thumbHeight));
    const landmarks = tracked.landmarks;
    if (landmarks && !read.reference) {
      read.eyePx = Math.min(MAX_EYE_PX, Math.round(eyeDistance(landmarks)));
      read.reference = referenceFace(landmarks, read.eyePx);
    }
    if (landmarks && !read.preview && index >= 15) read.preview = await previewOf(rgb, size);
    if (landmarks && previous && read.reference && isFrontal(landmarks)) {
      const slot = read.pool.wants();
      if (slot !== undefined) {
        const cut = cutLowerFace(rgb, size.width, size.height, landmarks, read.reference, read.eyePx);
        const t = toReference(landmarks, read.reference);
        read.pool.put(slot, { index, ...cut, measure: measureMouth(landmarks), motion: lipMotion(landmarks, previous), roll: Math.atan2(t.b, t.a) });
      }
    }
    previous = landmarks;
  }
  return read;
}

const previewOf = (rgb: Buffer, size: { width: number; height: number }) =>
  sharp(rgb, { raw: { width: size.width, height: size.height, channels: 3 } })
    .resize({ height: Math.min(480, size.height) })
    .png()
    .toBuffer();

/** How far the lips moved since the frame before, eye distances (mean over the 20 lip points). */
function lipMotion(now: readonly Point[], before: readonly Point[]): number {
  let sum = 0;
  for (let i = 48; i < 68; i++) sum += Math.hypot(now[i]!.x - before[i]!.x, now[i]!.y - before[i]!.y);
  return sum / 20 / eyeDistance(now);
}

/**
 * Facing the camera: the nose's tip between 25 % and 75 % of the way across the jaw (a head turned by more than
 * about 35° puts it further aside; the test portrait, turned a little, has it at 28 %).
 */
export function isFrontal(landmarks: readonly Point[]): boolean {
  const across = (landmarks[30]!.x - landmarks[0]!.x) / (landmarks[16]!.x - landmarks[0]!.x);
  return across > 0.25 && across < 0.75;
}

/**
 * The track smoothed over time (a Gaussian over neighbouring frames, narrower for the lips so that a closure is
 * kept), gaps (frames without a face) filled from the nearest frames that have one.
 */
export function smoothTrack(raw: readonly (Point[] | undefined)[]): Point[][] {
  const filled: Point[][] = [];
  let last: Point[] | undefined = raw.find(Boolean);
  for (const frame of raw) {
    if (frame) last = frame;
    filled.push(last ?? []);
  }
  const kernel = (sigma: number) => {
    const radius = Math.ceil(sigma * 2.5);
    return Array.from({ length: 2 * radius + 1 }, (_, k) => Math.exp(-((k - radius) ** 2) / (2 * sigma * sigma)));
  };
  const face = kernel(1.5);
  const lips = kernel(0.8);
  return filled.map((frame, i) =>
    frame.map((_, p) => {
      const weights = p >= 48 ? lips : face;
      const radius = (weights.length - 1) / 2;
      let x = 0,
        y = 0,
        total = 0;
      for (let k = -radius; k <= radius; k++) {
        const j = i + k;
        // Only frames where a face was found count; the gaps' filled copies would hold the face still.
        if (j < 0 || j >= filled.length || !raw[j]) continue;
        const w = weights[k + radius]!;
        x += filled[j]![p]!.x * w;
        y += filled[j]![p]!.y * w;
        total += w;
      }
      return total ? { x: x / total, y: y / total } : filled[i]![p]!;
    }),
  );
}

/** The stretches [from, to) of frames where no face was found or it was turned away (not frontal). */
export function unseenStretches(raw: readonly (Point[] | undefined)[]): Array<[number, number]> {
  const stretches: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= raw.length; i++) {
    const frame = raw[i];
    const unseen = i < raw.length && !(frame && isFrontal(frame));
    if (unseen && start < 0) start = i;
    if (!unseen && start >= 0) {
      stretches.push([start, i]);
      start = -1;
    }
  }
  return stretches;
}

/** The listening stretches [from, to): at least a second where the mouth stays closed and still. */
export function listeningStretches(measures: readonly MouthMeasure[], fps: number): Array<[number, number]> {
  const quiet = measures.map((m) => m.opening < CLOSED_OPENING * 1.3);
  const stretches: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= quiet.length; i++) {
    if (i < quiet.length && quiet[i]) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start >= fps) stretches.push([start, i]);
      start = -1;
    }
  }
  return stretches;
}
